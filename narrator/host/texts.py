"""The host's screens' own words, in the table's language (``--lang``: Russian or Ukrainian):
host-assist's labels, log, key bar and prompts; the operator's terminal of a hostless table
(``play``) and of an evening — its questions, its log of what was heard and taken, its last
lines (the ``t_`` keys).

The game's vocabulary (cards, how a seat left, timers, phases) is :mod:`narrator.words`'s and
the reasons an input is refused :mod:`narrator.reasons`'; this table holds only what the
host-assist screen says around them. ``en`` is the programmers' language of the module's API
(its tests read it); a table is never shown it unless nobody asked for Russian or Ukrainian.
"""

from __future__ import annotations

from typing import Literal

from narrator import words as vocab
from narrator.engine import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    Foul,
    Game,
    HandCount,
    Hands,
    HandsUp,
    Kill,
    Malformed,
    Mark,
    Nominate,
    OnRecord,
    Remove,
    Save,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    TimeUp,
    Withdraw,
)
from narrator.host.terminal_texts import TERMINAL
from narrator.reasons import words as reason_words

__all__ = ["ScreenLang", "action_words", "card", "mark", "screen_lang", "seat", "timer", "tx", "where", "winner"]

ScreenLang = Literal["ru", "uk", "en"]


def screen_lang(lang: str | None) -> ScreenLang:
    """The screen's language: ``ru``, ``uk`` or the API's ``en``."""
    if lang == "uk":
        return "uk"
    return "en" if lang == "en" else "ru"


