// The tournament's pages: each polls its state (the page's path + "/state.json") every two
// seconds and draws it again. Text goes in as textContent only: nicknames come from the tables.
"use strict";

const PAGE = document.body.dataset.page;
const STATE = location.pathname.replace(/\/$/, "") + "/state.json";
const main = document.getElementById("main");
// the pages' own words; the game's (a scoring system's name) are the server's one table,
// /static/words.js (narrator/words.py)
const TEXTS = {
  ru: {tv: "Турнир · табло", player: "Турнир · игрок", director: "Турнир · директор",
       table: "Таблица", place: "Место", nick: "Игрок", games: "Игр", wins: "Побед",
       points: "Очки", next_seating: "Следующая рассадка", table_n: "Стол", round_n: "тур",
       all_played: "все туры сыграны", games_in: "Игры получены", never: "не было",
       s_ago: "с назад", min_ago: "мин назад", tables: "Столы", contact: "Связь",
       now: "Сейчас", console: "Пульт стола", join: "Ссылка стола", players: "Игроки",
       link: "Ссылка", round_big: "Тур", seat: "место", open_pad: "Открыть пульт",
       played_all: "Игры по плану сыграны", place_in: "Место в таблице", link_on: "связь",
       link_off: "нет связи"},
  uk: {tv: "Турнір · табло", player: "Турнір · гравець", director: "Турнір · директор",
       table: "Таблиця", place: "Місце", nick: "Гравець", games: "Ігор", wins: "Перемог",
       points: "Очки", next_seating: "Наступна розсадка", table_n: "Стіл", round_n: "тур",
       all_played: "усі тури зіграно", games_in: "Ігри отримано", never: "не було",
       s_ago: "с тому", min_ago: "хв тому", tables: "Столи", contact: "Зв'язок",
       now: "Зараз", console: "Пульт столу", join: "Посилання столу", players: "Гравці",
       link: "Посилання", round_big: "Тур", seat: "місце", open_pad: "Відкрити пульт",
       played_all: "Ігри за планом зіграно", place_in: "Місце в таблиці", link_on: "зв'язок",
       link_off: "немає зв'язку"}
};
let lang = "ru";
function T(key) { return (TEXTS[lang] || TEXTS.ru)[key] || key; }
function W(group, code) {
  const g = typeof WORDS === "undefined" ? null : (WORDS[lang] || WORDS.ru)[group];
  const at = String(code).split("@");  // a system at a version (fiim@3): its name, the version
  if (at.length === 2 && g && g[at[0]]) return `${g[at[0]]}, ${W("head", "version")} ${at[1]}`;
  return (g && g[code]) || String(code);
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function grid(head, rows, numeric) {
  const table = el("table", null, "t-grid");
  const tr = el("tr");
  head.forEach((h) => tr.appendChild(el("th", h)));
  table.appendChild(tr);
  rows.forEach((row) => {
    const line = el("tr");
    row.forEach((cell, i) => line.appendChild(el("td", cell, numeric.includes(i) ? "n" : "")));
    table.appendChild(line);
  });
  return table;
}

// as the evening's results: the first, second and last figures on a row, always in sight at
// any width; the rest of the line's figures on a second line under it that wraps — a table as
// wide as its box, never one that scrolls sideways. ``rows``: [[first, second, last], more]
function twoLines(head, rows, cls) {
  const table = el("table", null, `t-grid t-two ${cls}`);
  const tr = el("tr");
  head.forEach((h) => tr.appendChild(el("th", h)));
  table.appendChild(tr);
  rows.forEach(([main, more]) => {
    const line = el("tr", null, "main-line");
    line.append(el("td", main[0], "first"), el("td", main[1], "who"), el("td", main[2], "n total"));
    table.appendChild(line);
    if (more) {
      const under = el("tr", null, "more-line");
      const td = el("td", more, "more");
      td.colSpan = 2;
      under.append(el("td"), td);
      table.appendChild(under);
    }
  });
  return table;
}

function standings(state) {
  const box = el("section");
  box.appendChild(el("h2", T("table")));
  if (state.note) box.appendChild(el("div", state.note, "note"));
  if (PAGE === "tv") {  // the board: a screen wide enough for every figure on its row
    box.appendChild(grid([T("place"), T("nick"), T("games"), T("wins"), T("points")],
      state.standings.map((s) => [s.place, s.name, s.games, s.wins, s.points.toFixed(2)]),
      [0, 2, 3, 4]));
    return box;
  }
  box.appendChild(twoLines([T("place"), T("nick"), T("points")],
    state.standings.map((s) => [[s.place, s.name, s.points.toFixed(2)],
                                `${T("games")} ${s.games} · ${T("wins")} ${s.wins}`]),
    "t-standings"));
  return box;
}

function nextSeating(state) {
  const box = el("section");
  box.appendChild(el("h2", T("next_seating")));
  const tables = el("div", null, "t-tables");
  const now = Object.fromEntries((state.now || []).map((t) => [t.table, t]));
  state.next.forEach((t) => {
    const one = el("section");
    one.id = `table-${t.table}`;
    one.appendChild(el("strong", t.round ? `${T("table_n")} ${t.table} · ${T("round_n")} ${t.round}`
                                         : `${T("table_n")} ${t.table} · ${T("all_played")}`));
    if (now[t.table]) {  // where the table's game is: day or night, who is still in
      one.appendChild(el("div", now[t.table].phase, now[t.table].playing ? "t-now on" : "t-now"));
    }
    const list = el("ol");
    t.seats.forEach((name) => list.appendChild(el("li", name)));
    one.appendChild(list);
    tables.appendChild(one);
  });
  box.appendChild(tables);
  return box;
}

function gamesIn(state) {
  const box = el("section");
  box.appendChild(el("h2", T("games_in")));
  state.games.forEach((t) => {
    const line = el("div");
    line.appendChild(el("strong", `${T("table_n")} ${t.table}: `));
    t.rounds.forEach((r) => line.appendChild(el("span", ` ${r.round}${r.in ? "✓" : "·"}`,
                                                  r.in ? "t-in" : "t-out")));
    box.appendChild(line);
  });
  return box;
}

function agoText(seconds) {
  if (seconds === null) return T("never");
  if (seconds < 60) return `${seconds} ${T("s_ago")}`;
  return `${Math.floor(seconds / 60)} ${T("min_ago")}`;
}

function directorParts(state) {
  const box = el("section");
  box.appendChild(el("h2", T("tables")));
  const counts = Object.fromEntries(state.games.map((g) => [g.table, g.games]));
  // a table's number, where its game is and its games on the row; its contact, its console
  // and the link that joins it under them
  box.appendChild(twoLines([T("table_n"), T("now"), T("games")],
    state.tables.map((t) => [[t.table, t.phase, counts[t.table] || 0],
                             `${T("contact")}: ${agoText(t.ago)} · ${T("console")}: ` +
                             `${t.console || "—"} · ${T("join")}: ${t.join}`]),
    "t-tables-now"));
  box.appendChild(el("h2", T("players")));
  // each player's link with its QR code: a badge printed from this page opens his page
  const cards = el("div", null, "t-players");
  state.players.forEach((p) => {
    const card = el("figure", null, "t-player");
    const img = el("img");
    img.src = p.qr;
    img.alt = `QR: ${p.link}`;
    card.appendChild(img);
    const cap = el("figcaption");
    cap.append(el("strong", p.name),
               el("div", `MafiaRatings: ${p.mafiaratings === null ? "—" : p.mafiaratings}`, "note"),
               el("div", p.link, "t-link"));
    card.appendChild(cap);
    cards.appendChild(card);
  });
  box.appendChild(cards);
  return box;
}

function playerParts(state) {
  const box = el("section");
  box.appendChild(el("h2", state.player));
  if (state.next) {
    box.appendChild(el("div", `${T("round_big")} ${state.next.round}: ` +
                              `${T("table_n").toLowerCase()} ${state.next.table}, ` +
                              `${T("seat")} ${state.next.seat}`, "t-big"));
    if (state.next.pad) {  // his own pad at that table, once the table takes it
      const pad = el("a", `${T("open_pad")} · ${T("table_n").toLowerCase()} ${state.next.table}`,
                     "t-pad");
      pad.id = "pad";
      pad.href = state.next.pad;
      pad.rel = "noreferrer";
      box.appendChild(pad);
    }
  } else {
    box.appendChild(el("div", T("played_all"), "note"));
  }
  if (state.place) box.appendChild(el("div", `${T("place_in")}: ${state.place}`, "note"));
  return box;
}

function draw(state) {
  if (state.lang) { lang = state.lang; document.documentElement.lang = lang; }
  document.title = T(PAGE);
  document.getElementById("name").textContent = state.name;
  document.getElementById("system").textContent = state.system ? W("system", state.system) : "";
  main.replaceChildren();
  if (PAGE === "player") {
    main.append(playerParts(state), standings(state));
  } else if (PAGE === "director") {
    main.append(directorParts(state), gamesIn(state), standings(state), nextSeating(state));
  } else {  // the board: the standings beside the next round (one column on a phone)
    const side = el("div", null, "t-side");
    side.append(nextSeating(state), gamesIn(state));
    const board = el("div", null, "t-board");
    board.append(standings(state), side);
    main.append(board);
  }
}

async function poll() {
  const link = document.getElementById("link");
  try {
    const answer = await fetch(STATE, {cache: "no-store"});
    if (!answer.ok) throw new Error(String(answer.status));
    draw(await answer.json());
    link.className = "link";
    link.title = T("link_on");
  } catch (e) {
    link.className = "link off";
    link.title = T("link_off");
  }
  setTimeout(poll, 2000);
}

poll();
