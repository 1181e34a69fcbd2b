/* The operator view: the table as everybody knows it, vote entry for tables that vote by
   hand, fouls, removals, undo, and at the end the protocol and the host's marks (a form per
   seat). Nothing secret ever reaches it. */
"use strict";
(function () {
  var C = Console, T = C.T, el = C.el, $ = C.$;
  var view = null, arming = null;  // the seat whose removal waits for «Да, удалить»

  function outText(how) {
    return C.W("out", how);
  }

  function renderSeats() {
    var box = $("seats");
    box.innerHTML = "";
    var speaking = view.phase.step === "speech" ? view.phase.seat : null;
    var waiting = view.cards ? view.cards.waiting : [];
    for (var s = 1; s <= view.seats; s++) {
      var how = view.out[String(s)], fouls = view.fouls[String(s)] || 0;
      var cls = "seatbox" + (s === speaking ? " speaking" : "") + (how ? " gone" : "");
      var b = el("div", cls);
      b.id = "seat-" + s;
      b.appendChild(el("div", "num", s));
      var what = [];
      if (how) what.push(outText(how));
      if (fouls) what.push(T("fouls") + ": " + fouls);
      if (view.cards && waiting.indexOf(s) >= 0) what.push(T("card_waits"));
      b.appendChild(el("div", "what", what.join(" · ")));
      var acts = el("div", "acts");
      (function (seat) {
        if (view.cards && waiting.indexOf(seat) >= 0) {
          acts.appendChild(C.button(T("skip"), "", function () { C.send({ do: "skip", seat: seat }); }));
        }
        if (view.aside.remove.indexOf(seat) >= 0 && arming === seat) {
          // a removal is a step of its own: asked here, answered here (no browser dialog)
          b.className += " arming";
          acts.appendChild(C.button(T("remove_yes") + " " + seat, "danger", function () {
            arming = null;
            C.send({ do: "remove", seat: seat });
          }));
          acts.appendChild(C.button(T("cancel"), "", function () { arming = null; renderSeats(); }));
        } else {  // the seats the engine takes a foul or a removal for (a last word's too)
          if (view.aside.foul.indexOf(seat) >= 0) {
            acts.appendChild(C.button(T("foul"), "foul", function () { C.send({ do: "foul", seat: seat }); }));
          }
          if ((view.aside.tech_foul || []).indexOf(seat) >= 0) {  // 9.6.2: the club's option
            acts.appendChild(C.button(T("tech_foul"), "foul", function () { C.send({ do: "tech_foul", seat: seat }); }));
          }
          if (view.aside.remove.indexOf(seat) >= 0) {
            acts.appendChild(C.button(T("remove_ask"), "remove", function () {
              arming = seat; renderSeats();
            }));
          }
        }
      })(s);
      b.appendChild(acts);
      box.appendChild(b);
    }
  }

  function renderVote() {
    var box = $("vote"), p = view.phase;
    var open = view.hand_votes && (p.step === "vote" || p.step === "crash");
    box.hidden = !open;
    if (!open) { box.innerHTML = ""; box.dataset.key = ""; return; }
    var key = p.step + ":" + p.candidate + ":" + p.round;
    if (box.dataset.key !== key) voteBox(box, key, p);  // (kept: what is being typed)
    // 2.4: the last candidate's count takes every hand not given yet — the view's figure
    var toLast = $("to-last");
    toLast.hidden = !view.to_last;
    toLast.textContent = view.to_last ? C.W("head", "not_voted") + ": " + view.to_last + " — " +
      C.W("head", "all_for") + " " + p.candidate + " (" + C.W("head", "hands_and_abstained") + ", 2.4)" : "";
  }

  function voteBox(box, key, p) {
    box.dataset.key = key;
    box.innerHTML = "";
    box.className = "panel";
    box.appendChild(el("h2", "", p.step === "crash" ? T("hands_crash") : T("hands_for") + " " + p.candidate));
    var toLast = el("div", "note to-last");
    toLast.id = "to-last";
    box.appendChild(toLast);
    var input = el("input");
    input.type = "number"; input.min = "0"; input.max = String(view.hands_max); input.id = "count";
    box.appendChild(input);
    box.appendChild(C.button(T("enter"), "", function () {
      var n = parseInt(input.value || "0", 10);
      C.send({ do: "hands", candidate: p.candidate, count: isNaN(n) ? -1 : n });
    }));
  }

  function renderTally() {  // a pad vote: the hands as they come in (the table sees them)
    var box = $("tally"), t = view.tally;
    box.hidden = !t;
    if (!t) return;
    box.className = "panel";
    box.innerHTML = "";
    var whom = t.candidate === null ? T("hands_crash") : T("tally") + " " + t.candidate;
    // 2.4: the last candidate's count takes the hands not raised — said, as the narrator does
    var count = t.abstaining ? t.hands.length + " " + T("hands_n") + " + " + t.abstaining + " " +
      T("abstained") : String(t.hands.length);
    box.appendChild(el("div", "tally-count", whom + ": " + count));
    box.appendChild(el("div", "note", t.hands.join(" ") || "—"));
  }

  function renderBar() {  // what the operator needs at any step: undo, the time, the last words
    var said = view.said || [];
    $("last-said").textContent = said.length ? said[said.length - 1] : "";
    // the step's time ended now, the clock stopped or going on: the engine's and the host's
    // answers (the buttons only ask)
    var end = $("time-up");
    end.hidden = !view.can_end;
    end.textContent = view.phase.step === "speech" ? T("end_speech") : T("time_up");
    var clock = $("clock");
    clock.hidden = !view.clock;
    clock.textContent = view.clock === "resume" ? T("resume") : T("pause");
  }

  function renderCards() {
    var box = $("cards");
    box.hidden = !view.cards;
    if (view.cards) {
      box.className = "panel";
      box.textContent = T("cards_wait") + ": " + view.cards.waiting.join(" ");
    }
  }

  function renderDay() {  // a day by raised hands, the thumbs, the hands for more time: public
    var box = $("day"), lines = [];
    if (view.declared && view.declared.maniac_side) lines.push(T("maniac_side_" + view.declared.maniac_side));
    if (view.spoken) lines.push(T("spoken") + ": " + (view.spoken.join(", ") || "—"));
    if (view.accused) lines.push(T("accused") + ": " + view.accused +
                                 (view.thumbs !== undefined ? " · " + T("thumbs") + ": " + view.thumbs : ""));
    if (view.put_up) {
      lines.push(T("put_up") + ": " + Object.keys(view.put_up).map(function (k) {
        return k + " (" + view.put_up[k] + ")";
      }).join(", "));
    }
    if (view.raised) lines.push(T("raised") + ": " + (view.raised.join(", ") || "—"));
    box.hidden = !lines.length;
    box.className = "panel";
    box.textContent = lines.join(" · ");
  }

  function renderEnd() {
    var box = $("end");
    box.hidden = !view.winner;
    box.innerHTML = "";
    if (!view.winner) return;
    box.className = "panel";
    box.appendChild(el("div", "result", C.W("winner", view.winner)));
    var a = el("a", "", T("protocol"));
    a.href = "/op/" + C.token() + "/protocol.json";
    a.id = "protocol";
    a.setAttribute("download", "protocol.json");
    box.appendChild(a);
  }

  function markText(m) {  // «+0.3, лучший игрок — за что»
    var given = (m.points ? [(m.points > 0 ? "+" : "") + m.points] : []).concat(
      m.titles.map(function (t) { return C.W("title", t); }));
    return given.join(", ") + (m.comment ? (given.length ? " — " : "") + m.comment : "");
  }

  function markForm(seat, m) {  // points, the titles, the comment, send: one seat's marks
    var row = el("div", "markrow");
    row.id = "mark-" + seat;
    row.appendChild(el("span", "num", seat));
    var pts = el("input", "points");
    pts.type = "number"; pts.step = String(m.bonus_step);
    pts.min = String(-m.bonus_max); pts.max = String(m.bonus_max);
    pts.placeholder = T("mark_points");
    row.appendChild(pts);
    var boxes = m.titles.map(function (t) {
      var label = el("label", "title"), box = el("input");
      box.type = "checkbox"; box.value = t;
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + C.W("title", t)));
      row.appendChild(label);
      return box;
    });
    var why = el("input", "comment");
    why.type = "text"; why.maxLength = 300; why.placeholder = T("mark_why");
    row.appendChild(why);
    row.appendChild(C.button(T("mark_send"), "", function () {
      var p = parseFloat(pts.value || "0");
      C.send({ do: "mark", seat: seat, points: isNaN(p) ? 0 : p, comment: why.value,
               titles: boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }) });
    }));
    var given = el("span", "note given");
    given.id = "mark-given-" + seat;
    row.appendChild(given);
    return row;
  }

  // the host's marks once the game is over (the evening's lobby too: the last game's);
  // built once for ``key`` (what is typed in one seat's row survives a mark of another)
  function renderMarks(m, seats, key) {
    var box = $("marks");
    box.hidden = !m;
    if (!m) { box.innerHTML = ""; box.dataset.key = ""; return; }
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      box.className = "panel";
      box.innerHTML = "";
      box.appendChild(el("h2", "", T("marks")));
      for (var s = 1; s <= seats; s++) box.appendChild(markForm(s, m));
    }
    var by = {};
    m.given.forEach(function (g) { by[g.seat] = g; });
    for (var seat = 1; seat <= seats; seat++) {
      $("mark-given-" + seat).textContent = by[seat] ? markText(by[seat]) : "";
    }
  }
  C.renderMarks = renderMarks;

  C.on.view = function (v) {
    view = v;
    document.title = T("operator_title");
    $("h-noms").textContent = view.phase.step === "speech" ? T("nominations") : T("candidates");
    $("h-said").textContent = T("said");
    $("undo").textContent = T("undo");
    $("undo").disabled = !v.can_undo;
    $("noms").textContent = v.candidates.join(", ") || "—";
    var said = $("said");
    said.innerHTML = "";
    v.said.forEach(function (line) { said.appendChild(el("li", "", line)); });
    if (arming !== null && v.aside.remove.indexOf(arming) < 0) arming = null;
    renderBar();
    renderCards();
    renderDay();
    renderVote();
    renderTally();
    renderSeats();
    renderEnd();
    renderMarks(v.marks, v.seats, "game");
  };
  C.on.reply = function (r) { C.message(C.replyText(r), !r.ok); };
  $("undo").addEventListener("click", function () { C.send({ do: "undo" }); });
  $("time-up").addEventListener("click", function () { C.send({ do: "time_up" }); });
  $("clock").addEventListener("click", function () {
    C.send({ do: view && view.clock === "resume" ? "resume" : "pause" });
  });
  C.connect();
})();
