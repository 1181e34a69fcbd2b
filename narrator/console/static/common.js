/* The table console, shared by the pad and the operator view: the socket, texts, the timer.
   Plain ES5 for old phones; no framework, no build step. */
"use strict";

var TEXTS = {
  ru: {
    seat: "Игрок", hold: "Удерживайте, чтобы увидеть карту", hold_secret: "Удерживайте, чтобы увидеть", paused: "Игра на паузе",
    shot_taken: "Выстрел принят", point_taken: "Указание принято", seen: "Карта просмотрена",
    not_seen: "Посмотрите свою карту", gone: "Вы выбыли из игры",
    shoot: "Выстрел", shot_on: "Выстрел на", check_who_don: "Кого проверяет Дон?",
    check_who_sheriff: "Кого проверяет Шериф?", says_sheriff: "Шериф!", says_not_sheriff: "Не Шериф",
    says_black: "Чёрный (мафия)", says_red: "Красный (мирный)",
    who_for: "Кто за то, чтобы стол покинул игрок номер", crash_q: "Кто за то, чтобы все эти игроки покинули стол?",
    for_: "За", voted: "Ваш голос принят", nominate: "Выставляю", withdraw: "Снимаю",
    thanks: "Спасибо", standing: "Ваша кандидатура:", your_speech: "Ваша речь",
    living: "За столом", out_: "Выбыли", candidates: "Кандидаты", checks: "Проверки", night_n: "ночь",
    fouls: "фолы", foul: "+ фол", tech_foul: "+ техфол", remove: "Удалить", skip: "Пропустить", undo: "Отменить последний ввод",
    nominations: "Выставлены", said: "Сказано", cards_wait: "Ждём карты игроков",
    hands_for: "Голоса за игрока", hands_crash: "Голоса «за» в автокатастрофе", enter: "Записать",
    protocol: "Скачать протокол", confirm_remove: "Удалить игрока",
    held: "ждёт", ok: "Принято", withdrawn_ok: "Снято",
    maniac_side: "Сторона маньяка",
    put_up: "Выставление",
    check_who_commissar: "Кого проверяет Комиссар?",
    act_mafia: "Кого убивает мафия? Решение ваше", act_mafia_point: "Укажите жертву (решает Дон)",
    act_sheriff: "Шериф: проверка или выстрел", act_maniac: "Кого убивает маньяк?",
    act_doctor: "Кого спасает доктор?", act_nurse: "Кого лечит медсестра?",
    mode_check: "Проверка", mode_kill: "Выстрел", mode_save: "Спасти",
    stretcher: "На носилках", points: "Указывают",
    done_kill: "Выбор сделан", done_save: "Выбор сделан", crossed_arms: "Скрещённые руки: его уже спасали",
    best_move: "Лучший ход", best_move_send: "Назвать лучший ход",
    on_record: "Под протокол", on_record_send: "Оставить под протокол", red: "красный", black: "чёрный",
    raise_hand: "Поднять руку", spoke: "Вы уже выступили", put_up_q: "Выставить игрока",
    thumb_given: "Ваш палец принят", extra_hand: "Рука: ещё 30 секунд", hand_raised: "Ваша рука поднята",
    accuse: "Обвиняю", accused: "Обвинён", maniac_side_city: "Маньяк играет за город",
    maniac_side_mafia: "Маньяк играет за мафию", spoken: "Выступили", raised: "Руки подняты",
    act_mafia_together: "Кого убивает мафия? Убийство — когда все мафиози укажут одного игрока",
    remove_ask: "Удалить…", remove_yes: "Да, удалить", cancel: "Отмена", thumbs: "пальцев",
    tally: "Руки за", card_waits: "ждём карту", floor_left: "Осталось", hands_n: "рук", abstained: "воздержавшихся",
    end_speech: "Закончить речь", time_up: "Время вышло", pause: "Пауза", resume: "Продолжить",
    operator_title: "Пульт ведущего", marks: "Оценки ведущего", mark_points: "баллы", mark_why: "за что", mark_send: "Записать"
  },
  uk: {
    seat: "Гравець", hold: "Утримуйте, щоб побачити карту", hold_secret: "Утримуйте, щоб побачити", paused: "Гра на паузі",
    shot_taken: "Постріл прийнято", point_taken: "Вказівку прийнято", seen: "Карту переглянуто",
    not_seen: "Перегляньте свою карту", gone: "Ви вибули з гри",
    shoot: "Постріл", shot_on: "Постріл на", check_who_don: "Кого перевіряє Дон?",
    check_who_sheriff: "Кого перевіряє Шериф?", says_sheriff: "Шериф!", says_not_sheriff: "Не Шериф",
    says_black: "Чорний (мафія)", says_red: "Червоний (мирний)",
    who_for: "Хто за те, щоб стіл покинув гравець номер", crash_q: "Хто за те, щоб усі ці гравці покинули стіл?",
    for_: "За", voted: "Ваш голос прийнято", nominate: "Виставляю", withdraw: "Знімаю",
    thanks: "Дякую", standing: "Ваша кандидатура:", your_speech: "Ваша промова",
    living: "За столом", out_: "Вибули", candidates: "Кандидати", checks: "Перевірки", night_n: "ніч",
    fouls: "фоли", foul: "+ фол", tech_foul: "+ техфол", remove: "Видалити", skip: "Пропустити", undo: "Скасувати останнє введення",
    nominations: "Виставлені", said: "Сказано", cards_wait: "Чекаємо на карти гравців",
    hands_for: "Голоси за гравця", hands_crash: "Голоси «за» в автокатастрофі", enter: "Записати",
    protocol: "Завантажити протокол", confirm_remove: "Видалити гравця",
    held: "чекає", ok: "Прийнято", withdrawn_ok: "Знято",
    maniac_side: "Сторона маніяка",
    put_up: "Виставлення",
    check_who_commissar: "Кого перевіряє Комісар?",
    act_mafia: "Кого вбиває мафія? Рішення ваше", act_mafia_point: "Вкажіть жертву (вирішує Дон)",
    act_sheriff: "Шериф: перевірка або постріл", act_maniac: "Кого вбиває маніяк?",
    act_doctor: "Кого рятує доктор?", act_nurse: "Кого лікує медсестра?",
    mode_check: "Перевірка", mode_kill: "Постріл", mode_save: "Врятувати",
    stretcher: "На ношах", points: "Вказують",
    done_kill: "Вибір зроблено", done_save: "Вибір зроблено", crossed_arms: "Схрещені руки: його вже рятували",
    best_move: "Найкращий хід", best_move_send: "Назвати найкращий хід",
    on_record: "Під протокол", on_record_send: "Залишити під протокол", red: "червоний", black: "чорний",
    raise_hand: "Підняти руку", spoke: "Ви вже виступили", put_up_q: "Виставити гравця",
    thumb_given: "Ваш палець прийнято", extra_hand: "Рука: ще 30 секунд", hand_raised: "Вашу руку піднято",
    accuse: "Звинувачую", accused: "Звинувачений", maniac_side_city: "Маніяк грає за місто",
    maniac_side_mafia: "Маніяк грає за мафію", spoken: "Виступили", raised: "Руки підняті",
    act_mafia_together: "Кого вбиває мафія? Вбивство — коли всі мафіозі вкажуть одного гравця",
    remove_ask: "Видалити…", remove_yes: "Так, видалити", cancel: "Скасувати", thumbs: "пальців",
    tally: "Руки за", card_waits: "чекаємо карту", floor_left: "Залишилось", hands_n: "рук", abstained: "утрималися",
    end_speech: "Завершити промову", time_up: "Час вийшов", pause: "Пауза", resume: "Продовжити",
    operator_title: "Пульт ведучого", marks: "Оцінки ведучого", mark_points: "бали", mark_why: "за що", mark_send: "Записати"
  }
};
var Console = (function () {
  var token = location.pathname.split("/")[2] || "";
  var ws = null, nextId = 1, retry = 500, handlers = {}, timerEnd = null, timerHeld = false, timerTotal = 0;
  var lang = "ru", receivedAt = 0, serverNow = 0, last = null, ended = null;
  // the step a message was shown in: an answer belongs to its step and goes when it ends
  var msgSerial = null, serialNow = null, sentAt = {}, sentDo = {};

  function T(key) { return (TEXTS[lang] && TEXTS[lang][key]) || TEXTS.ru[key] || key; }
  // the game's words (a card, how a seat left, a phase, a title, …): the server's one table,
  // /static/words.js (narrator/words.py); a code it lacks is shown as it is
  function W(group, code) {
    var g = typeof WORDS === "undefined" ? null : (WORDS[lang] || WORDS.ru)[group];
    var at = String(code).split("@");  // a system at a version (fiim@3): its name, the version
    if (at.length === 2 && g && g[at[0]]) return g[at[0]] + ", " + W("head", "version") + " " + at[1];
    return (g && g[code]) || String(code);
  }
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function button(text, cls, onclick) {
    var b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onclick);
    return b;
  }
  function phaseText(p) {  // the step's words are the server's (the engine's label)
    if (p.step === "over" || p.step === "lobby") return p.label;
    return W("time", p.time) + " " + p.number + " · " + p.label;
  }
  function setLink(on) {
    var l = $("link");
    if (!l) return;
    l.className = on ? "link" : "link off";
    l.title = W("head", on ? "link" : "link_off");  // the dot's words, in the table's language
  }
  function tick() {
    var t = $("timer");
    if (t) {
      // held (the vote waits for the count): the word «ждёт», not a pause sign, which reads as
      // a game that stands still
      t.className = timerHeld && timerEnd !== null ? "timer held" : "timer";
      if (timerEnd === null) t.textContent = "";
      else if (timerHeld) t.textContent = T("held");
      else {
        // during the announcement the timer has not started: it shows its whole length
        var left = timeLeft();
        t.textContent = (left >= 10 ? Math.ceil(left) : left.toFixed(1)) + "\u00a0с";
      }
    }
    if (handlers.tick) handlers.tick();
  }
  function timeLeft() {  // seconds left on the running timer (its whole length before it starts)
    if (timerEnd === null) return 0;
    return Math.max(0, Math.min(timerTotal, (timerEnd - Date.now()) / 1000));
  }
  function onView(view, now) {
    // timers are deadlines on the game's clock; ``now`` is that clock when the view was sent
    receivedAt = Date.now();
    serverNow = typeof now === "number" ? now : 0;
    last = view;
    if (view.lang) { lang = view.lang; document.documentElement.lang = lang; }
    var tm = view.timer;
    timerEnd = tm ? receivedAt + (tm.ends - serverNow) * 1000 : null;
    timerHeld = tm ? !!tm.held : false;
    timerTotal = tm ? tm.total : 0;
    var p = $("phase");
    if (p) p.textContent = phaseText(view.phase);
    serialNow = view.phase ? view.phase.serial : null;
    if (msgSerial !== null && serialNow !== msgSerial) message("");
    if (handlers.view) handlers.view(view);
    if (view.paused) message(T("paused") + ": " + view.paused, true);  // why it stands still
    tick();
  }
  function connect() {
    // every page script first: a view that came while a later script (evening.js) was still
    // being fetched went to the scripts loaded so far alone, and nothing drew it again
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", connect, { once: true });
      return;
    }
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + token);
    ws.onopen = function () { retry = 500; setLink(true); };
    ws.onmessage = function (m) {
      var msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      if (msg.view) onView(msg.view, msg.now);
      else if (typeof msg.ended === "string") showEnded(msg.ended);
      else if ("reply" in msg && handlers.reply) {
        var at = sentAt[msg.reply];
        delete sentAt[msg.reply];
        msg.press = sentDo[msg.reply];  // what it answers (a withdrawal's is «Снято»)
        delete sentDo[msg.reply];
        // a press taken in a step that has ended since: its «Принято» would stand under the
        // next step's question; a refusal is still said (until the step after)
        if (msg.ok && at !== undefined && at !== serialNow) return;
        handlers.reply(msg);
      }
    };
    ws.onclose = function () {
      setLink(false);
      if (ended !== null) return;  // the evening or the game is over: nothing to come back to
      // a phone that drops (sleep, Wi-Fi) comes back and gets its state again
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 4000);
    };
  }
  // the end, as the server says it: the page shows it alone and connects no more
  function showEnded(text) {
    ended = text;
    timerEnd = null;
    document.body.classList.add("ended");
    var box = $("ended");
    if (!box) {
      box = el("div", "ended-note");
      box.id = "ended";
      box.setAttribute("role", "status");
      document.body.appendChild(box);
    }
    box.textContent = text;
    message("");
    if (handlers.ended) handlers.ended(text);
    if (ws) ws.close();
  }
  function send(obj) {  // obj.do: a press's name, as the journal writes it too (presses.py)
    if (!ws || ws.readyState !== 1) { return null; }
    obj.id = nextId++;
    sentAt[obj.id] = serialNow;
    sentDo[obj.id] = obj.do;
    ws.send(JSON.stringify(obj));
    return obj.id;
  }
  function message(text, bad) {
    var m = $("message");
    if (!m) return;
    m.textContent = text || "";
    m.className = bad ? "message bad" : "message";
    msgSerial = text ? serialNow : null;
  }
  // the server words a refusal; a withdrawal taken is «Снято», as the narrator says (2.3.2)
  function replyText(r) {
    return r.ok ? T(r.press === "withdraw" ? "withdrawn_ok" : "ok") : (r.text || r.reason);
  }
  setInterval(tick, 100);
  return { T: T, W: W, $: $, el: el, button: button, send: send, connect: connect, on: handlers,
           message: message, replyText: replyText, phaseText: phaseText, timeLeft: timeLeft,
           since: function () { return (Date.now() - receivedAt) / 1000; },
           // the game's clock now, as the page reckons it from the last view's stamp
           gameNow: function () { return serverNow + (Date.now() - receivedAt) / 1000; },
           view: function () { return last; },
           ended: function () { return ended; },
           token: function () { return token; } };
})();