#: key → (en, ru, uk); ``{name}`` fields filled by :func:`tx`
_SCREEN: dict[str, tuple[str, str, str]] = {
    "title": ("narrator · host-assist", "Помощник ведущего", "Помічник ведучого"),
    # -- the key bar (Textual's footer) --
    "k_seat": ("seat", "номер", "номер"),
    "k_enter": ("enter", "ввод", "ввід"),
    "k_next": ("next", "дальше", "далі"),
    "k_skip": ("skip", "таймер", "таймер"),
    "k_withdraw": ("withdraw", "снять", "зняти"),
    "k_red": ("red on record", "красный под протокол", "червоний під протокол"),
    "k_black": ("black on record", "чёрный под протокол", "чорний під протокол"),
    "k_best": ("best move", "лучший ход", "найкращий хід"),
    "k_shot": ("shot", "выстрел", "постріл"),
    "k_check": ("check", "проверка", "перевірка"),
    "k_foul": ("foul", "фол", "фол"),
    "k_tech": ("tech foul", "техфол", "техфол"),
    "k_remove": ("remove", "удалить", "видалити"),
    "k_undo": ("undo", "отменить", "скасувати"),
    "k_roles": ("roles", "карты", "карти"),
    "k_quit": ("quit", "выход", "вихід"),
    "k_clear": ("Clear", "очистить", "очистити"),
    "space": ("Space", "Пробел", "Пробіл"),
    # -- the screen --
    "voting_on": ("Voting on: ", "Голосуем: ", "Голосуємо: "),
    "said": ("Said:", "Сказано:", "Сказано:"),
    "in": ("in", "в игре", "у грі"),
    "out": ("out:", "выбыл: ", "вибув: "),
    "fouls": ("fouls", "фолы", "фоли"),
    "tonight": ("tonight", "этой ночью", "цієї ночі"),
    "marks": ("Marks: ", "Оценки: ", "Оцінки: "),
    "marks_keys": ("Enter: give · Esc: drop", "Enter: записать · Esc: отменить",
                   "Enter: записати · Esc: скасувати"),
    "number": ("Number: ", "Номер: ", "Номер: "),
    "not_done": ("{what}: not done", "{what}: не сделано", "{what}: не зроблено"),
    "quit": ("quit", "выход", "вихід"),
    "remove": ("remove", "удаление", "видалення"),
    "confirm": ("{question} y: yes, any other key: no", "{question} y: да, другая клавиша: нет",
                "{question} y: так, інша клавіша: ні"),
    "quit_q": ("Quit? (`narrator resume` goes on from the journal)",
               "Выйти? (`narrator resume` продолжит по журналу)",
               "Вийти? (`narrator resume` продовжить за журналом)"),
    "seat_first": ("type a seat number first, then x", "сначала номер игрока, потом x",
                   "спершу номер гравця, потім x"),
    "remove_q": ("Remove seat {seat} from the game (2.4.3)?",
                 "Удалить игрока {seat} из игры (2.4.3)?", "Видалити гравця {seat} з гри (2.4.3)?"),
    "journal": ("journal: {path}", "журнал: {path}", "журнал: {path}"),
    "w_hunt": ("the hunt: enter the target", "охота: введите жертву", "полювання: введіть жертву"),
    "w_count": ("waiting for the count", "ждём подсчёт голосов", "чекаємо на підрахунок"),
    "w_check": ("enter the check", "введите проверку", "введіть перевірку"),
    "w_you": ("waiting for you", "ждём вас", "чекаємо на вас"),
    # -- the phase line --
    "over_draw": ("Game over: a draw", "Игра окончена: ничья", "Гру закінчено: нічия"),
    "over_win": ("Game over: {side} win", "Игра окончена: {side}", "Гру закінчено: {side}"),
    "over": ("Game over", "Игра окончена", "Гру закінчено"),
    "night": ("Night", "Ночь", "Ніч"),
    "day": ("Day", "День", "День"),
    "on": (" (on {seats})", " (за {seats})", " (за {seats})"),
    # -- the hints: the keys before «:» stay keys (a number, Enter, Space, a letter) --
    "h_crash": ("number Enter: hands for the car crash (empty Enter: none)",
                "число Enter: руки за автокатастрофу (пустой Enter: ни одной)",
                "число Enter: руки за автокатастрофу (порожній Enter: жодної)"),
    "h_to_last": (" · abstainers count for the last", " · воздержавшиеся — за последнего",
                  " · утримані — за останнього"),
    "h_last": (" · abstainers: the last", " · воздержавшиеся: за последнего",
               " · утримані: за останнього"),
    "h_seats_vote": ("seats Enter (3 7 / 3,): hands for {c} · Enter: none{last}",
                     "номера Enter (3 7 / 3,): руки за {c} · Enter: ни одной{last}",
                     "номери Enter (3 7 / 3,): руки за {c} · Enter: жодної{last}"),
    "h_vote": ("number Enter: hands for {c} · Enter: none{rest}",
               "число Enter: руки за {c} · Enter: ни одной{rest}",
               "число Enter: руки за {c} · Enter: жодної{rest}"),
    "h_hunt": ("number Enter: every mafioso shot it · 3-7 k: one shot · Space: no shot",
               "номер Enter: все мафиози стреляли в него · 3-7 k: один выстрел · Пробел: мимо",
               "номер Enter: усі мафіозі стріляли в нього · 3-7 k: один постріл · Пробіл: мимо"),
    "h_floor": ("number Enter: that seat speaks next · Space: the next in seat order",
                "номер Enter: говорит этот игрок · Пробел: следующий по порядку",
                "номер Enter: говорить цей гравець · Пробіл: наступний за порядком"),
    "h_put_up": ("accused-thumbs Enter (7-4: four thumbs put 7 up) · Space: none",
                 "обвинённый-пальцы Enter (7-4: четыре пальца за 7) · Пробел: никого",
                 "звинувачений-пальці Enter (7-4: чотири пальці за 7) · Пробіл: нікого"),
    "h_extra_none": ("Space: none (every hand is up)", "Пробел: никого (все руки подняты)",
                     "Пробіл: нікого (усі руки підняті)"),
    "h_extra": ("seats Enter (3,7): 30 s more for each · Space: none",
                "номера Enter (3,7): ещё 30 с каждому · Пробел: никого",
                "номери Enter (3,7): ще 30 с кожному · Пробіл: нікого"),
    "h_over": ("m 4 +0.3 bp -- why Enter: the host's marks (m 4: none) · u: undo · q: quit",
               "m 4 +0.3 bp -- за что Enter: оценки ведущего (m 4: нет) · u: отмена · q: выход",
               "m 4 +0.3 bp -- за що Enter: оцінки ведучого (m 4: немає) · u: скасувати · "
               "q: вихід"),
    "h_timer": ("Space: skip the timer", "Пробел: пропустить таймер", "Пробіл: пропустити таймер"),
    "h_nominate": ("number Enter: nominate", "номер Enter: выставить", "номер Enter: виставити"),
    "h_withdraw": ("number w: withdraw", "номер w: снять", "номер w: зняти"),
    "h_best": ("3,5,7 b: the best move", "3,5,7 b: лучший ход", "3,5,7 b: найкращий хід"),
    "h_thanks": ("Space: «Спасибо», next speaker", "Пробел: «Спасибо», следующий",
                 "Пробіл: «Дякую», наступний"),
    "h_end": ("Space: end the speech", "Пробел: конец речи", "Пробіл: кінець промови"),
    "h_record": ("number o/m: red/black on record", "номер o/m: красный/чёрный под протокол",
                 "номер o/m: червоний/чорний під протокол"),
    "h_checks": ("number Enter: the {role} checks that seat", "номер Enter: проверка: {role}",
                 "номер Enter: перевірка: {role}"),
    "h_let_run": ("Space: let the time run out", "Пробел: пусть время выйдет",
                  "Пробіл: хай час спливе"),
    "h_first_act": ("number Enter: the {role}'s {act}", "номер Enter: {role}, {act}",
                    "номер Enter: {role}, {act}"),
    "h_act": ("number {key}: {act}", "номер {key}: {act}", "номер {key}: {act}"),
    "h_none": ("Space: none", "Пробел: ничего", "Пробіл: нічого"),
    # -- the day's candidates --
    "nominations": ("Nominations: {noms}", "Выставлены: {noms}", "Виставлені: {noms}"),
    "put_up": ("Put up: {noms}", "Выставлены пальцами: {noms}", "Виставлені пальцями: {noms}"),
    "none": ("none", "нет", "немає"),
    # -- the host's secrets behind r --
    "s_night": ("night {n}: ", "ночь {n}: ", "ніч {n}: "),
    "s_miss": ("miss", "промах", "промах"),
    "s_shot": ("shot {seat}", "выстрел в {seat}", "постріл у {seat}"),
    "s_checked": ("{role} checked {seat}: {answer}", "{role} проверил {seat}: {answer}",
                  "{role} перевірив {seat}: {answer}"),
    "yes": ("yes", "да", "так"),
    "no": ("no", "нет", "ні"),
    "s_saved": ("{role} picked {seat}, saved {saved}", "{role} выбрал {seat}, спасён {saved}",
                "{role} обрав {seat}, врятовано {saved}"),
    "s_best": ("best move of {seat}: {named} ({black} black)",
               "лучший ход {seat}: {named} (чёрных: {black})",
               "найкращий хід {seat}: {named} (чорних: {black})"),
    # -- the log --
    "a_hunt": ("the hunt: a shot entered", "охота: выстрел записан", "полювання: постріл записано"),
    "a_night": ("the {role}'s {act} entered", "{role}: {act} записан(а)",
                "{role}: {act} записано"),
    "e_hunt": ("the hunt's entry", "ввод охоты", "введення полювання"),
    "e_check": ("the {role}'s check", "проверка: {role}", "перевірка: {role}"),
    "e_entry": ("the {role}'s entry", "ввод: {role}", "введення: {role}"),
    "undone": ("undone: {what}", "отменено: {what}", "скасовано: {what}"),
    "refused": ("{who}{kind}{target} refused ({reason})", "{who}{kind}{target}: отказ — {reason}",
                "{who}{kind}{target}: відмова — {reason}"),
    "seat_of": ("seat {seat}: ", "игрок {seat}: ", "гравець {seat}: "),
    "internal": ("internal error: {error}", "внутренняя ошибка: {error}",
                 "внутрішня помилка: {error}"),
    "f_sport3": ("seat {seat}: 3rd foul — loses the next discussion speech",
                 "игрок {seat}: 3-й фол — пропускает следующую речь",
                 "гравець {seat}: 3-й фол — пропускає наступну промову"),
    "f_sport4": ("seat {seat}: {n}th foul — removed from the game (2.4.3)",
                 "игрок {seat}: {n}-й фол — удалён из игры (2.4.3)",
                 "гравець {seat}: {n}-й фол — видалений з гри (2.4.3)"),
    "f_n": ("seat {seat}: foul {n}", "игрок {seat}: фол {n}", "гравець {seat}: фол {n}"),
    "f_3": ("seat {seat}: 3rd foul", "игрок {seat}: 3-й фол", "гравець {seat}: 3-й фол"),
    "f_4": ("seat {seat}: {n}th foul — if the club removes at four: {seat} x",
            "игрок {seat}: {n}-й фол — если клуб удаляет за четыре: {seat} x",
            "гравець {seat}: {n}-й фол — якщо клуб видаляє за чотири: {seat} x"),
    # -- what an action is, in the log --
    "x_nominate": ("nominate {t}", "выставлен {t}", "виставлено {t}"),
    "x_withdraw": ("withdraw {t}", "снят {t}", "знято {t}"),
    "x_end": ("end", "конец речи", "кінець промови"),
    "x_timeup": ("timeup {name}", "время вышло: {name}", "час сплив: {name}"),
    "x_hands": ("hands {seats}", "руки: {seats}", "руки: {seats}"),
    "x_no_hands": ("hands", "рук нет", "рук немає"),
    "x_count": ("count {n}", "рук: {n}", "рук: {n}"),
    "x_floor": ("floor {seat}", "слово: {seat}", "слово: {seat}"),
    "x_extra": ("extra {seats}", "ещё 30 с: {seats}", "ще 30 с: {seats}"),
    "x_putup": ("putup {t} {seats}", "выставление {t}: {seats}", "виставлення {t}: {seats}"),
    "x_foul": ("foul {seat}", "фол: {seat}", "фол: {seat}"),
    "x_tech": ("tech_foul {seat}", "техфол: {seat}", "техфол: {seat}"),
    "x_remove": ("remove {seat}", "удалён: {seat}", "видалено: {seat}"),
    "x_best": ("best_move {seats}", "лучший ход: {seats}", "найкращий хід: {seats}"),
    "x_record": ("on_record {seat} {colours}", "под протокол {seat}: {colours}",
                 "під протокол {seat}: {colours}"),
    "x_red": ("red", "красные", "червоні"),
    "x_black": ("black", "чёрные", "чорні"),
    "x_mark": ("mark {seat}", "оценка: {seat}", "оцінка: {seat}"),
    "x_shot": ("shot {shooter} {target}", "выстрел {shooter} → {target}",
               "постріл {shooter} → {target}"),
    "x_act": ("{act} {role} {target}", "{role}: {act} {target}", "{role}: {act} {target}"),
    "x_malformed": ("malformed {kind} {t}", "не принято: {kind} {t}", "не прийнято: {kind} {t}"),
    # -- the deal's form --
    "d_title": ("Deal the cards, then enter the seats (1..{seats}).",
                "Раздайте карты и введите номера (1..{seats}).",
                "Роздайте карти та введіть номери (1..{seats})."),
    "d_names": ("names (optional): 1=Ника, 2=Бублик, …", "ники (можно пропустить): 1=Ника, 2=Бублик, …",
                "ніки (можна пропустити): 1=Ніка, 2=Бублик, …"),
    "d_next": ("Enter: next field, and start the night from the last one.",
               "Enter: следующее поле; с последнего — начать ночь.",
               "Enter: наступне поле; з останнього — почати ніч."),
    "d_seats": ("{card}: {n} seats, e.g. 5 9", "{card}: {n} номера, например 5 9",
                "{card}: {n} номери, наприклад 5 9"),
    "d_seat": ("{card}: seat", "{card}: номер", "{card}: номер"),
    "d_quit": ("Quit", "выход", "вихід"),
}

