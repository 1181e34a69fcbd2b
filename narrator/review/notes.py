"""The review's words: the timeline's notes, outcomes and the page's own texts, in the table's
language (Russian or Ukrainian).

The transcript (:mod:`narrator.host.transcript`) writes its notes in English for the files a
developer reads; the judge's page says the same things in the table's words. A note is written
here for exactly the events the transcript notes (the timeline keeps its entries), with the
game's vocabulary from :mod:`narrator.words` and the reasons' from :mod:`narrator.reasons`.
"""

from __future__ import annotations

from narrator import words as vocab
from narrator.engine import Act
from narrator.engine import events as ev
from narrator.reasons import words as reason_words

__all__ = ["note", "page_text", "seat_label"]

#: key → (ru, uk)
_TEXTS: dict[str, tuple[str, str]] = {
    "seat": ("игрок {seat}", "гравець {seat}"),
    "seat_named": ("игрок {seat} ({name})", "гравець {seat} ({name})"),
    "input": ("ввод", "введення"),
    "refused": ("отказ: {who} {kind} {target} — {reason}", "відмова: {who} {kind} {target} — "
                "{reason}"),
    "out": ("{who} выбывает ({how})", "{who} вибуває ({how})"),
    "winner": ("итог: {winner}", "підсумок: {winner}"),
    "marks": ("{who}, оценки: {marks}", "{who}, оцінки: {marks}"),
    "none": ("нет", "немає"),
    "no_kill": ("{role}: без убийства", "{role}: без вбивства"),
    "saves": ("{role} спасает {t}", "{role} рятує {t}"),
    "nobody_saved": ("{role} выбирает {t}: никто не спасён", "{role} обирає {t}: нікого не "
                     "врятовано"),
    "saved_instead": ("{role} выбирает {t}: его уже спасали, спасён {saved}",
                      "{role} обирає {t}: його вже рятували, врятовано {saved}"),
    "night": ("ночь {n}: {what}", "ніч {n}: {what}"),
    "miss": ("промах", "промах"),
    "shot_at": ("выстрел в {t}", "постріл у {t}"),
    "checks": ("{role} проверяет {t}: {answer}", "{role} перевіряє {t}: {answer}"),
    "yes": ("да", "так"),
    "no": ("нет", "ні"),
    "kills": ("{role} убивает {t}", "{role} вбиває {t}"),
    "speech": ("{who}: {kind}", "{who}: {kind}"),
    "nominates": ("{who} выставляет {t}", "{who} виставляє {t}"),
    "withdraws": ("{who} снимает {t}", "{who} знімає {t}"),
    "put_up": ("выставление {t}: пальцев {n}, за день {total}",
               "виставлення {t}: пальців {n}, за день {total}"),
    "foul_n": ("{who}: {n}-й фол", "{who}: {n}-й фол"),
    "tech_n": ("{who}: {n}-й технический фол", "{who}: {n}-й технічний фол"),
    "skipped_nom": ("{who} теряет речь, но может выставить (3-й фол)",
                    "{who} втрачає промову, але може виставити (3-й фол)"),
    "skipped": ("{who} теряет речь (3-й фол)", "{who} втрачає промову (3-й фол)"),
    "cut": ("{who} говорит 30 с (3-й фол)", "{who} говорить 30 с (3-й фол)"),
    "best_move": ("{who}, лучший ход: {seats}", "{who}, найкращий хід: {seats}"),
    "on_record": ("{who}, под протокол: {said}", "{who}, під протокол: {said}"),
    "red": ("{t} красный", "{t} червоний"),
    "black": ("{t} чёрный", "{t} чорний"),
    "first_day": ("первый день: без голосования", "перший день: без голосування"),
    "votes": ("{c}: голосов {n}", "{c}: голосів {n}"),
    # 2.4: the hands not raised count for the last candidate; a judge is told why
    "votes_abst": ("{c}: голосов {n} = {h} рук + {a} воздержавшихся (2.4)",
                   "{c}: голосів {n} = {h} рук + {a} утрималися (2.4)"),
    "tie_stays": ("равенство {seats} не разыгрывается: все остаются",
                  "рівність {seats} не розігрується: усі залишаються"),
    "unopposed": ("игрок {c} — единственный кандидат: выбывает без голосования",
                  "гравець {c} — єдиний кандидат: вибуває без голосування"),
    "stays_first": ("первый день: {seats} лидировали и остаются, удаляет только подъём",
                    "перший день: {seats} лідирували й залишаються, видаляє лише підйом"),
    "stays": ("голосов меньше, чем раньше: {seats} остаются",
              "голосів менше, ніж раніше: {seats} залишаються"),
    "crash": ("автокатастрофа: за {f}, против {a}, {passed}",
              "автокатастрофа: за {f}, проти {a}, {passed}"),
    "passed": ("принята", "прийнято"),
    "failed": ("не принята", "не прийнято"),
    # -- the steps the transcript does not note --
    "phase": ("{phase}", "{phase}"),
    "speech_of": ("{who}: {kind}", "{who}: {kind}"),
    "voting": ("голосование, круг {r}: {seats}", "голосування, коло {r}: {seats}"),
    "vote_for": ("голосование за {c}", "голосування за {c}"),
    "crash_of": ("автокатастрофа: {seats}", "автокатастрофа: {seats}"),
    "best_asked": ("{who}: лучший ход", "{who}: найкращий хід"),
    # -- the outcomes and the hosts' entries --
    "o_refused": ("отказ: {reason} ({code})", "відмова: {reason} ({code})"),
    "o_taken": ("принято: {actions}", "прийнято: {actions}"),
    "o_nothing": ("ничего не принято", "нічого не прийнято"),
    "undo": ("отмена: «{action}» взято назад", "скасування: «{action}» взято назад"),
    "host": ("ведущий: {action}", "ведучий: {action}"),
    "for": ("за {c}: ", "за {c}: "),
    "entry": ("ввод: {text}", "введення: {text}"),
    "operator": ("оператор", "оператор"),
    "stopped": ("остановлено ({why})", "зупинено ({why})"),
    "host_quit": ("ведущий вышел", "ведучий вийшов"),
    "revised": (" (исправлено)", " (виправлено)"),
    "early": (" (досрочно)", " (достроково)"),
    # -- the page --
    "title": ("Разбор: {name}", "Розбір: {name}"),
    "about": ("{rules}, игроков: {seats}; записей: {entries}. Время — от начала записи; "
              "нажатие на время играет всю запись с этого места.",
              "{rules}, гравців: {seats}; записів: {entries}. Час — від початку запису; "
              "натискання на час відтворює весь запис із цього місця."),
    "resumed": ("Запись началась после первых {n} действий игры (продолженная игра): их "
                "нет на странице.", "Запис почався після перших {n} дій гри (продовжена "
                "гра): їх немає на сторінці."),
    "whole": ("Вся запись:", "Весь запис:"),
    "h_seat": ("место", "місце"),
    "h_nickname": ("ник", "нік"),
    "h_card": ("карта", "карта"),
    "f_seat": ("игрок", "гравець"),
    "f_kind": ("вид", "вид"),
    "f_all": ("все", "усі"),
    "t_n": ("№", "№"),
    "t_time": ("время", "час"),
    "t_kind": ("вид", "вид"),
    "t_seats": ("игроки", "гравці"),
    "t_what": ("что", "що"),
    "t_became": ("итог", "підсумок"),
    "t_heard": ("запись", "запис"),
}

