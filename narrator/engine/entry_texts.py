"""The operator's entries in words: each step's prompt and each line that means nothing now,
in the table's language (``ru``, ``uk``) and the API's ``en``.

:mod:`narrator.engine.entries` reads a line and raises :class:`~narrator.engine.entries.
OperatorLineError` with a key of :data:`TEXTS` and its fields; a terminal or the host-assist
log shows it in its table's language (:meth:`~narrator.errors.NarratorError.words`), and
``str(error)`` stays the English the developers' tests and logs read. The keys a line types
(``w 5``, ``o 3 4 / 7``, ``m 4 +0.3 bp``) stay as typed: they are the keyboard's, not words.
"""

from __future__ import annotations

from narrator import words as vocab
from narrator.engine import waits

__all__ = ["TEXTS", "act_word", "role_word", "text"]

#: key → (en, ru, uk); ``{field}`` filled by :func:`text`
TEXTS: dict[str, tuple[str, str, str]] = {
    # -- the prompts of the steps the operator answers --
    "p_hunt": ("hunt: the agreed target (7), per shooter (3:7 5:7), or - for no shot",
               "охота: общая цель (7), по стрелкам (3:7 5:7) или - если выстрела нет",
               "полювання: спільна ціль (7), за стрільцями (3:7 5:7) або - якщо пострілу немає"),
    "p_check": ("the {role}'s check: the seat checked, or - for none",
                "{step}: номер проверенного или - если проверки нет",
                "{step}: номер перевіреного або - якщо перевірки немає"),
    "p_act": ("the {role}'s {acts}: the seat ({first}){others}, or - for none",
              "{step}: номер ({first}){others} или - если ничего",
              "{step}: номер ({first}){others} або - якщо нічого"),
    "p_other": ("{verb} 7 to {act}", "{verb} 7 — {act}", "{verb} 7 — {act}"),
    "p_vote": ("hands for {cand}: a count (6), the seats (1 2 4 or 4,), or - for none",
               "руки за {cand}: число (6), номера (1 2 4 или 4,) или - если ни одной",
               "руки за {cand}: кількість (6), номери (1 2 4 або 4,) або - якщо жодної"),
    "p_crash": ("car crash: the seats voting for (1 2 4), or - for none",
                "автокатастрофа: номера голосующих «за» (1 2 4) или - если никого",
                "автокатастрофа: номери тих, хто «за» (1 2 4), або - якщо нікого"),
    "p_floor": ("the next speaker: the seat whose hand was first, or - (the next in seat order)",
                "следующий говорящий: номер того, чья рука была первой, или - (следующий по "
                "порядку)",
                "наступний промовець: номер того, чия рука була першою, або - (наступний за "
                "порядком)"),
    "p_put_up": ("thumbs after {seat}'s speech: the one put up and the thumbs (7: 1 2 3), or -",
                 "пальцы после речи игрока {seat}: выставленный и пальцы (7: 1 2 3) или -",
                 "пальці після промови гравця {seat}: виставлений і пальці (7: 1 2 3) або -"),
    "p_extra": ("hands held up for 30 s more: the seats (3 7 or 3,), or - for none",
                "руки ещё на 30 с: номера (3 7 или 3,) или - если никого",
                "руки ще на 30 с: номери (3 7 або 3,) або - якщо нікого"),
    # -- a line that means nothing now --
    "no_timer": ("no timer is running (waiting for {exp})", "таймер не идёт (ждём: {exp})",
                 "таймер не йде (чекаємо: {exp})"),
    "nothing": ("nothing to enter now (waiting for {exp})", "сейчас вводить нечего (ждём: {exp})",
                "зараз нічого вводити (чекаємо: {exp})"),
    "number_first": ("type a number first", "сначала введите номер", "спершу введіть номер"),
    "speech": ("speech: a seat to nominate (5), w 5 to withdraw, or - to end it",
               "речь: номер, чтобы выставить (5), w 5 — снять, - — закончить речь",
               "промова: номер, щоб виставити (5), w 5 — зняти, - — закінчити промову"),
    "floor": ("the next speaker: type a seat number or -",
              "следующий говорящий: введите номер или -",
              "наступний промовець: введіть номер або -"),
    "thumbs": ("thumbs: type the one put up and the thumbs (7: 1 2 3), or -",
               "пальцы: введите выставленного и пальцы (7: 1 2 3) или -",
               "пальці: введіть виставленого і пальці (7: 1 2 3) або -"),
    "extra": ("hands held up: type the seats (3 7 or 3,), or -",
              "поднятые руки: введите номера (3 7 или 3,) или -",
              "підняті руки: введіть номери (3 7 або 3,) або -"),
    "hands": ("hands: type a count, the seats, or -", "руки: введите число, номера или -",
              "руки: введіть кількість, номери або -"),
    "not_act": ("{act} {rest}: the {role} does not {act} (waiting for {exp})",
                "{act} {rest}: {role} этого не делает (ждём: {exp})",
                "{act} {rest}: {role} цього не робить (чекаємо: {exp})"),
    "not_hunting": ("shot {rest}: the mafia is not hunting (waiting for {exp})",
                    "выстрел {rest}: мафия сейчас не охотится (ждём: {exp})",
                    "постріл {rest}: мафія зараз не полює (чекаємо: {exp})"),
    "no_check": ("check {rest}: nobody is checking (waiting for {exp})",
                 "проверка {rest}: сейчас никто не проверяет (ждём: {exp})",
                 "перевірка {rest}: зараз ніхто не перевіряє (чекаємо: {exp})"),
    "no_save": ("save {rest}: nobody is saving (waiting for {exp})",
                "лечение {rest}: сейчас никто не лечит (ждём: {exp})",
                "лікування {rest}: зараз ніхто не лікує (чекаємо: {exp})"),
    "one_seat": ("{verb} {rest}: type one seat number", "{verb} {rest}: введите один номер",
                 "{verb} {rest}: введіть один номер"),
    "not_speaking": ("on record {entry}: nobody is speaking (waiting for {exp})",
                     "под протокол {entry}: сейчас никто не говорит (ждём: {exp})",
                     "під протокол {entry}: зараз ніхто не говорить (чекаємо: {exp})"),
    "on_record": ("on record: the red seats, then / and the black (o 3 4 / 7)",
                  "под протокол: красные номера, затем / и чёрные (o 3 4 / 7)",
                  "під протокол: червоні номери, потім / і чорні (o 3 4 / 7)"),
    "mark_seat": ("mark: the seat first (m 4 +0.3 bp -- why; m 4 takes it away)",
                  "оценка: сначала номер (m 4 +0.3 bp -- за что; m 4 — снять оценку)",
                  "оцінка: спершу номер (m 4 +0.3 bp -- за що; m 4 — зняти оцінку)"),
    "mark_word": ("mark: points (+0.3) or a title (bp, bm, wm), got {word!r}",
                  "оценка: баллы (+0.3) или звание (bp, bm, wm), а не «{word}»",
                  "оцінка: бали (+0.3) або звання (bp, bm, wm), а не «{word}»"),
    "hunt": ("hunt: type the target (7), shooter:target pairs, or -",
             "охота: введите цель (7), пары стрелок:цель или -",
             "полювання: введіть ціль (7), пари стрілець:ціль або -"),
    "act_seat": ("the {role}'s {act}: type a seat number or -",
                 "{role}, {act}: введите номер или -", "{role}, {act}: введіть номер або -"),
}

def text(key: str, lang: str, /, **fields: object) -> str:
    """The words of ``key`` in ``lang`` (``ru``, ``uk``; anything else: the English)."""
    en, ru, uk = TEXTS[key]
    return {"ru": ru, "uk": uk}.get(lang, en).format(**fields)


def role_word(role: str, lang: str) -> str:
    """Who acts at night, as a prompt names them: the card's name (the table's words); in
    English the code, and a word no actor spells as it came."""
    return vocab.card(role, lang) if lang in ("ru", "uk") else role


def act_word(act: str, lang: str) -> str:
    """A night act, as a prompt names it (the steps' own word for it: «проверка», «выстрел»)."""
    return waits.act_word(act, lang)
