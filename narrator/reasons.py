"""Every reason the narrator gives for not taking an input: one enum, one table of words.

A reason is a short stable code: in the protocol's ``refused``, the transcript, ``narrator
parse``, a pad's answer, an engine error (:class:`~narrator.engine.errors.IllegalActionError`
carries one). The grammar's codes say what is wrong with a phrase's form (2.3.1–2.3.2); the
engine's what the state of the game refuses; the table's what the console adds (a press's
moment, a message it does not understand). :data:`WORDS` holds each code's words in Russian
and Ukrainian — the pages show them as they come with a reply; no page keeps its own copy.

The enum is a ``StrEnum``: a code compares equal to its string and is written as it in JSON,
so the protocol and the journals keep the codes they always had.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

__all__ = ["WORDS", "Reason", "words"]


class Reason(StrEnum):
    """Why an input is not taken (see the module's docstring)."""

    # -- the grammar: the form of a phrase (2.3.1, 2.3.2) --
    SUBJUNCTIVE = "subjunctive"
    NEGATION = "negation"
    INTENTION = "intention"
    FUTURE_TENSE = "future_tense"
    PAST_TENSE = "past_tense"
    NO_NUMBER = "no_number"
    NOT_A_SEAT = "not_a_seat"
    NO_INTENT = "no_intent"
    # -- the engine: what the state of the game refuses --
    NOT_NOW = "not_now"
    GAME_OVER = "game_over"
    SEAT_OUT = "seat_out"
    TARGET_OUT = "target_out"
    ALREADY_NOMINATED = "already_nominated"
    NOT_OWN_NOMINATION = "not_own_nomination"
    ALREADY_STANDING = "already_standing"
    NO_WITHDRAWAL = "no_withdrawal"
    NOT_DISCUSSION = "not_discussion"
    NO_NOMINATIONS = "no_nominations"
    ALREADY_VOTED = "already_voted"
    ALREADY_CHECKED = "already_checked"
    ALREADY_ACTED = "already_acted"
    ALREADY_SPOKE = "already_spoke"
    ALREADY_RAISED = "already_raised"
    NOT_A_VICTIM = "not_a_victim"
    OWN_SEAT = "own_seat"
    TOO_MANY = "too_many"
    NO_BEST_MOVE = "no_best_move"
    ALREADY_NAMED = "already_named"
    THREE_SEATS = "three_seats"
    NO_TECH_FOULS = "no_tech_fouls"
    NO_ON_RECORD = "no_on_record"
    TOO_MANY_COLOURS = "too_many_colours"
    SEATS_NEEDED = "seats_needed"
    BAD_POINTS = "bad_points"
    COMMENT_NEEDED = "comment_needed"
    # -- the table: a press's moment, the console's messages --
    AFTER_THANKS = "after_thanks"
    COUNT_NOT_STARTED = "count_not_started"
    TOO_LATE = "too_late"
    BAD_REQUEST = "bad_request"
    TOO_FAST = "too_fast"
    PAUSED = "paused"
    NOT_OVER = "not_over"
    CANNOT_START = "cannot_start"
    CANNOT = "cannot"
    ERROR = "error"


Lang = Literal["ru", "uk"]

#: each reason in the table's words: what a pad, the operator's view or the evening's lobby
#: shows under a refused press (a test holds it complete)
WORDS: dict[Reason, dict[Lang, str]] = {
    Reason.SUBJUNCTIVE: {"ru": "Сослагательное наклонение: «выставил бы»",
                         "uk": "Умовний спосіб: «виставив би»"},
    Reason.NEGATION: {"ru": "Отрицание: «не выставляю»", "uk": "Заперечення: «не виставляю»"},
    Reason.INTENTION: {"ru": "Намерение, а не выставление", "uk": "Намір, а не виставлення"},
    Reason.FUTURE_TENSE: {"ru": "Будущее время: «выставлю»", "uk": "Майбутній час: «виставлю»"},
    Reason.PAST_TENSE: {"ru": "Прошедшее время: «выставил»", "uk": "Минулий час: «виставив»"},
    Reason.NO_NUMBER: {"ru": "Не назван номер", "uk": "Не названо номер"},
    Reason.NOT_A_SEAT: {"ru": "Нет такого места", "uk": "Немає такого місця"},
    Reason.NO_INTENT: {"ru": "Не понято", "uk": "Не зрозуміло"},
    Reason.NOT_NOW: {"ru": "Сейчас это не принимается", "uk": "Зараз це не приймається"},
    Reason.GAME_OVER: {"ru": "Игра окончена", "uk": "Гру закінчено"},
    Reason.SEAT_OUT: {"ru": "Игрок вне игры", "uk": "Гравець поза грою"},
    Reason.TARGET_OUT: {"ru": "Этот игрок вне игры", "uk": "Цей гравець поза грою"},
    Reason.ALREADY_NOMINATED: {"ru": "У вас уже есть кандидатура",
                               "uk": "У вас уже є кандидатура"},
    Reason.NOT_OWN_NOMINATION: {"ru": "Это не ваша кандидатура", "uk": "Це не ваша кандидатура"},
    Reason.ALREADY_STANDING: {"ru": "Этот игрок уже выставлен другим",
                              "uk": "Цього гравця вже виставив інший"},
    Reason.NO_WITHDRAWAL: {"ru": "В этих правилах кандидатуру не снимают",
                           "uk": "У цих правилах кандидатуру не знімають"},
    Reason.NOT_DISCUSSION: {"ru": "Выставлять можно только в своей речи в обсуждении",
                            "uk": "Виставляти можна лише у своїй промові в обговоренні"},
    Reason.NO_NOMINATIONS: {"ru": "В этих правилах не выставляют",
                            "uk": "У цих правилах не виставляють"},
    Reason.ALREADY_VOTED: {"ru": "Вы уже голосовали", "uk": "Ви вже голосували"},
    Reason.ALREADY_CHECKED: {"ru": "Проверка уже сделана", "uk": "Перевірку вже зроблено"},
    Reason.ALREADY_ACTED: {"ru": "Уже сделано", "uk": "Вже зроблено"},
    Reason.ALREADY_SPOKE: {"ru": "Вы уже выступали сегодня", "uk": "Ви вже виступали сьогодні"},
    Reason.ALREADY_RAISED: {"ru": "Рука уже поднята", "uk": "Руку вже піднято"},
    Reason.NOT_A_VICTIM: {"ru": "Этого игрока нет на носилках",
                          "uk": "Цього гравця немає на ношах"},
    Reason.OWN_SEAT: {"ru": "Себя нельзя", "uk": "Себе не можна"},
    Reason.TOO_MANY: {"ru": "Больше, чем игроков за столом",
                      "uk": "Більше, ніж гравців за столом"},
    Reason.SEATS_NEEDED: {"ru": "Нужны номера голосующих: важно, голосовал ли лидер за себя",
                          "uk": "Потрібні номери тих, хто голосує: важливо, чи голосував "
                                "лідер за себе"},
    Reason.NO_BEST_MOVE: {"ru": "Лучший ход здесь не называют",
                          "uk": "Найкращий хід тут не називають"},
    Reason.ALREADY_NAMED: {"ru": "Лучший ход уже назван", "uk": "Найкращий хід уже названо"},
    Reason.THREE_SEATS: {"ru": "Лучший ход — три разных игрока, кроме себя",
                         "uk": "Найкращий хід — три різні гравці, крім себе"},
    Reason.NO_TECH_FOULS: {"ru": "В этих правилах нет технических фолов",
                           "uk": "У цих правилах немає технічних фолів"},
    Reason.NO_ON_RECORD: {"ru": "Под протокол в этой речи не оставляют",
                          "uk": "Під протокол у цій промові не залишають"},
    Reason.TOO_MANY_COLOURS: {"ru": "Больше цветов, чем можно оставить в одной речи",
                              "uk": "Більше кольорів, ніж можна залишити в одній промові"},
    Reason.BAD_POINTS: {"ru": "Таких дополнительных баллов клуб не даёт",
                        "uk": "Таких додаткових балів клуб не дає"},
    Reason.COMMENT_NEEDED: {"ru": "Нужен комментарий: за что", "uk": "Потрібен коментар: за що"},
    Reason.AFTER_THANKS: {"ru": "Поздно: уже прозвучало «Спасибо»",
                          "uk": "Пізно: вже прозвучало «Дякую»"},
    Reason.COUNT_NOT_STARTED: {"ru": "Счёт ещё не начался", "uk": "Рахунок ще не почався"},
    Reason.TOO_LATE: {"ru": "Поздно: игра ушла дальше", "uk": "Пізно: гра пішла далі"},
    Reason.BAD_REQUEST: {"ru": "Непонятный запрос", "uk": "Незрозумілий запит"},
    Reason.TOO_FAST: {"ru": "Слишком много нажатий: связь закрыта",
                      "uk": "Забагато натискань: з'єднання закрито"},
    Reason.PAUSED: {"ru": "Игра на паузе: подождите", "uk": "Гра на паузі: зачекайте"},
    Reason.NOT_OVER: {"ru": "Игра не окончена", "uk": "Гру не закінчено"},
    Reason.CANNOT_START: {"ru": "Игру нельзя начать", "uk": "Гру не можна почати"},
    Reason.CANNOT: {"ru": "Не получилось", "uk": "Не вдалося"},
    Reason.ERROR: {"ru": "Ошибка на сервере", "uk": "Помилка на сервері"},
}


def words(reason: str, lang: str) -> str:
    """``reason``'s words in ``lang`` (Russian for another language; the code itself for a code
    that is not a :class:`Reason`)."""
    try:
        table = WORDS[Reason(reason)]
    except ValueError:
        return reason
    return table["uk"] if lang == "uk" else table["ru"]
