"""The operator's terminal in the table's words: what a hostless table (``play``), a console
game and an evening print for the operator — the questions ``q`` asks, the log of what was
heard and taken, the links, the broadcast's and the tournament director's lines, the last
lines of a game. Keys ``t_`` (the table), ``v_`` (the evening), ``b_`` (the broadcast), ``j_``
(a tournament's table); read through :func:`narrator.host.texts.tx`.

A command to type stays in backquotes as typed (`narrator resume journal.jsonl`): it is the
keyboard's. An error that stops a command (``narrator: …``, exit 2) is the command line's
English, as for every command.
"""

from __future__ import annotations

#: key → (en, ru, uk)
TERMINAL: dict[str, tuple[str, str, str]] = {
    "t_ask_game": ("stop the game here? y: stop (it can be resumed); anything else: go on",
                   "остановить игру здесь? y: остановить (её можно продолжить); другое: дальше",
                   "зупинити гру тут? y: зупинити (її можна продовжити); інше: далі"),
    "t_ask_evening": ("stop here? y: stop (`narrator evening {folder}` goes on from here); "
                      "anything else: go on",
                      "остановиться здесь? y: остановить (`narrator evening {folder}` продолжит "
                      "отсюда); другое: дальше",
                      "зупинитися тут? y: зупинити (`narrator evening {folder}` продовжить "
                      "звідси); інше: далі"),
    # -- the console game's progress (play/progress.py) --
    "t_speaks": ("{phase}: {who} speaks ({kind})", "{phase}: {who}, {kind}",
                 "{phase}: {who}, {kind}"),
    "t_night": ("{phase}: a night step", "{phase}: ночной шаг", "{phase}: нічний крок"),
    "t_night_s": ("{phase}: a night step ({s:g} s)", "{phase}: ночной шаг ({s:g} с)",
                  "{phase}: нічний крок ({s:g} с)"),
    "t_step": ("{phase}: {what}", "{phase}: {what}", "{phase}: {what}"),
    "t_card": ("waiting for the card of seat {seats}", "ждём карту игрока {seats}",
               "чекаємо на карту гравця {seats}"),
    "t_cards": ("waiting for the cards of seats {seats}", "ждём карты игроков {seats}",
                "чекаємо на карти гравців {seats}"),
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
