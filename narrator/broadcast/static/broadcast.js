// The stream's view: polls the delayed feed of its own server, draws the table, and tells
// the page (and OBS, when it runs in an OBS browser source) each scene change.
"use strict";

// the game's words are the server's one table (words.js, from narrator/words.py), in the
// language of the picture: the page keeps none of its own
let lang = "ru";
function W(group, code) {
  const g = (WORDS[lang] || WORDS.ru)[group] || {};
  return g[code] || String(code);
}
function phaseWords(code) {  // the phase's code ("d1", "n2") in words: «День 1», «Ночь 2»
  return W("time", code[0] === "n" ? "night" : "day") + " " + code.slice(1);
}
function headings() {  // the page's own headings, in the picture's language
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = W("head", node.dataset.w);
  document.title = W("head", "waiting");
}
// OBS scene names by default; each may be renamed: ?scene-night=Ночь&scene-vote=Голосование
const SCENE_NAMES = {night: "Night", day: "Day", vote: "Vote", over: "Game over",
  standings: "Standings"};
const POLL_MS = 300;

const params = new URLSearchParams(location.search);
let lastSeq = 0;
let clockAt = 0;        // the delayed clock's time at the last answer
let clockSeen = 0;      // performance.now() then
let picture = null;
let serial = 0;         // the picture drawn

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function sceneName(scene) {
  return params.get("scene-" + scene) || SCENE_NAMES[scene] || scene;
}

function enter(scene) {
  document.body.dataset.scene = scene;
  window.dispatchEvent(new CustomEvent("narrator-scene", {detail: {scene}}));
  const obs = window.obsstudio;
  if (obs && typeof obs.setCurrentScene === "function") obs.setCurrentScene(sceneName(scene));
}

function result(a) {
  return a.act === "check" ? (a.result ? " ✓" : " ✗") : "";
}

function actor(a) {
  return W("card", a.role).toLowerCase();
}

function marksOf(p, seat) {
  return p.night_acts.filter(a => a.target === seat)
    .map(a => `${phaseWords("n" + a.night)} ${actor(a)}${result(a)}`).join(" · ");
}

function drawSeat(p, s, i, n) {
  const angle = (2 * Math.PI * i) / n - Math.PI / 2;
  const box = el("div", "seat " + (s.black ? "black" : "red"));
  box.dataset.seat = s.seat;
  box.style.left = (650 + 540 * Math.cos(angle)) + "px";
  box.style.top = (450 + 360 * Math.sin(angle)) + "px";
  if (s.out) box.classList.add("out");
  if (p.speaker === s.seat) box.classList.add("speaker");
  if (p.voting === s.seat) box.classList.add("voting");
  box.append(el("div", "no", String(s.seat)), el("div", "name", s.name || "—"),
             el("div", "role", W("card", s.role)),
             el("div", "marks", s.out ? `× ${W("out", s.out)}` : marksOf(p, s.seat)));
  if (s.fouls) box.append(el("div", "fouls", "Ф".repeat(Math.min(s.fouls, 4))));
  return box;
}

function drawTable(p) {
  const ring = document.getElementById("ring");
  ring.replaceChildren(...p.seats.map((s, i) => drawSeat(p, s, i, p.seats.length)));
  document.getElementById("phase").textContent = phaseWords(p.phase);
  document.getElementById("label").textContent = p.label;
  document.getElementById("nominations").textContent =
    p.nominations.map(([by, who]) => `${who} (${W("head", "by")} ${by})`).join(", ") || "—";
  // each round as the protocol has it; the last candidate's count says its abstainers (2.4)
  const votes = p.votes.map(v => v.candidates.map((c, i) =>
    `${c}: ${v.votes[c]}` + (i === v.candidates.length - 1 && v.abstained
      ? ` (${v.votes[c] - v.abstained} ${W("head", "hands")} + ${v.abstained} ${W("head", "abstained")})` : "")).join(", "));
  // the round in progress: each candidate's own hands, never another's
  const live = p.voting === null ? [] : Object.keys(p.round_hands).map(c => {
    const hands = p.round_hands[c];
    const extra = Number(c) === p.voting && p.abstaining
      ? ` + ${p.abstaining} ${W("head", "abstained")}` : "";
    return `${W("head", "for_")} ${c}: ${hands.join(", ") || "—"}${extra}`;
  });
  if (live.length) votes.push(live.join("; "));
  const box = document.getElementById("votes");
  box.textContent = votes.join("\n") || "—";  // a line a round
  box.dataset.hands = JSON.stringify(p.round_hands);
  document.getElementById("acts").textContent = p.night_acts.slice(-8).map(a =>
    `${phaseWords("n" + a.night)} ${actor(a)}: ${W("act", a.act)} ${a.target ?? W("head", "miss")}${result(a)}`)
    .join("\n") || "—";
  document.getElementById("winner").textContent = p.winner ? W("winner", p.winner) : "";
}

function drawStandings(p) {
  const body = document.querySelector("#standings tbody");
  body.replaceChildren(...p.rows.map(r => {
    const tr = el("tr");
    tr.append(el("td", "num", String(r.place)), el("td", "", r.name),
              el("td", "num", String(r.games)), el("td", "num", String(r.wins)),
              el("td", "num", r.points.toFixed(2)));
    return tr;
  }));
}

function tickTimer() {
  const t = picture && picture.timer;
  const box = document.getElementById("timer");
  if (!t) { box.textContent = ""; return; }
  const now = clockAt + (performance.now() - clockSeen) / 1000;
  const left = Math.max(0, Math.min(t.ends - t.starts, t.ends - now));
  box.textContent = `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
  box.classList.toggle("low", left <= 10);
}

async function poll() {
  try {
    const answer = await fetch(`feed.json?after=${lastSeq}`, {cache: "no-store"});
    if (answer.ok) {
      const feed = await answer.json();
      clockAt = feed.now;
      clockSeen = performance.now();
      if (feed.picture && feed.serial !== serial) {
        picture = feed.picture;
        serial = feed.serial;
        if (picture.lang && picture.lang !== lang) { lang = picture.lang; headings(); }
        if (picture.scene === "standings") drawStandings(picture); else drawTable(picture);
      }
      // a page opened late enters the scene it is in, not every scene it missed
      const changes = lastSeq === 0 ? feed.scenes.slice(-1) : feed.scenes;
      for (const change of changes) {
        lastSeq = Math.max(lastSeq, change.seq);
        enter(change.scene);
      }
    }
  } catch (e) { /* the server went away for a moment: the next poll asks again */ }
  // (the answers read so far: a test knows the page has asked since the clock moved)
  document.body.dataset.polls = String(Number(document.body.dataset.polls || 0) + 1);
  setTimeout(poll, POLL_MS);
}

// the 1920x1080 picture scaled to the window (1 in OBS's source of that size)
function fit() {
  const scale = Math.min(window.innerWidth / 1920, window.innerHeight / 1080);
  document.getElementById("stage").style.transform = scale === 1 ? "" : `scale(${scale})`;
}
window.addEventListener("resize", fit);
fit();
headings();

setInterval(tickTimer, 200);
poll();