#: a press's fields, as the page names them
_FIELDS: dict[str, tuple[str, str]] = {
    "seat": ("игрок", "гравець"), "target": ("кого", "кого"), "candidate": ("кандидат", "кандидат"),
    "act": ("действие", "дія"), "seats": ("игроки", "гравці"), "count": ("число", "число"),
    "red": ("красные", "червоні"), "black": ("чёрные", "чорні"), "points": ("баллы", "бали"),
    "titles": ("звания", "звання"), "comment": ("комментарий", "коментар"),
    "rules": ("правила", "правила"),
}


def press_fields(data: dict[str, object], skip: tuple[str, ...], lang: str) -> str:
    """A press's fields in words (``кого=3``; an act's name in words too)."""
    out = []
    for key, value in data.items():
        if key in skip:
            continue
        pair = _FIELDS.get(key)
        name = key if pair is None else pair[1] if lang == "uk" else pair[0]
        shown = vocab.word("act", str(value), lang) if key == "act" else (
            vocab.word("rules", str(value), lang) if key == "rules" else value)
        out.append(f"{name}={shown}")
    return " ".join(out)


def page_text(key: str, lang: str, /, **fields: object) -> str:
    """The review's text ``key`` in ``lang`` (Ukrainian or else Russian)."""
    ru, uk = _TEXTS[key]
    text = uk if lang == "uk" else ru
    return text.format(**fields) if fields else text


def seat_label(seat: int, names: dict[int, str], lang: str) -> str:
    """«игрок 4» or, with a nickname, «игрок 4 (Ника)»."""
    name = names.get(seat)
    return (page_text("seat_named", lang, seat=seat, name=name) if name
            else page_text("seat", lang, seat=seat))


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    return ", ".join(map(str, seats))


def _role(role: str, lang: str) -> str:
    return vocab.card(role, lang)