#: every text: the host-assist screen's and the terminal's
_TEXTS = {**_SCREEN, **TERMINAL}


def tx(key: str, lang: str, /, **fields: object) -> str:
    """The screen's text ``key`` in ``lang``, its fields filled in."""
    en, ru, uk = _TEXTS[key]
    text = {"en": en, "ru": ru, "uk": uk}[screen_lang(lang)]
    return text.format(**fields) if fields else text


def word(group: str, code: str, lang: str) -> str:
    """A piece of the game in the table's words (:mod:`narrator.words`' ``group``); the API's
    English is the code itself."""
    return code if screen_lang(lang) == "en" else vocab.word(group, code, lang)


def card(role: str, lang: str) -> str:
    """A card's name as the screen shows it."""
    return word("card", role, lang)


def timer(name: str, lang: str) -> str:
    """A timer's name (a step)."""
    return word("timer", name, lang)


def act(name: str, lang: str) -> str:
    """A night act's name."""
    return word("act", name, lang)


def departure(how: str, lang: str) -> str:
    """How a seat left the game."""
    return how.replace("_", " ") if screen_lang(lang) == "en" else vocab.departure(how, lang)


def refused_kind(kind: str, lang: str) -> str:
    """The kind of a refused input (``nominate``)."""
    return word("input", kind, lang)


