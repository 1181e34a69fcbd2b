/* A seat pad: the player's own card (hold to reveal), their night step, their hand in a vote,
   and in their own speech a fallback for the microphone. */
"use strict";
(function () {
  var C = Console, T = C.T, el = C.el, $ = C.$;
  var view = null, stepKey = null, countEl = null;

  function holdCard(show) {
    if (!view || !view.card) return;
    var face = $("card-face");
    face.hidden = !show;
    $("card-hint").hidden = show;
    if (show) {
      var lines = [T(view.card.role)];
      (view.checks || []).forEach(function (c) {
        var what = view.card.role === "don" ? (c.result ? T("is_sheriff") : T("not_sheriff"))
                                            : (c.result ? T("is_black") : T("is_red"));
        lines.push(c.night + " " + T("night_n") + ": " + c.target + " — " + what);
      });
      face.textContent = lines.join("\n");
      $("card").className = "card " + (view.card.team === "mafia" ? "black" : "red");
    } else {
      $("card").className = "card";
      if (view.step && view.step.type === "card" && !view.step.seen) C.send({ do: "seen" });
    }
  }

  function bindCard() {
    var card = $("card");
    var on = function (e) { e.preventDefault(); holdCard(true); };
    var off = function (e) { e.preventDefault(); holdCard(false); };
    if (window.PointerEvent) {
      card.addEventListener("pointerdown", on);
      card.addEventListener("pointerup", off);
      card.addEventListener("pointerleave", off);
      card.addEventListener("pointercancel", off);
    } else {  // older phones: touch, and the mouse
      card.addEventListener("touchstart", on);
      card.addEventListener("touchend", off);
      card.addEventListener("touchcancel", off);
      card.addEventListener("mousedown", on);
      card.addEventListener("mouseup", off);
      card.addEventListener("mouseleave", off);
    }
    card.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  }

  function grid(numbers, selected, onpick) {
    var g = el("div", "grid");
    numbers.forEach(function (n) {
      g.appendChild(C.button(String(n), n === selected ? "sel" : "", function () { onpick(n); }));
    });
    return g;
  }

  function seatsUpTo(n) { var a = []; for (var i = 1; i <= n; i++) a.push(i); return a; }

  function renderStep() {
    var s = view.step, box = $("step");
    var key = JSON.stringify([s && s.type, s && s.candidate, s && s.done, s && s.voted,
                              s && s.standing, s && s.speech, s && s.seen, s && s.pressed,
                              view.gone, view.living]);
    if (key === stepKey) return;
    stepKey = key;
    box.innerHTML = "";
    countEl = null;
    if (!s) {
      if (view.gone) box.appendChild(el("div", "question", T("gone")));
      return;
    }
    if (s.type === "card") {
      $("card-note").textContent = s.seen ? "✓ " + T("seen") : T("not_seen");
      return;
    }
    $("card-note").textContent = "";
    if (s.type === "hunt") {
      countEl = el("div", "count", "…");
      box.appendChild(countEl);
      box.appendChild(C.button(T("shoot"), "big", function () { C.send({ do: "shoot" }); }));
      if (s.pressed.length) box.appendChild(el("div", "note", T("shot_on") + " " + s.pressed.join(", ")));
    } else if (s.type === "check") {
      if (s.done) {
        var res = s.role === "don" ? (s.done.result ? T("is_sheriff") : T("not_sheriff"))
                                   : (s.done.result ? T("is_black") : T("is_red"));
        box.appendChild(el("div", "question", T("seat") + " " + s.done.target));
        box.appendChild(el("div", "result", res));
      } else {
        box.appendChild(el("div", "question", T("check_who_" + s.role)));
        box.appendChild(grid(seatsUpTo(view.seats), null, function (n) {
          C.send({ do: "check", target: n });
        }));
      }
    } else if (s.type === "vote") {
      box.appendChild(el("div", "question", s.candidate === null ? T("crash_q")
                                                                 : T("who_for") + " " + s.candidate + "?"));
      if (s.voted) box.appendChild(el("div", "result", T("voted")));
      else box.appendChild(C.button(T("for_"), "big go", function () {
        C.send({ do: "vote", candidate: s.candidate });
      }));
    } else if (s.type === "speech") {
      box.appendChild(el("div", "question", T("your_speech")));
      if (s.speech === "day") {
        box.appendChild(el("div", "note", T("nominate")));
        box.appendChild(grid(view.living, s.standing, function (n) {
          C.send({ do: "nominate", target: n });
        }));
        if (s.standing !== null) {
          box.appendChild(C.button(T("withdraw") + " " + s.standing, "", function () {
            C.send({ do: "withdraw", target: s.standing });
          }));
        }
      }
      box.appendChild(C.button(T("thanks"), "big go", function () { C.send({ do: "end" }); }));
    }
  }

  function renderTable() {
    var t = $("table"), parts = [];
    if (view.winner) parts.push(T("winner_" + view.winner));
    parts.push(T("living") + ": " + view.living.join(" "));
    var outs = Object.keys(view.out).map(function (s) {
      var how = view.out[s];
      return s + " (" + T(how === "vote" ? "vote_out" : how === "crash" ? "crash_out" : how) + ")";
    });
    if (outs.length) parts.push(T("out_") + ": " + outs.join(", "));
    if (view.candidates.length) parts.push(T("candidates") + ": " + view.candidates.join(", "));
    t.textContent = parts.join(" · ");
  }

  C.on.view = function (v) {
    view = v;
    $("seat").textContent = v.seat;
    document.title = T("seat") + " " + v.seat;
    $("card-area").hidden = !v.card;
    $("card-hint").textContent = T("hold");
    renderStep();
    renderTable();
  };
  C.on.tick = function () {
    if (!countEl || !view || !view.step || view.step.type !== "hunt") return;
    var s = view.step, elapsed = s.elapsed + C.since();
    var n = Math.floor(elapsed / s.pace) + 1;
    countEl.textContent = elapsed < 0 ? "…" : String(Math.min(n, s.count));
  };
  C.on.reply = function (r) {
    if (r.ok && r.number) C.message(T("shot_on") + " " + r.number);
    else C.message(C.replyText(r), !r.ok);
  };
  bindCard();
  C.connect();
})();
