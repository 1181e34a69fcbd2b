"""The game's vocabulary in the table's words: one table, Russian and Ukrainian.

Every screen that puts a piece of the game into words takes it from here: the cards, the
sides and the winners, how a seat left the game, the night's acts, the phases («День 1»,
«Ночь 2»), the timers (a step's name), the kinds of speech, the review's timeline kinds, the
rulesets' and scoring systems' names, the headings of the results, the connection's sign.
The keys are the codes the protocol and the views already carry (``"sheriff"``, ``"vote"``,
``"crime-time"``): the engine's spelling, never changed here.

The pages get the whole table as a script (:func:`script`, served as ``words.js`` by every
web app), so no page script keeps its own copy; Python's screens (the host-assist TUI, the
terminal operator, the review page, the exports' human text) call :func:`word` and the
helpers below. :mod:`narrator.reasons` does the same for the reasons an input is refused.

A code the table does not know is shown as it is (a new card a ruleset adds is seen, not
hidden); a test holds every code the engine has covered in both languages.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Literal

__all__ = ["GROUPS", "Lang", "as_lang", "card", "departure", "phase", "script", "word"]

Lang = Literal["ru", "uk"]

Table = Mapping[str, Mapping[Lang, str]]



def _t(**pairs: tuple[str, str]) -> dict[str, dict[Lang, str]]:
    """A group from ``code=(ru, uk)`` pairs."""
    return {code: {"ru": ru, "uk": uk} for code, (ru, uk) in pairs.items()}


#: a seat's card (Role's values)
CARDS = _t(
    civilian=("Мирный житель", "Мирний житель"), sheriff=("Шериф", "Шериф"),
    mafia=("Мафия", "Мафія"), don=("Дон мафии", "Дон мафії"), doctor=("Доктор", "Доктор"),
    maniac=("Маньяк", "Маніяк"), commissar=("Комиссар", "Комісар"),
    nurse=("Медсестра", "Медсестра"),
)
#: a side (Team's values)
TEAMS = _t(civilians=("Мирные", "Мирні"), mafia=("Мафия", "Мафія"), draw=("Ничья", "Нічия"))
#: the game's result (the winning Team's value)
WINNERS = _t(civilians=("Победа мирных", "Перемога мирних"),
             mafia=("Победа мафии", "Перемога мафії"), draw=("Ничья", "Нічия"))
#: how a seat left the game (Game.how_out: the table sees a night's kill as "shot")
DEPARTURES = _t(
    shot=("убит ночью", "вбитий уночі"), vote=("заголосован", "проголосований"),
    crash=("автокатастрофа", "автокатастрофа"), removed=("удалён", "видалений"),
    sheriff_shot=("застрелен Шерифом", "застрелений Шерифом"),
    maniac=("убит Маньяком", "вбитий Маніяком"), maniac_kill=("убит Маньяком", "вбитий Маніяком"),
    mafia_kill=("убит мафией", "вбитий мафією"), killed=("убит ночью", "вбитий уночі"),
)
#: a night act (the hunt's shot, a check, a kill, a save)
ACTS = _t(shot=("выстрел", "постріл"), check=("проверка", "перевірка"),
          kill=("убийство", "вбивство"), save=("лечение", "лікування"))
#: the two halves of a round (Phase.time)
TIMES = _t(day=("День", "День"), night=("Ночь", "Ніч"))
#: a timer's name: the step it times (the first night's steps are the rulesets' own)
TIMERS = _t(
    speech=("речь", "промова"), vote=("голосование", "голосування"),
    put_up=("выставление", "виставлення"), hunt=("охота", "полювання"),
    floor=("поднятая рука", "піднята рука"), extra=("ещё 30 секунд", "ще 30 секунд"),
    night=("наступает ночь", "настає ніч"), dealing=("раздача карт", "роздача карт"),
    masks=("маски", "маски"), don_noted=("Дон знакомится с ведущим",
                                         "Дон знайомиться з ведучим"),
    don_sleeps=("Дон засыпает", "Дон засинає"), agreement=("договорка мафии",
                                                           "домовленість мафії"),
    mafia_meets=("мафия знакомится", "мафія знайомиться"),
    mafia_sleeps=("мафия засыпает", "мафія засинає"),
    sheriff_noted=("Шериф осматривает стол", "Шериф оглядає стіл"),
    sheriff_sleeps=("Шериф засыпает", "Шериф засинає"),
    doctor_noted=("Доктор показывается", "Доктор позначається"),
    maniac_noted=("Маньяк показывается", "Маніяк позначається"),
    maniac_side=("сторона Маньяка", "сторона Маніяка"),
    commissar_meets=("Комиссар знакомится", "Комісар знайомиться"),
    nurse_meets=("Медсестра знакомится", "Медсестра знайомиться"),
    nurse_sleeps=("Медсестра засыпает", "Медсестра засинає"),
    allowed=("время ночи", "час ночі"), mafia=("ход мафии", "хід мафії"),
    sheriff=("ход Шерифа", "хід Шерифа"), don=("ход Дона", "хід Дона"),
    doctor=("ход Доктора", "хід Доктора"), maniac=("ход Маньяка", "хід Маніяка"),
    commissar=("ход Комиссара", "хід Комісара"), nurse=("ход Медсестры", "хід Медсестри"),
    pause=("пауза", "пауза"),
    don_check=("проверка Дона", "перевірка Дона"),
    sheriff_check=("проверка Шерифа", "перевірка Шерифа"),
    commissar_check=("проверка Комиссара", "перевірка Комісара"),
    sheriff_acts=("ход Шерифа", "хід Шерифа"), mafia_chooses=("мафия выбирает", "мафія обирає"),
    mafia_decides=("мафия решает", "мафія вирішує"), maniac_kills=("ход Маньяка", "хід Маніяка"),
    doctor_saves=("ход Доктора", "хід Доктора"), nurse_heals=("ход Медсестры", "хід Медсестри"),
    kill=("убийство", "вбивство"), sheriff_wakes=("ход Шерифа", "хід Шерифа"),
)
#: a kind of speech (SpeechKind)
SPEECHES = _t(day=("речь", "промова"), last=("последнее слово", "останнє слово"),
              tie=("речь перед переголосованием", "промова перед переголосуванням"),
              intro=("знакомство", "знайомство"), extra=("ещё 30 секунд", "ще 30 секунд"),
              justify=("оправдание", "виправдання"), leader=("слово лидеру", "слово лідеру"))
#: the review's timeline kinds (narrator.review.timeline.KINDS)
KINDS = _t(
    heard=("услышано", "почуто"), press=("нажатие", "натискання"), said=("сказано", "сказано"),
    step=("шаг", "крок"), nomination=("выставление", "виставлення"), hand=("руки", "руки"),
    vote=("голосование", "голосування"), foul=("фол", "фол"), removal=("выбытие", "вибуття"),
    refused=("отказ", "відмова"), undo=("отмена", "скасування"), mark=("оценка", "оцінка"),
    night=("ночь", "ніч"), end=("конец", "кінець"),
)
#: a ruleset's name (Rules.name)
RULESETS = _t(
    crime_time=("Криминальное время", "Кримінальний час"),
    professional=("Профессиональные правила", "Професійні правила"),
    vrn=("Мафия ВРН", "Мафія ВРН"), vrn_closed=("Мафия ВРН, закрытая", "Мафія ВРН, закрита"),
    amateur=("Любительские правила", "Любительські правила"), base=("Правила", "Правила"),
)
# (the codes written with a dash on the wire: a keyword argument cannot hold one)
RULESETS["crime-time"] = RULESETS.pop("crime_time")
RULESETS["vrn-closed"] = RULESETS.pop("vrn_closed")
#: a scoring system's name (narrator.scoring.system)
SYSTEMS = _t(fiim=("ФИИМ", "ФІІМ"), points=("баллы клуба", "бали клубу"))
#: an input's kind (a refused one's: the action's name)
INPUTS = _t(
    nominate=("выставление", "виставлення"), withdraw=("снятие", "зняття"),
    vote=("голос", "голос"), shot=("выстрел", "постріл"), check=("проверка", "перевірка"),
    kill=("убийство", "вбивство"), save=("лечение", "лікування"), foul=("фол", "фол"),
    remove=("удаление", "видалення"), floor=("слово", "слово"), thumb=("палец", "палець"),
    extra=("ещё 30 с", "ще 30 с"), best_move=("лучший ход", "найкращий хід"),
    on_record=("под протокол", "під протокол"), mark=("оценка", "оцінка"),
    accuse=("обвинение", "звинувачення"), tech_foul=("техфол", "техфол"),
    hands=("руки", "руки"), end=("конец речи", "кінець промови"), undo=("отмена", "скасування"),
    seen=("карта просмотрена", "карту переглянуто"), shoot=("выстрел", "постріл"),
    act=("ход ночью", "хід уночі"), skip=("пропуск", "пропуск"), start=("начало", "початок"),
    hand_count=("руки", "руки"), draw=("жеребьёвка", "жеребкування"),
)
#: the host's titles in the marks (MARK_TITLES)
TITLES = _t(best_player=("лучший игрок", "найкращий гравець"),
            best_move=("лучший ход", "найкращий хід"), worst_move=("худший ход", "найгірший хід"))
#: the screens' own headings and signs
HEADINGS = _t(
    results=("Итоги", "Підсумки"), standings=("Турнирная таблица", "Турнірна таблиця"),
    place=("Место", "Місце"), player=("Игрок", "Гравець"), games=("Игры", "Ігри"),
    wins=("Победы", "Перемоги"), points=("Баллы", "Бали"), nominations=("Выставлены",
                                                                         "Виставлені"),
    votes=("Голосование", "Голосування"), night=("Ночь", "Ніч"), seat=("Место", "Місце"),
    nickname=("Ник", "Нік"), card=("Карта", "Карта"), kind=("Вид", "Вид"), all=("все", "усі"),
    time=("Время", "Час"), seats=("Игроки", "Гравці"), what=("Что", "Що"),
    became=("Итог", "Підсумок"), heard=("Запись", "Запис"), review=("Разбор игры", "Розбір гри"),
    waiting=("Трансляция: ждём стол (с задержкой)", "Трансляція: чекаємо на стіл (із затримкою)"),
    miss=("мимо", "мимо"), by=("от", "від"), for_=("за", "за"),
    hands=("рук", "рук"), abstained=("воздержавшихся", "утрималися"),
    # (the hand-vote box of the last candidate: «Не голосовали: 4 — все за 6 (руки и
    # воздержавшиеся, 2.4)»)
    not_voted=("Не голосовали", "Не голосували"), all_for=("все за", "усі за"),
    hands_and_abstained=("руки и воздержавшиеся", "руки й ті, хто утримався"),
    link=("связь", "зв'язок"), link_off=("нет связи", "немає зв'язку"),
    whole=("Вся запись", "Весь запис"), version=("версия", "версія"),
)

#: every group, by its name in the script (``WORDS.ru.card.sheriff``)
GROUPS: dict[str, Table] = {
    "card": CARDS, "team": TEAMS, "winner": WINNERS, "out": DEPARTURES, "act": ACTS,
    "time": TIMES, "timer": TIMERS, "speech": SPEECHES, "kind": KINDS, "rules": RULESETS,
    "system": SYSTEMS, "title": TITLES, "head": HEADINGS, "input": INPUTS,
}
def as_lang(lang: str | None) -> Lang:
    """The table's language of ``lang`` (Russian for any other)."""
    return "uk" if lang == "uk" else "ru"