def reason(code: str, lang: str) -> str:
    """Why an input was refused (the code itself in the API's English)."""
    return code if screen_lang(lang) == "en" else reason_words(code, lang)


def title(code: str, lang: str) -> str:
    """A mark's title (``best_player``)."""
    return code.replace("_", " ") if screen_lang(lang) == "en" else vocab.word("title", code, lang)


def seat(number: int | None, names: dict[int, str], lang: str) -> str:
    """``игрок 4`` or, with a nickname, ``игрок 4 (Ника)`` (``seat 4 (Ника)`` in English)."""
    if number is None:
        return tx("t_seat", lang, seat="?")
    name = names.get(number)
    return tx("t_seat_named", lang, seat=number, name=name) if name else tx(
        "t_seat", lang, seat=number)


def winner(team: str | None, lang: str) -> str:
    """Who won, as the terminal's last line says it (``winner: civilians`` in English)."""
    if screen_lang(lang) == "en":
        return tx("t_winner", lang, side=team or "?")
    return tx("t_winner", lang, side=vocab.word("winner", team, lang) if team else "?")


def where(game: Game, lang: str) -> str:
    """Where a game stands, in words: «День 1: Речь игрока 2» (no secret: the phase and the
    step, as the table's screens show them)."""
    phase = game.phase
    if screen_lang(lang) == "en":
        return f"{phase}: {game.expect}"
    shown: Literal["ru", "uk"] = "uk" if lang == "uk" else "ru"
    return f"{vocab.phase(phase.time, phase.number, lang)}: {game.expect.label(shown)}"