def note(event: ev.Event, names: dict[int, str], lang: str) -> str | None:
    """The note of ``event`` in ``lang`` (None: the event is not one the transcript notes,
    or one worded by the caller)."""
    t = page_text

    def who(seat: int) -> str:
        return seat_label(seat, names, lang)

    match event:
        case ev.Refused(seat=s, kind=k, target=target, reason=r):
            return t("refused", lang, who=who(s) if s is not None else t("input", lang),
                     kind=vocab.word("input", k, lang), target="" if target is None else target,
                     reason=reason_words(r, lang))
        case ev.SeatOut(seat=s, how=h):
            return t("out", lang, who=who(s), how=vocab.departure(h, lang))
        case ev.GameOver(winner=w):
            return t("winner", lang, winner=vocab.word("winner", getattr(w, "value", w), lang))
        case ev.Marked():
            return _marks_note(event, who(event.seat), lang)
        case ev.SpeechStarted(seat=s, kind=k):
            return t("speech", lang, who=who(s), kind=vocab.word("speech", k, lang))
        case ev.Nominated(seat=s, target=target):
            return t("nominates", lang, who=who(s), t=target)
        case ev.Withdrawn(seat=s, target=target):
            return t("withdraws", lang, who=who(s), t=target)
        case ev.PutUpCounted(target=target, thumbs=n, total=total):
            return t("put_up", lang, t=target, n=n, total=total)
        case ev.Fouled(seat=s, count=n):
            return t("foul_n", lang, who=who(s), n=n)
        case ev.TechFouled(seat=s, count=n):
            return t("tech_n", lang, who=who(s), n=n)
        case ev.SpeechSkipped(seat=s, nominates=True):
            return t("skipped_nom", lang, who=who(s))
        case ev.SpeechSkipped(seat=s):
            return t("skipped", lang, who=who(s))
        case ev.SpeechCut(seat=s):
            return t("cut", lang, who=who(s))
        case ev.BestMoveNamed(seat=s, named=named):
            return t("best_move", lang, who=who(s), seats=_seats(named))
        case ev.OnRecordLeft(seat=s, red=red, black=black):
            colours = [t("red", lang, t=x) for x in red] + [t("black", lang, t=x) for x in black]
            return t("on_record", lang, who=who(s), said=", ".join(colours))
        case ev.VotingCancelled():
            return t("first_day", lang)
        case ev.VoteCounted(candidate=c, votes=n, abstained=a) if a:
            return t("votes_abst", lang, c=c, n=n, h=n - a, a=a)
        case ev.VoteCounted(candidate=c, votes=n):
            return t("votes", lang, c=c, n=n)
        case ev.TieStays(candidates=c):
            return t("tie_stays", lang, seats=_seats(c))
        case ev.Unopposed(candidate=c):
            return t("unopposed", lang, c=c)
        case ev.Stays(seats=seats, reason="first_day"):
            return t("stays_first", lang, seats=_seats(seats))
        case ev.Stays(seats=seats):
            return t("stays", lang, seats=_seats(seats))
        case ev.CrashResult(votes_for=f, votes_against=a, passed=p):
            return t("crash", lang, f=f, a=a, passed=t("passed" if p else "failed", lang))
        case _:
            return _night_note(event, lang)


def _marks_note(event: ev.Marked, who: str, lang: str) -> str:
    """The host's marks for a seat, in a few words."""
    t = page_text
    given = ([f"{event.points:+g}"] if event.points else []) + [
        vocab.word("title", x, lang) for x in event.titles]
    said = ", ".join(given)
    if event.comment:
        said = f"{said} — {event.comment}" if said else event.comment
    return t("marks", lang, who=who, marks=said or t("none", lang))


def _night_note(event: ev.Event, lang: str) -> str | None:
    """A night's event in a few words (None: not one the transcript notes)."""
    t = page_text
    match event:
        case ev.Missed(role=r):
            return t("no_kill", lang, role=_role(r, lang))
        case ev.Saved(role=r, target=target, saved=saved) if saved == target:
            return t("saves", lang, role=_role(r, lang), t=target)
        case ev.Saved(role=r, target=target, saved=None):
            return t("nobody_saved", lang, role=_role(r, lang), t=target)
        case ev.Saved(role=r, target=target, saved=saved):
            return t("saved_instead", lang, role=_role(r, lang), t=target, saved=saved)
        case ev.ShotsResolved(night=n, target=target):
            return t("night", lang, n=n, what=t("miss", lang) if target is None
                     else t("shot_at", lang, t=target))
        case ev.Checked(role=r, target=target, result=res):
            return t("checks", lang, role=_role(r, lang), t=target,
                     answer=t("yes" if res else "no", lang))
        case ev.Acted(role=r, act=Act.KILL, target=target):
            return t("kills", lang, role=_role(r, lang), t=target)
        case _:
            return None


def step_note(event: ev.Event, names: dict[int, str], lang: str) -> str | None:
    """A step the transcript does not note, in a few words (None: not a step worth a line)."""
    t = page_text
    match event:
        case ev.PhaseStarted(name=name, number=n) if name in ("day", "night"):
            return vocab.phase(name, n, lang)
        case ev.PhaseStarted(name=name, number=n):  # a step of a night (the hunt, a check…)
            return f"{vocab.word('timer', name, lang)} ({vocab.phase('night', n, lang)})"
        case ev.SpeechStarted(seat=s, kind=k):
            return t("speech_of", lang, who=seat_label(s, names, lang),
                     kind=vocab.word("speech", k, lang))
        case ev.VotingStarted(round=r, candidates=c):
            return t("voting", lang, r=r, seats=_seats(c))
        case ev.VoteCall(candidate=c):
            return t("vote_for", lang, c=c)
        case ev.CrashStarted(candidates=c):
            return t("crash_of", lang, seats=_seats(c))
        case ev.BestMoveAsked(seat=s):
            return t("best_asked", lang, who=seat_label(s, names, lang))
        case _:
            return None
