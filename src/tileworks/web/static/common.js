// What every page shares. The page's language: translations arrive with
// the page (#strings, from the server's catalog), and _("text {name}",
// {name: value}) looks one up and fills in its fields, as the Python side
// does. Also agent names and the last move's marks on a picture.
"use strict";

const STRINGS = JSON.parse(document.getElementById("strings").textContent || "{}");
const LANG = document.documentElement.lang || "en";

function _(message, fields) {
  const text = STRINGS[message] || message;
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

// "A and B and C": names joined in the page's language (outside any other
// _(): Babel's extractor misses a _() within another one's arguments)
function joinNames(names) {
  return names.join(_(" and "));
}

const LEVELS = { beginner: _("beginner"), easy: _("easy"), medium: _("medium"), hard: _("hard"), expert: _("expert") };

// "mcts:hard" -> "computer (hard)"; other specs keep their name
function agentName(spec) {
  const [name, params] = spec.split(":");
  if (name === "mcts" && params in LEVELS) return _("computer ({level})", { level: LEVELS[params] });
  if (name === "greedy") return _("computer (greedy)");
  if (name === "net") return _("computer (trained network)");
  if (name === "alpha") return _("computer (trained network and search)");
  if (name === "random") return _("computer (random moves)");
  return _("computer ({spec})", { spec: spec });
}

// a phone's screen: the server draws the board laid out for it, with every
// piece a player clicks at least 44 px across (WCAG 2.5.5)
const NARROW = matchMedia("(max-width: 480px)");

function seatName(seat) {
  return "P" + (seat + 1);
}

// whether a shape of the picture is the one a click names (its data-* attributes)
function matches(element, click) {
  return Object.entries(click).every(([key, value]) => element.dataset[key] === value);
}

// outline the shapes the last move's clicks name (where it took and put)
function markLastMove(svg, entry) {
  for (const click of entry.clicks || []) {
    for (const element of svg.querySelectorAll("*")) {
      if (matches(element, click)) element.classList.add("last-move");
    }
  }
}

// "P1 +8 (3 + 3 + 2)": what a move scored, with its parts unless told not to
function scored(entry, withParts = true) {
  if (!entry.points || !entry.points.length) return "";
  return entry.points.map((p) => {
    const parts = withParts && p.parts.length > 1
      ? " (" + p.parts.map((x, i) => (i && x >= 0 ? "+ " + x : i ? "− " + -x : String(x))).join(" ") + ")" : "";
    return seatName(p.seat) + " " + (p.total >= 0 ? "+" : "−") + Math.abs(p.total) + parts;
  }).join(", ");
}

// one entry of the game log: the move in words (the game's own sentence in
// the page's language, or the seat and notation where the server gave none),
// its notation small beside it, and what it scored, announced line by line
function logItem(entry) {
  const item = document.createElement("li");
  const words = entry.words && (entry.words[LANG] || entry.words.en);
  const said = document.createElement("span");
  said.className = "said";
  said.textContent = words || seatName(entry.seat) + " " + entry.move;
  item.append(said);
  if (words) {
    const notation = document.createElement("span");
    notation.className = "notation";
    notation.setAttribute("translate", "no");
    notation.textContent = entry.move;
    item.append(" ", notation);
  }
  const scoring = entry.scoring && (entry.scoring[LANG] || entry.scoring.en);
  if (scoring && scoring.length) {
    const lines = document.createElement("div");  // (not a list: the log's items are its moves)
    lines.className = "scoring";
    lines.replaceChildren(...scoring.map((line) => {
      const row = document.createElement("div");
      row.textContent = line;
      return row;
    }));
    item.append(lines);
  }
  return item;
}

// a translated sentence as DOM nodes, its {move} kept apart as notation
// (translate="no"), so that no language rewrites a move
function sentence(template, fields, move) {
  const [before, after] = _(template, fields).split("{move}");
  const notation = document.createElement("span");
  notation.setAttribute("translate", "no");
  notation.textContent = move;
  return after === undefined ? [before] : [before, notation, after];
}

// a seat as people know it: "P1 Ada", "P1 Kim (guest)", "P2 computer (hard)", "P3 open seat"
function playerName(seat) {
  if (seat.player !== "human") return agentName(seat.player);
  if (seat.name) return seat.guest ? guestName(seat.name) : seat.name;
  return seat.joined ? _("human") : seat.open ? _("open seat") : _("waiting");
}

// a name a guest chose: marked, so that nobody takes it for an account's
function guestName(name) {
  return _("{name} (guest)", { name: name });
}

// the seats of a listed game (the lobby, a profile), as playerName names them
function listedPlayers(g) {
  return g.players.map((p, i) => (g.names[i] ? (g.guests[i] ? guestName(g.names[i]) : g.names[i])
    : p === "human" ? _("human") : agentName(p))).join(", ");
}

// the winners of a finished game: the seats placed first (none when abandoned)
function winnersOf(result) {
  return (result.ranks || []).map((r, i) => (r === 1 ? i : null)).filter((i) => i !== null);
}

// "4:05" for seconds under an hour, "2 h 05 min" above
function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 3600) return _("{h} h {m} min", { h: Math.floor(s / 3600), m: String(Math.floor(s / 60) % 60).padStart(2, "0") });
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

// who is logged in: the header's account link names them
const SESSION = fetch("/api/session").then((r) => r.json()).then((body) => body.username).catch(() => null);
SESSION.then((username) => {
  const me = document.getElementById("me");
  if (me && username) {
    me.textContent = username;
    me.setAttribute("translate", "no");  // a name, not words
    me.href = "/players/" + encodeURIComponent(username);
  }
});

// a table from a header row and rows of cells (strings or nodes)
function table(element, caption, head, rows) {
  const parts = [];
  if (caption) { const c = document.createElement("caption"); c.textContent = caption; parts.push(c); }
  const top = document.createElement("tr");
  for (const name of head) { const th = document.createElement("th"); th.scope = "col"; th.textContent = name; top.append(th); }
  const thead = document.createElement("thead");
  thead.append(top);
  const tbody = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const cell of row) { const td = document.createElement("td"); td.append(cell); tr.append(td); }
    tbody.append(tr);
  }
  element.replaceChildren(...parts, thead, tbody);
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

// the registered games, by name (titles in the page's language)
const CATALOGUE = fetch("/api/catalogue").then((r) => r.json());

// a rating after a game and its change: "3.1 (+1.6)"
function ratingChange(change) {
  const by = change.after - change.before;
  return change.after.toFixed(1) + " (" + (by > 0 ? "+" : by < 0 ? "−" : "±") + Math.abs(by).toFixed(1) + ")";
}

// the theme: as the system says, light or dark; the header's button steps
// through them and the browser remembers the choice
const THEMES = ["", "light", "dark"];
function drawTheme() {
  const button = document.getElementById("theme");
  if (!button) return;
  const theme = document.documentElement.dataset.theme || "";
  button.textContent = theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐";
  button.title = button.dataset[theme || "auto"];
  button.setAttribute("aria-label", button.title);
}
const themeButton = document.getElementById("theme");
if (themeButton) {
  themeButton.addEventListener("click", () => {
    const now = THEMES.indexOf(document.documentElement.dataset.theme || "");
    const next = THEMES[(now + 1) % THEMES.length];
    document.documentElement.dataset.theme = next;
    localStorage.setItem("tileworks-theme", next);
    applyScheme();  // (defined in the page's head)
    drawTheme();
  });
  drawTheme();
}