def mark(given: Mark, lang: str) -> str:
    """The host's marks of a seat, as the terminal confirms them: «оценка игроку 4: +0.3,
    лучший игрок, «нашла шерифа»» (``mark 4 +0.3 best_player -- …`` in English)."""
    parts = [f"{given.points:+g}"] if given.points else []
    parts += [title(t, lang) for t in given.titles]
    parts += [f"«{given.comment}»"] if given.comment else []
    return tx("t_mark", lang, mark=given, seat=given.seat,
              what=", ".join(parts) or tx("t_mark_none", lang))


def _seats(seats: tuple[int, ...]) -> str:
    return " ".join(map(str, seats))


def action_words(action: Action, lang: str) -> str:
    """An action as the log shows it. A night's shots and checks are secret: a screen that is
    not the host's own words them itself (host-assist's log says only that one was entered)."""
    if screen_lang(lang) == "en":
        return str(action)
    match action:
        case Nominate(target=t):
            return tx("x_nominate", lang, t=t)
        case Withdraw(target=t):
            return tx("x_withdraw", lang, t=t)
        case EndSpeech():
            return tx("x_end", lang)
        case TimeUp(name=name):
            return tx("x_timeup", lang, name=timer(name, lang))
        case Hands(seats=seats):
            return tx("x_hands", lang, seats=_seats(seats)) if seats else tx("x_no_hands", lang)
        case HandCount(n=n):
            return tx("x_count", lang, n=n)
        case TakeFloor(seat=seat):
            return tx("x_floor", lang, seat=seat)
        case HandsUp(seats=seats):
            return tx("x_extra", lang, seats=_seats(seats))
        case Thumbs(target=t, seats=seats):
            return tx("x_putup", lang, t=t, seats=_seats(seats))
        case Foul(seat=seat):
            return tx("x_foul", lang, seat=seat)
        case TechFoul(seat=seat):
            return tx("x_tech", lang, seat=seat)
        case Remove(seat=seat):
            return tx("x_remove", lang, seat=seat)
        case BestMove(seats=seats):
            return tx("x_best", lang, seats=_seats(seats))
        case OnRecord(seat=seat, red=red, black=black):
            colours = "; ".join(f"{tx(name, lang)} {_seats(seats)}"
                                for name, seats in (("x_red", red), ("x_black", black)) if seats)
            return tx("x_record", lang, seat=seat, colours=colours)
        case Mark(seat=seat):
            return tx("x_mark", lang, seat=seat)
        case Malformed(kind=kind, target=t):
            return tx("x_malformed", lang, kind=refused_kind(kind, lang),
                      t="" if t is None else t)
        case Shot(shooter=shooter, target=target):
            return tx("x_shot", lang, shooter=shooter, target=target)
        case Check(role=role, target=target) | Kill(role=role, target=target) | Save(
                role=role, target=target):
            return tx("x_act", lang, role=card(role, lang), act=act(action.act, lang),
                      target=target)
        case _:
            return str(action)
