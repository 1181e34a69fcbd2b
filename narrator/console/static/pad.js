/* A seat pad: the player's own card (hold to reveal), their night step (a shot on the count, a
   check, a kill, a save — the sheriff's check or shot, the doctor's stretcher), their hand in a
   vote, the raised hand for the floor or for more time, the thumb that puts the accused up, and
   in their own speech a fallback for the microphone (a nomination, or the one accused). */
"use strict";
(function () {
  var C = Console, T = C.T, W = C.W, el = C.el, $ = C.$;
  var view = null, stepKey = null, countEl = null, floorEl = null, actMode = null, actFor = null;

  function holdCard(show) {
    if (!view || !view.card) return;
    var face = $("card-face");
    face.hidden = !show;
    $("card-hint").hidden = show;
    if (show) {
      var lines = [W("card", view.card.role)];
      (view.checks || []).forEach(function (c) {
        var what = T("says_" + c.says);
        lines.push(c.night + " " + T("night_n") + ": " + c.target + " — " + what);
      });
      face.textContent = lines.join("\n");
      $("card").className = "card " + (view.card.team === "mafia" ? "black" : "red");
    } else {
      $("card").className = "card";
      if (view.step && view.step.type === "card" && !view.step.seen) C.send({ do: "seen" });
    }
  }

  // what shows only while a finger is on it: a lit screen at night is read over a shoulder
  function bindHold(node, show) {
    var on = function (e) { e.preventDefault(); show(true); };
    var off = function (e) { e.preventDefault(); show(false); };
    if (window.PointerEvent) {
      node.addEventListener("pointerdown", on);
      node.addEventListener("pointerup", off);
      node.addEventListener("pointerleave", off);
      node.addEventListener("pointercancel", off);
    } else {  // older phones: touch, and the mouse
      node.addEventListener("touchstart", on);
      node.addEventListener("touchend", off);
      node.addEventListener("touchcancel", off);
      node.addEventListener("mousedown", on);
      node.addEventListener("mouseup", off);
      node.addEventListener("mouseleave", off);
    }
    node.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  }

  function bindCard() { bindHold($("card"), holdCard); }

  // a secret of the step (a check's answer, the act done, the partners' points, the number a
  // shot was taken on): "hold to see", like the card
  function secret(parts) {
    var b = el("button", "secret", null), hint = el("span", "hint", T("hold_secret"));
    var face = el("span", "face", null);
    b.type = "button";
    parts.forEach(function (p) { face.appendChild(p); });
    face.hidden = true;
    b.appendChild(hint);
    b.appendChild(face);
    bindHold(b, function (show) { face.hidden = !show; hint.hidden = show; });
    return b;
  }

  function grid(numbers, selected, onpick) {
    var g = el("div", "grid");
    numbers.forEach(function (n) {
      g.appendChild(C.button(String(n), n === selected ? "sel" : "", function () { onpick(n); }));
    });
    return g;
  }

  function renderStep() {
    var s = view.step, box = $("step");
    var phase = view.phase.time + view.phase.number + view.phase.step;
    if (phase !== actFor) { actFor = phase; actMode = null; }  // a new step: its usual act
    var key = JSON.stringify([s, actMode, view.gone, view.living]);
    if (key === stepKey) return;
    stepKey = key;
    box.innerHTML = "";
    countEl = null;
    floorEl = null;
    if (!s) {
      if (view.gone) box.appendChild(el("div", "question", T("gone")));
      return;
    }
    if (s.type === "card") {
      $("card-note").textContent = s.seen ? T("seen") : T("not_seen");
      return;
    }
    $("card-note").textContent = "";
    if (s.type === "hunt") {
      countEl = el("div", "count", "…");
      box.appendChild(countEl);
      box.appendChild(C.button(T("shoot"), "big", function () { C.send({ do: "shoot" }); }));
      if (s.pressed.length) box.appendChild(secret([el("div", "note", T("shot_on") + " " + s.pressed.join(", "))]));
    } else if (s.type === "check") {
      if (s.done) {
        var res = T("says_" + s.done.says);
        box.appendChild(secret([el("div", "question", T("seat") + " " + s.done.target),
                                el("div", "result", res)]));
      } else {
        box.appendChild(el("div", "question", T("check_who_" + s.role)));
        box.appendChild(grid(s.checkable, null, function (n) {
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
    } else if (s.type === "act") {
      renderAct(s, box);
    } else if (s.type === "floor") {
      if (s.spoken) box.appendChild(el("div", "note", T("spoke")));
      else {
        box.appendChild(C.button(T("raise_hand"), "big go", function () { C.send({ do: "floor" }); }));
        // the window is short (a few seconds): its countdown, big, under the button
        floorEl = el("div", "count small", "");
        box.appendChild(floorEl);
      }
    } else if (s.type === "put_up") {
      box.appendChild(el("div", "question", T("put_up_q") + " " + s.accused + "?"));
      if (s.given) box.appendChild(el("div", "result", T("thumb_given")));
      else box.appendChild(C.button(T("for_"), "big go", function () {
        C.send({ do: "thumb", target: s.accused });
      }));
    } else if (s.type === "extra") {
      if (s.raised) box.appendChild(el("div", "result", T("hand_raised")));
      else box.appendChild(C.button(T("extra_hand"), "big go", function () { C.send({ do: "extra" }); }));
    } else if (s.type === "speech") {
      box.appendChild(el("div", "question", T("your_speech")));
      if (s.accuse) {
        box.appendChild(el("div", "note", T("accuse")));
        box.appendChild(grid(s.accusable || view.living, s.accused, function (n) {
          C.send({ do: "accuse", target: n });
        }));
      }
      if (s.best_move) renderBestMove(s, box);
      if (s.on_record) renderOnRecord(s, box);
      if (s.nominate && s.nominable.length) {  // the seats the engine takes (none once one stands)
        box.appendChild(el("div", "note", T("nominate")));
        box.appendChild(grid(s.nominable, s.standing, function (n) {
          C.send({ do: "nominate", target: n });
        }));
      }
      if (s.nominate) {
        if (s.standing !== null && s.withdraws !== false) {  // (7.5.3: none to withdraw)
          box.appendChild(C.button(T("withdraw") + " " + s.standing, "", function () {
            C.send({ do: "withdraw", target: s.standing });
          }));
        }
      }
      box.appendChild(C.button(T("thanks"), "big go", function () { C.send({ do: "end" }); }));
    }
  }

  // the club's best move: the first victim picks three seats, then sends them
  var bestPicked = [];
  function renderBestMove(s, box) {
    bestPicked = bestPicked.filter(function (n) { return s.best_move.indexOf(n) >= 0; });
    box.appendChild(el("div", "note", T("best_move") + ": " + (bestPicked.join(", ") || "—")));
    var g = el("div", "grid");
    s.best_move.forEach(function (n) {
      var on = bestPicked.indexOf(n) >= 0;
      g.appendChild(C.button(String(n), on ? "sel" : "", function () {
        if (on) bestPicked.splice(bestPicked.indexOf(n), 1);
        else if (bestPicked.length < 3) bestPicked.push(n);
        stepKey = null; renderStep();
      }));
    });
    box.appendChild(g);
    if (bestPicked.length === 3) {
      box.appendChild(C.button(T("best_move_send"), "go", function () {
        C.send({ do: "best_move", seats: bestPicked.slice() });
        bestPicked = [];
      }));
    }
  }

  // the club's colours on record (6.7): a tap makes a seat red, a second black, a third clears
  // it; the engine refuses what the club's variant and count do not take
  var recordPicked = {};
  function renderOnRecord(s, box) {
    Object.keys(recordPicked).forEach(function (k) {
      if (s.on_record.indexOf(Number(k)) < 0) delete recordPicked[k];
    });
    box.appendChild(el("div", "note", T("on_record")));
    var g = el("div", "grid");
    s.on_record.forEach(function (n) {
      var c = recordPicked[n];
      var label = String(n) + (c === "red" ? " " + T("red") : c === "black" ? " " + T("black") : "");
      g.appendChild(C.button(label, c ? "sel" : "", function () {
        if (!c) recordPicked[n] = "red";
        else if (c === "red") recordPicked[n] = "black";
        else delete recordPicked[n];
        stepKey = null; renderStep();
      }));
    });
    box.appendChild(g);
    var seats = Object.keys(recordPicked).map(Number);
    if (seats.length) {
      box.appendChild(C.button(T("on_record_send"), "go", function () {
        C.send({ do: "on_record",
                 red: seats.filter(function (n) { return recordPicked[n] === "red"; }),
                 black: seats.filter(function (n) { return recordPicked[n] === "black"; }) });
        recordPicked = {};  // sent: the grid starts afresh (the step itself stays the same)
        stepKey = null; renderStep();
      }));
    }
  }

  function renderAct(s, box) {
    var mode = actMode && s.acts.indexOf(actMode) >= 0 ? actMode : s.acts[0];
    var d = s.done;
    var asked = s.role === "mafia" && !s.decides ? "_point" : s.together ? "_together" : "";
    box.appendChild(el("div", "question", T("act_" + s.role + asked)));
    if (s.victims) {  // the doctor's stretcher: his pad alone
      box.appendChild(el("div", "note", T("stretcher") + ": " + (s.victims.join(", ") || "—")));
    }
    if (d) {
      var what = d.act === "check" ? T("says_" + d.says)
               : d.act === "kill" ? T("done_kill")
               : d.saved === undefined || d.saved === d.target ? T("done_save") : T("crossed_arms");
      box.appendChild(secret([el("div", "question", T("seat") + " " + d.target),
                              el("div", "result", what)]));
      return;
    }
    if (s.points) {  // where the partners point (the mafia's pads alone)
      var shown = Object.keys(s.points).map(function (k) { return k + " → " + s.points[k]; });
      if (shown.length) box.appendChild(secret([el("div", "note", T("points") + ": " + shown.join(", "))]));
    }
    if (s.acts.length > 1) {  // the sheriff: a check or a shot
      var row = el("div", "row");
      s.acts.forEach(function (a) {
        row.appendChild(C.button(T("mode_" + a), a === mode ? "sel" : "", function () {
          actMode = a; renderStep();
        }));
      });
      box.appendChild(row);
    }
    // the seats this act may pick: the server's (the engine's wait), never a rule of the pad
    var seats = (s.targets && s.targets[mode]) || [];
    // (no number stays lit: where this pad points is among the points, behind the hold)
    box.appendChild(grid(seats, null, function (n) {
      C.send({ do: "act", act: mode, target: n });
    }));
  }

  function renderTable() {
    var t = $("table"), parts = [];
    if (view.winner) parts.push(W("winner", view.winner));
    parts.push(T("living") + ": " + view.living.join(" "));
    var outs = Object.keys(view.out).map(function (s) {
      return s + " (" + W("out", view.out[s]) + ")";
    });
    if (outs.length) parts.push(T("out_") + ": " + outs.join(", "));
    if (view.candidates.length) parts.push(T("candidates") + ": " + view.candidates.join(", "));
    if (view.accused) parts.push(T("accused") + ": " + view.accused);
    if (view.put_up) {
      parts.push(T("put_up") + ": " + Object.keys(view.put_up).map(function (k) {
        return k + " (" + view.put_up[k] + ")";
      }).join(", "));
    }
    if (view.declared && view.declared.maniac_side) parts.push(T("maniac_side_" + view.declared.maniac_side));
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
    if (floorEl) floorEl.textContent = C.timeLeft().toFixed(1);
    if (!countEl || !view || !view.step || view.step.type !== "hunt") return;
    // the number a press now counts for: the server sends when each begins (docs/console.md)
    var s = view.step, now = C.gameNow(), n = 0;
    while (n < s.numbers.length && s.numbers[n] <= now) n++;
    countEl.textContent = n === 0 ? "…" : String(n);
  };
  C.on.reply = function (r) {
    // a shot's number and a point stay on the pad behind the hold, never in the open
    if (r.ok && r.number) C.message(T("shot_taken"));
    else if (r.ok && r.agreed === false) C.message(T("point_taken"));
    else C.message(C.replyText(r), !r.ok);
  };
  bindCard();
  C.connect();
})();
