/* An evening of games on the same pages: the lobby between games (the last game's cards, the
   results, the seat for the next game) and, on the operator view, the seating, the roster with
   each player's link and QR code, and the start of the next game. Loaded after pad.js or
   operator.js: it takes the views first and hands a game's views on to them. */
"use strict";
(function () {
  var C = Console, T = C.T, el = C.el, $ = C.$;
  var more = {
    ru: {
      evening: "Вечер", game_n: "Игра", lobby_wait: "Ждём следующую игру",
      your_seat: "Ваше место в следующей игре", no_seat: "Место ещё не назначено",
      sitting_out: "Вы не играете в этой игре", left_evening: "Вы ушли с вечера",
      last_game: "Прошлая игра", results: "Итоги вечера", name: "Игрок", games: "Игр",
      wins: "Побед", fouls_n: "Фолы", removals: "Удаления", best: "ЛХ", points_n: "Очки",
      seating: "Рассадка", draw: "Случайная рассадка", start: "Начать игру",
      players: "Игроки", add: "Добавить игрока", nickname: "Ник", left_: "Ушёл",
      leaves: "Уходит", comes_back: "Вернулся", qr: "QR", close_evening: "Закончить вечер",
      confirm_close: "Да, закончить вечер", rules: "Правила", nobody: "—",
      added: "Добавлен", mr_id: "№ в MafiaRatings", place: "№", s_main: "Осн.",
      s_best_move: "ЛХ+", s_extra: "Доп.", s_penalty: "Штраф", s_compensation: "Ком.",
      s_special: "Побед шерифом/доном", s_first: "Убит первым",
      playing_now: "Идёт игра", fair: "Справедливая рассадка", fair_why: "Почему так",
      sits_out: "Не играет", times_out: "пропусков", played_n: "сыграно",
      fair_score: "Оценка этой рассадки", random_score: "в среднем у случайной",
      lower_better: "меньше — лучше", fair_changed: "Рассадку изменили после расчёта",
      by_plan: "По плану", plan_round: "План турнира", round_of: "тур", table_n: "стол",
      plan_absent: "Нет в клубе", plan_changed: "Рассадку изменили после плана",
      director: "Директор", dir_up: "на связи", dir_down: "нет связи",
      dir_unsent: "не отправлено", dir_refused: "отклонено", seat_at: "место",
      standings_t: "Турнирная таблица"
    },
    uk: {
      evening: "Вечір", game_n: "Гра", lobby_wait: "Чекаємо на наступну гру",
      your_seat: "Ваше місце в наступній грі", no_seat: "Місце ще не призначено",
      sitting_out: "Ви не граєте в цій грі", left_evening: "Ви пішли з вечора",
      last_game: "Минула гра", results: "Підсумки вечора", name: "Гравець", games: "Ігор",
      wins: "Перемог", fouls_n: "Фоли", removals: "Видалення", best: "КХ", points_n: "Бали",
      seating: "Розсадка", draw: "Випадкова розсадка", start: "Почати гру",
      players: "Гравці", add: "Додати гравця", nickname: "Нік", left_: "Пішов",
      leaves: "Іде", comes_back: "Повернувся", qr: "QR", close_evening: "Завершити вечір",
      confirm_close: "Так, завершити вечір", rules: "Правила", nobody: "—",
      added: "Додано", mr_id: "№ у MafiaRatings", place: "№", s_main: "Осн.",
      s_best_move: "КХ+", s_extra: "Дод.", s_penalty: "Штраф", s_compensation: "Комп.",
      s_special: "Перемог шерифом/доном", s_first: "Убитий першим",
      playing_now: "Триває гра", fair: "Справедлива розсадка", fair_why: "Чому так",
      sits_out: "Не грає", times_out: "пропусків", played_n: "зіграно",
      fair_score: "Оцінка цієї розсадки", random_score: "у середньому у випадкової",
      lower_better: "менше — краще", fair_changed: "Розсадку змінили після розрахунку",
      by_plan: "За планом", plan_round: "План турніру", round_of: "тур", table_n: "стіл",
      plan_absent: "Немає в клубі", plan_changed: "Розсадку змінили після плану",
      director: "Директор", dir_up: "на зв'язку", dir_down: "немає зв'язку",
      dir_unsent: "не надіслано", dir_refused: "відхилено", seat_at: "місце",
      standings_t: "Турнірна таблиця"
    }
  };
  Object.keys(more).forEach(function (lang) {
    Object.keys(more[lang]).forEach(function (k) { TEXTS[lang][k] = more[lang][k]; });
  });

  var operator = document.body.className.indexOf("operator") >= 0;
  var gameView = C.on.view, gameReply = C.on.reply, shownQr = {}, lastKey = null;
  var closing = false;  // «Закончить вечер» asks again on the button itself

  function outText(how) {
    return C.W("out", how);
  }

  function cell(row, text, tag) { row.appendChild(el(tag || "td", "", text)); }

  function lastGame(box, last) {
    if (!last) return;
    box.appendChild(el("h2", "", T("last_game") + " " + last.number + " · " + C.W("rules", last.rules)));
    if (last.winner) box.appendChild(el("div", "result", C.W("winner", last.winner)));
    var t = el("table", "cards-table"), head = el("tr");
    ["№", T("nickname"), "", ""].forEach(function (h) { cell(head, h, "th"); });
    t.appendChild(head);
    last.cards.forEach(function (c) {
      var r = el("tr", c.team === "mafia" ? "black" : "red");
      cell(r, c.seat); cell(r, c.name); cell(r, C.W("card", c.role)); cell(r, c.out ? outText(c.out) : "");
      t.appendChild(r);
    });
    box.appendChild(t);
  }

  // the points split as the club's system gives them (main, best move, extra, penalty,
  // the first-killed's compensation), in its order; the tie-breaks after the total
  var SPLIT = ["main", "best_move", "extra", "penalty", "compensation"];

  // place, name and total on the row, always in sight at any width; the rest of a player's
  // figures (games, wins, the split, the tie-breaks) on a second line under his name that
  // wraps — a table as wide as its box, never one that scrolls sideways
  function results(box, res, full) {
    if (!res || !res.players.length) return;
    // a tournament's table shows the tournament's standings, named so
    var title = el("h2", "", (res.tournament !== undefined ? T("standings_t") +
                              (res.tournament ? " · " + res.tournament : "") : T("results")) +
                   (res.system ? " (" + C.W("system", res.system) + ")" : ""));
    title.id = "results-title";
    box.appendChild(title);
    var t = el("table", "results-table"), head = el("tr");
    [T("place"), T("name"), T("points_n")].forEach(function (h) { cell(head, h, "th"); });
    t.appendChild(head);
    res.players.forEach(function (p) {
      var r = el("tr", "main-line");
      r.appendChild(el("td", "num", p.place || ""));
      r.appendChild(el("td", "who", p.name));
      // (a tournament's points as its board writes them: two decimals)
      r.appendChild(el("td", "num total", res.tournament !== undefined && typeof p.points === "number"
                                          ? p.points.toFixed(2) : p.points));
      t.appendChild(r);
      var parts = [];
      function part(label, value) {
        if (value !== undefined && value !== null) parts.push(label + " " + value);
      }
      part(T("games"), p.games); part(T("wins"), p.wins);
      if (full && p.wins_by_card) {
        (res.cards || []).forEach(function (c) { part(C.W("card", c), p.wins_by_card[c] || 0); });
      }
      if (full) { part(T("fouls_n"), p.fouls); part(T("removals"), p.removals); part(T("best"), p.best_moves); }
      SPLIT.forEach(function (g) { part(T("s_" + g), p[g]); });
      part(T("s_special"), p.special_role_wins); part(T("s_first"), p.killed_first_night);
      if (parts.length) {
        var more = el("tr", "more-line"), td = el("td", "more", parts.join(" · "));
        more.appendChild(el("td", ""));
        td.colSpan = 2;
        more.appendChild(td);
        t.appendChild(more);
      }
    });
    box.appendChild(t);
  }

  function seatingPanel(box, ev) {
    box.appendChild(el("h2", "", T("seating")));
    var grid = el("div", "seating");
    var present = ev.players.filter(function (p) { return !p.left; });
    for (var s = 1; s <= ev.seats; s++) {
      (function (seat) {
        var row = el("label", "seat-pick");
        row.appendChild(el("span", "num", seat));
        var sel = el("select");
        sel.id = "seat-pick-" + seat;
        var none = el("option", "", T("nobody"));
        none.value = "";
        sel.appendChild(none);
        present.forEach(function (p) {
          var o = el("option", "", p.name);
          o.value = String(p.number);
          if (ev.seating[String(seat)] === p.number) o.selected = true;
          sel.appendChild(o);
        });
        sel.addEventListener("change", function () {
          C.send({ do: "seat", seat: seat, player: sel.value ? parseInt(sel.value, 10) : null });
        });
        row.appendChild(sel);
        grid.appendChild(row);
      })(s);
    }
    box.appendChild(grid);
    var row = el("div", "row");
    row.appendChild(C.button(T("draw"), "", function () { C.send({ do: "draw" }); }));
    var fair = C.button(T("fair"), "", function () { C.send({ do: "fair" }); });
    fair.id = "fair";
    row.appendChild(fair);
    if (ev.plan) {
      var byPlan = C.button(T("by_plan"), "", function () { C.send({ do: "plan" }); });
      byPlan.id = "by-plan";
      row.appendChild(byPlan);
    }
    var rules = el("select");
    rules.id = "rules-pick";
    ev.rulesets.forEach(function (r) {
      var o = el("option", "", C.W("rules", r));
      o.value = r;
      if (r === ev.rules) o.selected = true;
      rules.appendChild(o);
    });
    row.appendChild(rules);
    var start = C.button(T("start") + " " + (ev.games + 1), "go", function () {
      C.send({ do: "start", rules: rules.value });
    });
    start.id = "start";
    start.disabled = !!ev.problem;
    row.appendChild(start);
    box.appendChild(row);
    if (ev.problem) box.appendChild(el("div", "note", ev.problem));
    if (ev.plan) planPanel(box, ev.plan);
    if (ev.fair) fairPanel(box, ev.fair, ev.seats);
  }

  // the tournament's plan this table follows: which round, and who of it is not here
  function planPanel(box, plan) {
    var wrap = el("div", "fair");
    wrap.id = "plan-round";
    wrap.appendChild(el("div", "note", T("plan_round") + " " + plan.file + ": " +
                        T("round_of") + " " + plan.round + " / " + plan.rounds + ", " +
                        T("table_n") + " " + plan.table));
    plan.absent.forEach(function (a) {
      wrap.appendChild(el("div", "note", T("plan_absent") + ": " + a.seat + " — " + a.name));
    });
    if (plan.changed) wrap.appendChild(el("div", "note", T("plan_changed")));
    box.appendChild(wrap);
  }

  // why the fair seating is so, as the front worked it out: each seated player's seats so
  // far (the seat he gets now marked), who sits out and why, its score against random draws'
  function fairPanel(box, fair, seats) {
    var wrap = el("div", "fair");
    wrap.id = "fair-why";
    wrap.appendChild(el("h3", "", T("fair_why")));
    var t = el("table", "fair-table"), head = el("tr");
    cell(head, "№", "th"); cell(head, T("name"), "th");
    for (var s = 1; s <= seats; s++) cell(head, s, "th");
    t.appendChild(head);
    fair.players.forEach(function (p) {
      var r = el("tr");
      cell(r, p.seat); cell(r, p.name);
      p.seats.forEach(function (n, i) {
        r.appendChild(el("td", i + 1 === p.seat ? "now" : "", n));
      });
      t.appendChild(r);
    });
    var scroll = el("div", "scroll");
    scroll.appendChild(t);
    wrap.appendChild(scroll);
    fair.out.forEach(function (o) {
      wrap.appendChild(el("div", "note", T("sits_out") + ": " + o.name + " (" + T("times_out") +
                          " " + o.times_out + ", " + T("played_n") + " " + o.played + ")"));
    });
    wrap.appendChild(el("div", "note fair-score", T("fair_score") + ": " + fair.score + " · " +
                        T("random_score") + " (" + fair.draws + "): " + fair.random + " (" +
                        T("lower_better") + ")"));
    if (fair.changed) wrap.appendChild(el("div", "note", T("fair_changed")));
    box.appendChild(wrap);
  }

  function playersPanel(box, ev, between) {
    box.appendChild(el("h2", "", T("players")));
    var seated = {};
    Object.keys(ev.seating).forEach(function (s) { seated[ev.seating[s]] = s; });
    var list = el("div", "roster");
    ev.players.forEach(function (p) {
      var row = el("div", "roster-line" + (p.left ? " gone" : ""));
      row.id = "player-" + p.number;
      // her name and the seat she has (a roster number beside it read as a seat)
      row.appendChild(el("span", "who", p.name +
                         (seated[p.number] ? " · " + T("seat_at") + " " + seated[p.number] : "") +
                         (p.left ? " · " + T("left_") : "")));
      row.appendChild(idField(p));
      row.appendChild(C.button(T("qr"), "", function () {
        shownQr[p.number] = !shownQr[p.number]; lastKey = null; render(C.view());
      }));
      if (between || !seated[p.number]) {
        row.appendChild(C.button(p.left ? T("comes_back") : T("leaves"), "", function () {
          C.send({ do: p.left ? "back" : "leave", player: p.number });
        }));
      }
      if (shownQr[p.number]) {
        var q = el("div", "qr");
        var img = el("img");
        img.src = p.qr; img.alt = p.link;
        q.appendChild(img);
        q.appendChild(el("div", "note link-text", p.link));
        row.appendChild(q);
      }
      list.appendChild(row);
    });
    box.appendChild(list);
    var add = el("div", "row");
    var input = el("input");
    input.id = "new-player"; input.placeholder = T("nickname"); input.maxLength = 32;
    input.className = "name-input";
    add.appendChild(input);
    add.appendChild(C.button(T("add"), "", function () {
      if (input.value.trim()) C.send({ do: "add", name: input.value });
    }));
    box.appendChild(add);
  }

  function idField(p) {  // the player's MafiaRatings id, which the export needs
    var input = el("input");
    input.id = "mr-" + p.number; input.className = "id-input"; input.type = "number";
    input.min = "1"; input.placeholder = T("mr_id"); input.title = T("mr_id");
    input.value = p.mafiaratings ? String(p.mafiaratings) : "";
    input.addEventListener("change", function () {
      var n = parseInt(input.value, 10);
      C.send({ do: "rating_id", player: p.number, user: n >= 1 ? n : null });
    });
    return input;
  }

  // the tournament's director this table sends its games to: reached or not, what it lacks
  function directorLine(box, d) {
    var line = el("div", "note", T("director") + ": " + T(d.reachable ? "dir_up" : "dir_down") +
                  ", " + T("dir_unsent") + ": " + d.unsent +
                  (d.refused ? " (" + T("dir_refused") + ": " + d.refused + ")" : ""));
    line.id = "director";
    box.appendChild(line);
    // each game it refused stays at the table: which, and the director's reason
    (d.refusals || []).forEach(function (r) {
      var why = el("div", "note refusal", T("dir_refused") + ": " + T("game_n") + " " + r.game +
                   (r.why ? " — " + r.why : ""));
      why.id = "director-refused-" + r.game;
      box.appendChild(why);
    });
  }

  function render(view) {
    var box = $("evening");
    var key = JSON.stringify([view.lobby || null, view.evening || null, view.player || null,
                              shownQr, operator ? null : view.names]);
    var active = document.activeElement, typing = null, typed = null;
    if (active && (active.id === "new-player" || active.id.indexOf("mr-") === 0)) {
      typing = active.value; typed = active.id;  // a name or an id being typed
    }
    if (key === lastKey) return;
    lastKey = key;
    box.innerHTML = "";
    var ev = view.evening, between = !!view.lobby && !view.lobby.playing;
    if (operator && ev && ev.director) directorLine(box, ev.director);
    if (operator && ev && between) seatingPanel(box, ev);  // what the operator does first
    if (view.lobby) {
      var lb = view.lobby;
      box.appendChild(el("div", "question", lb.playing ? T("playing_now") + " " + lb.playing
                                                         : view.phase.label));
      if (!operator && view.player) {
        var p = view.player;
        if (p.left) box.appendChild(el("div", "note", T("left_evening")));
        else if (lb.playing) box.appendChild(el("div", "note", T("sitting_out")));
        else box.appendChild(el("div", "result", p.seat ? T("your_seat") + ": " + p.seat
                                                        : T("no_seat")));
      }
      lastGame(box, lb.last);
      results(box, lb.results, operator);
    }
    if (operator && ev) {
      playersPanel(box, ev, between);
      if (between) {
        var end = C.button(closing ? T("confirm_close") : T("close_evening"),
                           closing ? "danger" : "", function () {
          if (closing) C.send({ do: "close" });
          else { closing = true; lastKey = null; render(C.view()); }
        });
        end.id = "close-evening";
        box.appendChild(end);
      }
    }
    var again = typed && $(typed);
    if (again) {  // what is being typed survives a new view
      again.value = typing;
      again.focus();
    }
  }

  function header(view) {
    var p = view.player, who = $("player");
    if (!who) return;
    who.textContent = p ? p.name + (p.game ? " · " + T("game_n") + " " + p.game : "") : "";
  }

  function names(view) {  // the operator's seats with the players' nicknames
    if (!operator || !view.names) return;
    Object.keys(view.names).forEach(function (s) {
      var box = $("seat-" + s);
      if (box && !box.querySelector(".nick")) {
        box.insertBefore(el("div", "nick", view.names[s]), box.children[1] || null);
      }
    });
  }

  C.on.view = function (view) {
    var lobby = !!view.lobby;
    document.body.classList.toggle("in-lobby", lobby);
    $("evening").hidden = !(lobby || (operator && view.evening));
    header(view);
    if (!lobby) {
      if ($("seat")) $("seat").hidden = false;
      gameView(view);
      names(view);
    } else if (operator) {  // the last game's marks, until the next game starts
      var last = view.lobby.last;
      C.renderMarks(view.marks, last ? last.cards.length : 0, "lobby:" + (last ? last.number : ""));
    } else {
      // between games a player has no seat: no number at all (a placeholder took the
      // header's room and wrapped its line on a phone)
      var seat = view.player && view.player.seat ? view.player.seat : "";
      $("seat").textContent = seat;
      $("seat").hidden = !seat;
      document.title = view.player ? view.player.name : T("evening");
    }
    render(view);
  };
  C.on.reply = function (r) {
    if (!r.ok && r.why) C.message(C.replyText(r) + ": " + r.why, true);
    else if (r.ok && r.link) C.message(T("added") + ": " + r.link);
    else gameReply(r);
  };
})();
