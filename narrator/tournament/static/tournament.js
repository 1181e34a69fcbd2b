// The tournament's pages: each polls its state (the page's path + "/state.json") every two
// seconds and draws it again. Text goes in as textContent only: nicknames come from the tables.
"use strict";

const PAGE = document.body.dataset.page;
const STATE = location.pathname.replace(/\/$/, "") + "/state.json";
const main = document.getElementById("main");

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

function standings(state) {
  const box = el("section");
  box.appendChild(el("h2", "Таблица"));
  if (state.note) box.appendChild(el("div", state.note, "note"));
  box.appendChild(grid(["Место", "Игрок", "Игр", "Побед", "Очки"],
    state.standings.map((s) => [s.place, s.name, s.games, s.wins, s.points.toFixed(2)]),
    [0, 2, 3, 4]));
  return box;
}

function nextSeating(state) {
  const box = el("section");
  box.appendChild(el("h2", "Следующая рассадка"));
  const tables = el("div", null, "t-tables");
  const now = Object.fromEntries((state.now || []).map((t) => [t.table, t]));
  state.next.forEach((t) => {
    const one = el("section");
    one.id = `table-${t.table}`;
    one.appendChild(el("strong", t.round ? `Стол ${t.table} · тур ${t.round}`
                                         : `Стол ${t.table} · все туры сыграны`));
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
  box.appendChild(el("h2", "Игры получены"));
  state.games.forEach((t) => {
    const line = el("div");
    line.appendChild(el("strong", `Стол ${t.table}: `));
    t.rounds.forEach((r) => line.appendChild(el("span", ` ${r.round}${r.in ? "✓" : "·"}`,
                                                  r.in ? "t-in" : "t-out")));
    box.appendChild(line);
  });
  return box;
}

function agoText(seconds) {
  if (seconds === null) return "не было";
  if (seconds < 60) return `${seconds} с назад`;
  return `${Math.floor(seconds / 60)} мин назад`;
}

function directorParts(state) {
  const box = el("section");
  box.appendChild(el("h2", "Столы"));
  const counts = Object.fromEntries(state.games.map((g) => [g.table, g.games]));
  box.appendChild(grid(["Стол", "Связь", "Сейчас", "Игр", "Пульт стола", "Ссылка стола"],
    state.tables.map((t) => [t.table, agoText(t.ago), t.phase, counts[t.table] || 0,
                             t.console || "—", t.join]), [0, 3]));
  box.appendChild(el("h2", "Игроки"));
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
    box.appendChild(el("div", `Тур ${state.next.round}: стол ${state.next.table}, ` +
                              `место ${state.next.seat}`, "t-big"));
    if (state.next.pad) {  // his own pad at that table, once the table takes it
      const pad = el("a", `Открыть пульт · стол ${state.next.table}`, "t-pad");
      pad.id = "pad";
      pad.href = state.next.pad;
      pad.rel = "noreferrer";
      box.appendChild(pad);
    }
  } else {
    box.appendChild(el("div", "Игры по плану сыграны", "note"));
  }
  if (state.place) box.appendChild(el("div", `Место в таблице: ${state.place}`, "note"));
  return box;
}

function draw(state) {
  document.getElementById("name").textContent = state.name;
  document.getElementById("system").textContent = state.system || "";
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
  } catch (e) {
    link.className = "link off";
  }
  setTimeout(poll, 2000);
}

poll();