def word(group: str, code: str | None, lang: str) -> str:
    """``code`` of ``group`` in ``lang``'s words (the code itself when the table lacks it;
    "" for None)."""
    if code is None:
        return ""
    base, at, version = str(code).partition("@")
    if at and version.isdigit() and base in GROUPS[group]:  # a system at a version: fiim@3
        return f"{word(group, base, lang)}, {word('head', 'version', lang)} {version}"
    entry = GROUPS[group].get(str(code))
    return entry[as_lang(lang)] if entry is not None else str(code)


def card(role: object, lang: str) -> str:
    """A card's name (a Role, or its value)."""
    return word("card", str(getattr(role, "value", role)), lang)


def departure(how: str | None, lang: str) -> str:
    """How a seat left the game (a ruleset's ``ROLE_kill``: killed at night)."""
    if how is not None and how not in DEPARTURES and how.endswith("_kill"):
        how = "killed"
    return word("out", how, lang)


def phase(time: str, number: int, lang: str) -> str:
    """«День 1», «Ночь 2» (``time``: "day" or "night", or a short form such as "n2")."""
    if time[:1] in "nd" and time[1:].isdigit():
        time, number = ("night" if time[0] == "n" else "day"), int(time[1:])
    return f"{word('time', time, lang)} {number}"


def table_for(lang: str) -> dict[str, dict[str, str]]:
    """Every group in ``lang``: what a page's script looks its words up in."""
    chosen = as_lang(lang)
    return {name: {code: words[chosen] for code, words in group.items()}
            for name, group in GROUPS.items()}


def script() -> str:
    """The table as a page's script (``words.js``): ``var WORDS = {ru: …, uk: …}``."""
    both = {lang: table_for(lang) for lang in ("ru", "uk")}
    return ("// the game's words, from narrator/words.py (made by the server, never edited)\n"
            f"var WORDS = {json.dumps(both, ensure_ascii=False, sort_keys=True)};\n")
