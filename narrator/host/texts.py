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
from narrator.reasons import words as reason_words

__all__ = ["ScreenLang", "action_words", "card", "mark", "screen_lang", "seat", "timer", "tx", "where", "winner"]

ScreenLang = Literal["ru", "uk", "en"]


def screen_lang(lang: str | None) -> ScreenLang:
    """The screen's language: ``ru``, ``uk`` or the API's ``en``."""
    if lang == "uk":
        return "uk"
    return "en" if lang == "en" else "ru"


#: key → (en, ru, uk); ``{name}`` fields filled by :func:`tx`
_TEXTS: dict[str, tuple[str, str, str]] = {
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
    # == the operator's terminal of a hostless table (play) and of an evening ==
    "t_ask_game": ("stop the game here? y: stop (it can be resumed); anything else: go on",
                   "остановить игру здесь? y: остановить (её можно продолжить); другое: дальше",
                   "зупинити гру тут? y: зупинити (її можна продовжити); інше: далі"),
    "t_ask_evening": ("stop here? y: stop (`narrator evening {folder}` goes on from here); "
                      "anything else: go on",
                      "остановиться здесь? y: остановить (`narrator evening {folder}` продолжит "
                      "отсюда); другое: дальше",
                      "зупинитися тут? y: зупинити (`narrator evening {folder}` продовжить "
                      "звідси); інше: далі"),
    "t_going_on": ("going on", "продолжаем", "продовжуємо"),
    "t_not_taken": ("not taken: {what}", "не принято: {what}", "не прийнято: {what}"),
    "t_taken": ("taken: {what}", "принято: {what}", "прийнято: {what}"),
    "t_seat": ("seat {seat}", "игрок {seat}", "гравець {seat}"),
    "t_seat_named": ("seat {seat} ({name})", "игрок {seat} ({name})", "гравець {seat} ({name})"),
    "t_input": ("input", "ввод", "введення"),
    "t_speech": ("{who}: {kind} speech", "{who}: {kind}", "{who}: {kind}"),
    "t_refused": ("{who} {kind}{target}: refused ({reason}), ignored",
                  "{who}, {kind}{target}: отказ — {reason}",
                  "{who}, {kind}{target}: відмова — {reason}"),
    "t_heard_refused": ("{who}: «{text}» refused ({reason})", "{who}: «{text}» — отказ: {reason}",
                        "{who}: «{text}» — відмова: {reason}"),
    "t_heard": ("{who}: «{text}» → {action}", "{who}: «{text}» → {action}",
                "{who}: «{text}» → {action}"),
    "t_late": ("heard after the speech, ignored: «{text}»",
               "услышано после речи, не принято: «{text}»",
               "почуто після промови, не прийнято: «{text}»"),
    "t_revised": ("the end of the phrase changed it: «{text}»; only what follows is taken",
                  "конец фразы изменил её: «{text}»; принято только то, что дальше",
                  "кінець фрази змінив її: «{text}»; прийнято лише те, що далі"),
    "t_over_draw": ("game over: a draw", "игра окончена: ничья", "гру закінчено: нічия"),
    "t_over_won": ("game over: {side} won", "игра окончена: {side}", "гру закінчено: {side}"),
    "t_operator": ("operator: {what}", "ведущий: {what}", "ведучий: {what}"),
    "t_stop": ("stop", "стоп", "стоп"),
    "t_nothing": ("nothing", "ничего", "нічого"),
    "t_winner": ("winner: {side}", "{side}", "{side}"),
    "t_marks": ("the host's marks go in {where} (m 4 +0.3 bp -- why); press Enter to {then}",
                "оценки ведущего — {where} (m 4 +0.3 bp -- за что); Enter — {then}",
                "оцінки ведучого — {where} (m 4 +0.3 bp -- за що); Enter — {then}"),
    "t_marks_both": ("on the operator view or here", "на пульте ведущего или здесь",
                     "на пульті ведучого або тут"),
    "t_marks_here": ("here", "здесь", "тут"),
    "t_close": ("close the console", "закрыть пульт", "закрити пульт"),
    "t_finish": ("finish", "закончить", "закінчити"),
    "t_protocol": ("the protocol is on the operator view; press Enter to close the console",
                   "протокол — на пульте ведущего; Enter — закрыть пульт",
                   "протокол — на пульті ведучого; Enter — закрити пульт"),
    "t_stopping": ("stopping at the operator's word", "останавливаем игру по слову ведущего",
                   "зупиняємо гру за словом ведучого"),
    "t_interrupted": ("interrupted", "прервано", "перервано"),
    "t_journal_failed": ("{failure}: the journal holds the game up to then",
                         "{failure}: журнал хранит игру до этого места",
                         "{failure}: журнал зберігає гру до цього місця"),
    "t_stopped": ("stopped; resume with `{command}`", "игра остановлена; продолжить: `{command}`",
                  "гру зупинено; продовжити: `{command}`"),
    "t_dropped": ("note: the model does not know {n} word(s) of the grammar (e.g. «{word}»); "
                  "they cannot be heard",
                  "внимание: модель не знает слов грамматики: {n} (например, «{word}»); их не "
                  "услышать",
                  "увага: модель не знає слів граматики: {n} (наприклад, «{word}»); їх не почути"),
    "t_ready": ("ready to listen in {s:.1f} s (model {path})",
                "слушаю через {s:.1f} с (модель {path})", "слухаю за {s:.1f} с (модель {path})"),
    "t_recorded": ("session recorded in {path}: `narrator replay {path}`",
                   "сессия записана в {path}: `narrator replay {path}`",
                   "сесію записано в {path}: `narrator replay {path}`"),
    "t_dealt_pads": ("cards dealt: each seat sees its own on its pad",
                     "карты розданы: каждый видит свою на своём экране",
                     "карти роздано: кожен бачить свою на своєму екрані"),
    "t_dealt_file": ("cards dealt: {path} (the operator shows each player their own line)",
                     "карты розданы: {path} (ведущий показывает каждому его строку)",
                     "карти роздано: {path} (ведучий показує кожному його рядок)"),
    # -- the evening's terminal --
    "v_note": ("note: {note}", "внимание: {note}", "увага: {note}"),
    "v_ending": ("ending the evening (`narrator evening {folder}` takes it up again)",
                 "вечер заканчивается (`narrator evening {folder}` продолжит его)",
                 "вечір закінчується (`narrator evening {folder}` продовжить його)"),
    "v_resuming": ("game {n}: resuming at {where}", "игра {n}: продолжаем — {where}",
                   "гра {n}: продовжуємо — {where}"),
    "v_dealt": ("game {n} ({rules}): cards dealt, each player sees their own on their pad",
                "игра {n} ({rules}): карты розданы, каждый видит свою на своём экране",
                "гра {n} ({rules}): карти роздано, кожен бачить свою на своєму екрані"),
    "v_between": ("between games: seat the players and start the next game on the operator "
                  "view ({key} here ends the evening)",
                  "между играми: рассадите игроков и начните следующую игру на пульте ведущего "
                  "({key} здесь закончит вечер)",
                  "між іграми: розсадіть гравців і почніть наступну гру на пульті ведучого "
                  "({key} тут закінчить вечір)"),
    "v_summary": ("the evening: {played} game(s) over; results in {results}; "
                  "`narrator evening {folder}` goes on with it",
                  "вечер: сыграно игр — {played}; итоги в {results}; "
                  "`narrator evening {folder}` продолжит его",
                  "вечір: зіграно ігор — {played}; підсумки в {results}; "
                  "`narrator evening {folder}` продовжить його"),
    "v_operator": ("table console — operator: {link}", "пульт ведущего: {link}",
                   "пульт ведучого: {link}"),
    "v_links": ("each player's link and QR code are on the operator view; the links stay the "
                "same all evening",
                "ссылка и QR-код каждого игрока — на пульте ведущего; ссылки не меняются весь "
                "вечер",
                "посилання і QR-код кожного гравця — на пульті ведучого; посилання не "
                "змінюються весь вечір"),
    "v_written": ("links written to {path} (readable by you only)",
                  "ссылки записаны в {path} (читать их можете только вы)",
                  "посилання записано в {path} (читати їх можете лише ви)"),
    "v_player": ("player {name} ({where}): {link}", "{name} ({where}): {link}",
                 "{name} ({where}): {link}"),
    "v_seat": ("seat {seat}", "место {seat}", "місце {seat}"),
    "v_no_seat": ("no seat yet", "ещё без места", "ще без місця"),
    "v_moved": ("note: the evening's links are on {old}; --console {new} gives every player a "
                "new address",
                "внимание: ссылки вечера — на {old}; --console {new} даст каждому игроку новый "
                "адрес",
                "увага: посилання вечора — на {old}; --console {new} дасть кожному гравцеві нову "
                "адресу"),
    "v_again": ("the evening in {folder}: {players} player(s), {games} game(s) so far",
                "вечер в {folder}: игроков — {players}, игр пока — {games}",
                "вечір у {folder}: гравців — {players}, ігор поки що — {games}"),
    "v_new": ("a new evening in {folder}", "новый вечер в {folder}", "новий вечір у {folder}"),
    "v_plan": ("the next {rounds} game(s) seated as {path} seats its table {table}",
               "следующие игры ({rounds}) рассажены, как {path} сажает стол {table}",
               "наступні ігри ({rounds}) розсаджено, як {path} садить стіл {table}"),
    "t_mark": ("{mark}", "оценка игроку {seat}: {what}", "оцінка гравцеві {seat}: {what}"),
    "t_mark_none": ("", "снята", "знято"),
    # -- the broadcast's lines at the terminal --
    "b_link": ("broadcast (OBS browser source, 1920x1080, {delay:g} s behind the table): {url}",
               "трансляция (источник «Браузер» в OBS, 1920x1080, отстаёт от стола на {delay:g} с): "
               "{url}",
               "трансляція (джерело «Браузер» в OBS, 1920x1080, відстає від столу на {delay:g} с): "
               "{url}"),
    "b_secret": ("the broadcast shows every card and every night act: open it on the streaming "
                 "computer only, never at the table, on a player's phone nor on the hall's screen",
                 "трансляция показывает все карты и все ночные ходы: открывайте её только на "
                 "компьютере трансляции — не за столом, не на телефоне игрока, не на экране зала",
                 "трансляція показує всі карти й усі нічні ходи: відкривайте її лише на "
                 "комп'ютері трансляції — не за столом, не на телефоні гравця, не на екрані залу"),
    "b_no_delay": ("warning: --broadcast-delay 0: the stream shows each shot and check as it "
                   "happens; anyone in the room who sees it knows the cards",
                   "внимание: --broadcast-delay 0: трансляция показывает каждый выстрел и "
                   "проверку сразу; кто в зале её видит, знает карты",
                   "увага: --broadcast-delay 0: трансляція показує кожен постріл і перевірку "
                   "одразу; хто в залі її бачить, знає карти"),
    "b_drain": ("the broadcast shows the game's last {s:.0f} s, then closes (Ctrl-C: now)",
                "трансляция покажет последние {s:.0f} с игры и закроется (Ctrl-C: сейчас)",
                "трансляція покаже останні {s:.0f} с гри і закриється (Ctrl-C: зараз)"),
    # -- a tournament's table: the director's lines at the evening's terminal --
    "j_where": ("the director at {address}", "директор турнира на {address}",
                "директор турніру на {address}"),
    "j_held": ("note: {error}; the evening goes on with the director's plan it holds, and sends "
               "its games once the director answers",
               "внимание: {error}; вечер идёт по плану директора, который у него есть, и "
               "отправит игры, когда директор ответит",
               "увага: {error}; вечір іде за планом директора, який у нього є, і надішле ігри, "
               "коли директор відповість"),
    "j_rules": ("the tournament plays {rules}: so does this evening from its next game (it played "
                "{before})",
                "турнир играет по правилам «{rules}»: со следующей игры и этот вечер (были "
                "«{before}»)",
                "турнір грає за правилами «{rules}»: з наступної гри й цей вечір (були "
                "«{before}»)"),
    "j_joined": ("joined {where}: the next {n} game(s) seated as it seats table {table}{of}",
                 "стол подключён ({where}): следующие игры ({n}) рассажены, как он сажает стол "
                 "{table}{of}",
                 "стіл під'єднано ({where}): наступні ігри ({n}) розсаджено, як він садить стіл "
                 "{table}{of}"),
    "j_of": (" of {name}", " турнира «{name}»", " турніру «{name}»"),
    "j_changed": ("note: {where} changed the plan: the next games are seated as it says now",
                  "внимание: {where} изменил план: следующие игры рассажены по-новому",
                  "увага: {where} змінив план: наступні ігри розсаджено по-новому"),
    "j_error": ("the director: {error}", "директор турнира: {error}", "директор турніру: {error}"),
    "j_not_kept": ("game {game}: not kept for the director: {error}",
                   "игра {game}: не сохранена для директора: {error}",
                   "гра {game}: не збережена для директора: {error}"),
    "j_unsent": ("{n} game(s) not sent to the director yet ({box}): `{again}` sends them",
                 "не отправлено директору игр: {n} ({box}); отправит `{again}`",
                 "не надіслано директорові ігор: {n} ({box}); надішле `{again}`"),
    "j_not_sent_d": ("the director: not sent ({error})", "директор турнира: не отправлено "
                     "({error})", "директор турніру: не надіслано ({error})"),
    "j_not_sent": ("not sent: {error}", "не отправлено: {error}", "не надіслано: {error}"),
    "j_state": ("the director did not take the table's state ({status}: {error})",
                "директор не принял состояние стола ({status}: {error})",
                "директор не прийняв стан столу ({status}: {error})"),
    "j_sent": ("game {game}: sent to the director", "игра {game}: отправлена директору",
               "гра {game}: надіслана директорові"),
    "j_already": (" (it had it already)", " (она у него уже была)", " (вона в нього вже була)"),
    "j_updated": (" again, with the marks given since", " снова, с оценками, данными после",
                  " знову, з оцінками, даними після"),
    "j_refused": ("game {game}: the director refused it ({status}: {why}); it stays in {box} and "
                  "is not sent again",
                  "игра {game}: директор её не принял ({status}: {why}); она остаётся в {box} и "
                  "больше не отправляется",
                  "гра {game}: директор її не прийняв ({status}: {why}); вона лишається в {box} "
                  "і більше не надсилається"),
    "j_answers": ("the director at {address} answers {error}", "директор на {address} отвечает: "
                  "{error}", "директор на {address} відповідає: {error}"),
    "j_back": ("the director at {address} answers again", "директор на {address} снова отвечает",
               "директор на {address} знову відповідає"),
    "j_wait": ("{why}: {n} game(s) wait in {box}, sent once it answers",
               "{why}: игры ({n}) ждут в {box} и уйдут, когда он ответит",
               "{why}: ігри ({n}) чекають у {box} і підуть, коли він відповість"),
    "j_later": ("{why}: the table's games go to it once it answers",
                "{why}: игры стола уйдут к нему, когда он ответит",
                "{why}: ігри столу підуть до нього, коли він відповість"),
    "t_resuming": ("resuming {path}: {where}", "продолжаем {path}: {where}",
                   "продовжуємо {path}: {where}"),
}

