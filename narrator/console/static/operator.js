/* The operator view: the table as everybody knows it, vote entry for tables that vote by
   hand, fouls, removals, undo, and the protocol at the end. Nothing secret ever reaches it. */
"use strict";
(function () {
  var C = Console, T = C.T, el = C.el, $ = C.$;
  var view = null;

  function outText(how) {
    return T(how === "vote" ? "vote_out" : how === "crash" ? "crash_out" : how);
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
      if (view.cards) what.push(waiting.indexOf(s) >= 0 ? "…" : "✓");
      b.appendChild(el("div", "what", what.join(" · ")));
      var acts = el("div", "acts");
      (function (seat) {
        if (view.cards && waiting.indexOf(seat) >= 0) {
          acts.appendChild(C.button(T("skip"), "", function () { C.send({ do: "skip", seat: seat }); }));
        } else if (!how && !view.winner) {
          acts.appendChild(C.button(T("foul"), "", function () { C.send({ do: "foul", seat: seat }); }));
          acts.appendChild(C.button(T("remove"), "", function () {
            if (window.confirm(T("confirm_remove") + " " + seat + "?")) C.send({ do: "remove", seat: seat });
          }));
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
    if (box.dataset.key === key) return;  // keep what is being typed
    box.dataset.key = key;
    box.innerHTML = "";
    box.className = "panel";
    box.appendChild(el("h2", "", p.step === "crash" ? T("hands_crash") : T("hands_for") + " " + p.candidate));
    var input = el("input");
    input.type = "number"; input.min = "0"; input.max = String(view.living.length); input.id = "count";
    box.appendChild(input);
    box.appendChild(C.button(T("enter"), "", function () {
      var n = parseInt(input.value || "0", 10);
      C.send({ do: "hands", candidate: p.candidate, count: isNaN(n) ? -1 : n });
    }));
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
                                 (view.thumbs !== undefined ? " · 👍 " + view.thumbs : ""));
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
    box.appendChild(el("div", "result", T("winner_" + view.winner)));
    var a = el("a", "", T("protocol"));
    a.href = "/op/" + C.token() + "/protocol.json";
    a.id = "protocol";
    a.setAttribute("download", "protocol.json");
    box.appendChild(a);
  }

  C.on.view = function (v) {
    view = v;
    $("h-noms").textContent = view.phase.step === "speech" ? T("nominations") : T("candidates");
    $("h-said").textContent = T("said");
    $("undo").textContent = T("undo");
    $("undo").disabled = !v.can_undo;
    $("noms").textContent = v.candidates.join(", ") || "—";
    var said = $("said");
    said.innerHTML = "";
    v.said.forEach(function (line) { said.appendChild(el("li", "", line)); });
    renderCards();
    renderDay();
    renderVote();
    renderSeats();
    renderEnd();
  };
  C.on.reply = function (r) { C.message(C.replyText(r), !r.ok); };
  $("undo").addEventListener("click", function () { C.send({ do: "undo" }); });
  C.connect();
})();