def tx(key: str, lang: str, /, **fields: object) -> str:
    """The screen's text ``key`` in ``lang``, its fields filled in."""
    en, ru, uk = _TEXTS[key]
    text = {"en": en, "ru": ru, "uk": uk}[screen_lang(lang)]
    return text.format(**fields) if fields else text


def card(role: str, lang: str) -> str:
    """A card's name as the screen shows it (the API's English is the code itself)."""
    return role if screen_lang(lang) == "en" else vocab.card(role, lang)


def timer(name: str, lang: str) -> str:
    """A timer's name (a step)."""
    return name if screen_lang(lang) == "en" else vocab.word("timer", name, lang)


def act(name: str, lang: str) -> str:
    """A night act's name."""
    return name if screen_lang(lang) == "en" else vocab.word("act", name, lang)


def departure(how: str, lang: str) -> str:
    """How a seat left the game."""
    return how.replace("_", " ") if screen_lang(lang) == "en" else vocab.departure(how, lang)


def refused_kind(kind: str, lang: str) -> str:
    """The kind of a refused input (``nominate``)."""
    return kind if screen_lang(lang) == "en" else vocab.word("input", kind, lang)


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
    """An action as the log shows it (a night's shots and checks are worded by the caller:
    they are secret)."""
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
        case Shot() | Check() | Kill() | Save():
            return str(action)
        case _:
            return str(action)
