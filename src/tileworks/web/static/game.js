// The game page: one WebSocket, the server's SVG picture, and clicks that
// narrow the legal moves down to one. It knows no game: each legal move
// comes with the clicks that make it (State.choices), and each click names
// the data-* attributes of a shape in the picture, or is a button.
"use strict";

const gameId = location.pathname.split("/").pop();
const stored = "tileworks-seats-" + gameId;
let tokens = new URLSearchParams(location.hash.slice(1)).getAll("token");
if (tokens.length) {
  sessionStorage.setItem(stored, JSON.stringify(tokens));
  history.replaceState(null, "", location.pathname);  // the secret leaves the address bar
} else {
  tokens = JSON.parse(sessionStorage.getItem(stored) || "[]");
}

const $ = (id) => document.getElementById(id);
let socket = null;
let current = null;
let picked = [];

function sameClick(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function candidates() {
  return current.choices.filter((choice) =>
    picked.every((click, i) => choice.clicks[i] && sameClick(choice.clicks[i], click)));
}

// the clicks that could come at step ``level`` of a move, keeping the steps before it
function clicksAt(level) {
  return current.choices
    .filter((c) => c.clicks.length > level && picked.slice(0, level).every((click, i) => sameClick(c.clicks[i], click)))
    .map((c) => c.clicks[level]);
}

// make a shape of the picture clickable, for screen readers and keyboards
// too; ``kind``: a "target" of the next step, the "picked" shape of an earlier
// step, or an "alternative" to it
function clickable(element, label, action, kind = "target") {
  // what the shape shows (a tile's value and sign) is read out first, so
  // that a voice user can say what they see
  const shown = element.textContent.replace(/\s+/g, "");
  if (shown && !label.includes(shown)) label = shown + ", " + label;
  element.classList.add(kind);
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", label);
  const choose = (event) => {
    event.stopPropagation();
    action();
    draw();
  };
  element.addEventListener("click", choose);
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") choose(event);
  });
}

function send(move) {
  socket.send(JSON.stringify({ move: move, ply: current.ply }));
  picked = [];
  $("hint").textContent = "…";
}

function say(text) {
  $("message").textContent = text;
}



function drawStatus() {
  const view = current.view;
  let line;
  if (current.status === "finished") {
    const result = current.result;
    const winners = winnersOf(result).map(seatName);
    const scores = result.scores.map((s, i) => seatName(i) + " " + s).join(", ");
    if (result.ended === "abandoned") line = _("Game over: abandoned, nobody moved for too long.");
    else line = winners.length > 1
      ? _("Game over: {seats} share the win. Scores: {scores}.", { seats: joinNames(winners), scores: scores })
      : _("Game over: {seat} wins. Scores: {scores}.", { seat: winners[0], scores: scores });
    drawResults(result);
    $("replay").href = "/replay/" + gameId;
    $("replay").hidden = false;
  } else if (current.you.includes(current.to_move)) {
    line = _("Your move ({seat}): {decision}", { seat: seatName(current.to_move), decision: view.decision });
  } else {
    line = view.decision;
  }
  $("status").textContent = line;
  signalTurn(current.status !== "finished" && current.you.includes(current.to_move));
  drawPlayers();
  const list = $("moves");
  list.replaceChildren(...current.moves.map((m, i) => {
    const item = logItem(m);
    if (m.timed_out) {  // the clock ran out: the server's stand-in made this move
      const flag = document.createElement("span");
      flag.className = "timed-out";
      flag.textContent = " ⏱";
      flag.title = _("time ran out: the computer (greedy) moved");
      item.append(flag);
    }
    if (i === current.moves.length - 1) { item.className = "last"; item.setAttribute("aria-current", "step"); }
    return item;
  }));
  const last = current.moves[current.moves.length - 1];
  const lastWords = last && last.words && (last.words[LANG] || last.words.en);
  // the words come in the page's language already, and may hold notation: no browser translates them
  $("last").replaceChildren(...(!last ? [] : lastWords ? sentence(_("Last move: {words}").replace("{words}", "{move}"), {}, lastWords)
    : sentence(_("Last move: {seat} {move}"), { seat: seatName(last.seat) }, last.move)));
  if (last && scored(last)) $("last").append(" — " + scored(last));
  list.scrollTop = list.scrollHeight;
  $("rematch").hidden = !(current.status === "finished" && current.you.length);
}

// where the shapes named by the first click of ``entry`` are on the screen
// now (the tiles a move takes), as one point, or null where the picture
// shows none of them (another seat's hand)
function sourceOf(entry) {
  const svg = $("board").querySelector("svg");
  const first = entry && entry.clicks && entry.clicks[0];
  if (!svg || !first) return null;
  const boxes = [...svg.querySelectorAll("*")].filter((e) => matches(e, first)).map((e) => e.getBoundingClientRect());
  if (!boxes.length) return null;
  const left = Math.min(...boxes.map((b) => b.left)), right = Math.max(...boxes.map((b) => b.right));
  const top = Math.min(...boxes.map((b) => b.top)), bottom = Math.max(...boxes.map((b) => b.bottom));
  return { x: (left + right) / 2, y: (top + bottom) / 2 };
}

// another seat's move just came in: the shapes its last click names travel
// from where its first click's shapes were (Azul's tiles from the factory
// to the line) or, with nothing to travel from, grow into place; 300 ms,
// and nothing moves for a reader who asked for reduced motion
function animateArrival(svg, entry, from) {
  const landing = entry.clicks.length ? [...svg.querySelectorAll("*")].filter((e) => matches(e, entry.clicks[entry.clicks.length - 1])) : [];
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const scale = svg.getScreenCTM() ? svg.getScreenCTM().a : 1;
  for (const shape of svg.querySelectorAll(".last-move")) {
    if (!from || still || !landing.includes(shape) || entry.clicks.length < 2) {
      shape.classList.add("arrive");
      continue;
    }
    const box = shape.getBoundingClientRect();
    const dx = (from.x - (box.left + box.right) / 2) / scale, dy = (from.y - (box.top + box.bottom) / 2) / scale;
    shape.classList.add("travel");
    shape.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.6 }, { transform: "none", opacity: 1 }],
      { duration: 300, easing: "ease-out" });
  }
}

// on a phone every piece to click is at least 44 px across: where a
// picture is too wide for that (a large Tiles layout), it is drawn larger
// and the board scrolls sideways, the first piece to click in view
const FINGER = 44;  // WCAG 2.5.5's target size

function fitTargets(svg) {
  const shapes = [...svg.querySelectorAll(".target, .alternative, .picked")];
  svg.style.width = "";
  if (!NARROW.matches || !shapes.length) return;
  const smallest = Math.min(...shapes.map((e) => { const b = e.getBBox(); return Math.min(b.width, b.height); }));
  const box = svg.viewBox.baseVal;
  const needed = (FINGER + 0.5) / smallest;
  if (svg.getBoundingClientRect().width / box.width >= needed) return;
  svg.style.width = Math.ceil(box.width * needed) + "px";
  svg.style.maxWidth = "none";
  shapes[0].scrollIntoView({ block: "nearest", inline: "center" });
}

function draw() {
  const newest = current.moves[current.moves.length - 1];
  const from = arriving ? sourceOf(newest) : null;
  $("board").innerHTML = current.svg;  // drawn by the server's renderer, text escaped there
  drawStatus();
  const buttons = $("buttons");
  buttons.replaceChildren();
  const options = candidates();
  const done = options.filter((c) => c.clicks.length === picked.length);
  if (picked.length && options.length === 1) {
    send(options[0].move);
    return;
  }
  if (picked.length && done.length === 1 && options.length === 1) {
    send(done[0].move);
    return;
  }
  const next = options.filter((c) => c.clicks.length > picked.length).map((c) => c.clicks[picked.length]);
  const svg = $("board").querySelector("svg");
  const last = current.moves[current.moves.length - 1];
  if (svg && last) markLastMove(svg, last);
  if (svg && arriving) {
    animateArrival(svg, last, from);
    arriving = false;
  }
  if (svg) {
    // an image's parts are hidden from screen readers; a group's buttons are not
    if (next.some((c) => !("button" in c))) svg.setAttribute("role", "group");
    // a step already chosen can be changed before the last click: another
    // shape of that step replaces it (and the steps after it), and the
    // chosen shape itself takes the move back to that step
    const earlier = picked.map((_, level) => clicksAt(level).filter((c) => !("button" in c)));
    for (const element of svg.querySelectorAll("*")) {
      const click = next.find((c) => !("button" in c) && matches(element, c));
      if (click) {
        clickable(element, clickLabel(click), () => picked.push(click));
        previewOn(element, completedBy(click));
        continue;
      }
      for (let level = picked.length - 1; level >= 0; level--) {
        const other = earlier[level].find((c) => matches(element, c));
        if (!other) continue;
        if (sameClick(other, picked[level])) {
          clickable(element, _("{choice} (chosen: click to choose again)", { choice: clickLabel(other) }),
            () => { picked = picked.slice(0, level); }, "picked");
        } else {
          clickable(element, clickLabel(other), () => { picked = picked.slice(0, level).concat([other]); }, "alternative");
        }
        break;
      }
    }
  }
  if (svg) fitTargets(svg);
  const labels = new Set();
  for (const click of next) {
    if ("button" in click && !labels.has(click.button)) {
      labels.add(click.button);
      const choose = button(click.button, () => { picked.push(click); draw(); });
      previewOn(choose, completedBy(click));
      if (!/\s/.test(click.button)) {  // one word: notation (a Tiles orientation, N E S W), not a sentence
        choose.setAttribute("translate", "no");
        choose.title = _("orientation {tile}", { tile: click.button });
      }
      buttons.append(choose);
    }
  }
  if (!picked.length) {
    for (const choice of current.choices) {
      if (!choice.clicks.length) buttons.append(button(choice.label, () => send(choice.move), choice.move));
    }
  } else {
    const cancel = button(_("cancel"), () => { picked = []; draw(); });
    cancel.className = "cancel";
    buttons.append(cancel);
  }
  // what is chosen so far: each step names pieces in notation (translate="no")
  const steps = picked.map((c) => {
    const step = document.createElement("span");
    step.textContent = "button" in c ? c.button : clickLabel(c);
    step.setAttribute("translate", "no");
    return step;
  });
  const [before, after] = _("Chosen so far: {steps}. Click a chosen piece to change it.").split("{steps}");
  $("chosen").replaceChildren(...(picked.length
    ? [before, ...steps.flatMap((step, i) => (i ? [" → ", step] : [step])), after] : []));
  $("hint").textContent = current.choices.length ? _("Click a highlighted piece, or type a move.") : "";
  $("typed").disabled = !current.choices.length;
}

// a preview: pointing at (or focusing) the piece or button that would
// complete a move shows what the move would change on the board, drawn by
// the server from the position after it (the new shapes, laid over the
// picture and not clickable), before the click makes it
const previews = new Map();  // "ply move narrow" -> the overlay's SVG (null: nothing to show)
let previewing = null;

// the one move that ``click``, as the next step, would complete (null: none yet)
function completedBy(click) {
  const level = picked.length;
  const moves = candidates().filter((c) => c.clicks.length > level && sameClick(c.clicks[level], click));
  return moves.length === 1 ? moves[0].move : null;
}

function previewOn(element, move) {
  if (!move) return;
  const show = () => { previewing = move; showPreview(move); };
  const hide = () => { previewing = null; hidePreview(); };
  element.addEventListener("pointerenter", show);
  element.addEventListener("focus", show);
  element.addEventListener("pointerleave", hide);
  element.addEventListener("blur", hide);
}

async function showPreview(move) {
  const key = current.ply + " " + move + " " + NARROW.matches;
  if (!previews.has(key)) {
    const query = "move=" + encodeURIComponent(move) + "&ply=" + current.ply + (NARROW.matches ? "&narrow=true" : "");
    const response = await fetch("/api/games/" + gameId + "/preview?" + query, { headers: { "X-Seat-Token": tokens.join(",") } });
    previews.set(key, response.ok ? (await response.json()).svg : null);
  }
  const overlay = previews.get(key);
  const svg = $("board").querySelector("svg");
  hidePreview();
  if (!overlay || !svg || previewing !== move) return;
  const parsed = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + overlay + "</svg>", "image/svg+xml");
  svg.append(document.importNode(parsed.documentElement.firstElementChild, true));
}

function hidePreview() {
  for (const group of document.querySelectorAll("#board svg g.preview")) group.remove();
}

// your turn, told beyond the page: the tab's title and icon change, and a
// sound or a notification (each off until the player turns it on; the
// browser asks for notifications only on that click) when the turn arrives
const TITLE = document.title;
let yourTurn = null;  // null: before the first view

function icon(colour, dot) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="3" width="26" height="26" rx="5" fill="${colour}"/>`
    + (dot ? '<circle cx="25" cy="7" r="6" fill="#d62d20" stroke="#fff" stroke-width="2"/>' : "") + "</svg>";
  return "data:image/svg+xml," + encodeURIComponent(svg);
}

function signalTurn(mine) {
  document.title = mine ? _("● Your move — {title}", { title: TITLE }) : TITLE;
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.append(link); }
  link.href = icon(mine ? "#e67e00" : "#8a7a5c", mine);
  link.dataset.turn = mine ? "yours" : "";
  const arrived = mine && yourTurn === false;
  yourTurn = mine;
  if (!arrived) return;
  if ($("sound").checked) chime();
  if ($("notify").checked && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(_("Your move"), { body: current.view.decision, tag: "tileworks-" + gameId });
  }
}

// two short notes, made by the browser: no sound file to load
function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  [660, 880].forEach((pitch, i) => {
    const note = audio.createOscillator(), volume = audio.createGain();
    note.frequency.value = pitch;
    volume.gain.setValueAtTime(0.15, audio.currentTime + i * 0.15);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.15 + 0.14);
    note.connect(volume).connect(audio.destination);
    note.start(audio.currentTime + i * 0.15);
    note.stop(audio.currentTime + i * 0.15 + 0.15);
  });
  window.chimed = (window.chimed || 0) + 1;  // (counted, for the browser tests)
}

for (const [id, key] of [["sound", "tileworks-sound"], ["notify", "tileworks-notify"]]) {
  $(id).checked = localStorage.getItem(key) === "on";
  $(id).addEventListener("change", async () => {
    if (id === "notify" && $(id).checked && "Notification" in window && Notification.permission !== "granted") {
      $(id).checked = (await Notification.requestPermission()) === "granted";
    }
    localStorage.setItem(key, $(id).checked ? "on" : "off");
  });
}

// a click on the board that is not on a piece to choose: the board shakes
// (unless motion is reduced) and says what to click instead
$("board").addEventListener("click", (event) => {
  if (!current || !current.choices.length || event.target.closest(".target, .alternative, .picked")) return;
  if (!event.target.closest("svg")) return;
  const pieces = event.currentTarget.querySelector("svg .target");
  say(pieces ? _("That cannot be chosen now: click a highlighted piece.") : _("Choose with the buttons beside the board."));
  const board = $("board");
  board.classList.remove("shake");
  void board.offsetWidth;  // (restarts the animation)
  board.classList.add("shake");
});
$("board").addEventListener("animationend", (event) => {
  if (event.animationName === "shake") $("board").classList.remove("shake");
});

function button(label, action, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (title) b.title = title;
  b.addEventListener("click", action);
  return b;
}


// a clickable shape's name for screen readers, from its data attributes,
// in the words its game gives them (the catalogue's click_words)
let catalogue = [];
CATALOGUE.then((games) => { catalogue = games; if (current) draw(); });

function clickLabel(click) {
  const words = (catalogue.find((g) => g.name === current.game) || {}).click_words || {};
  return Object.entries(click).map(([key, value]) => (words[key] || key) + " " + value).join(", ");
}

// the players, whose turn it is, and each one's clock
function drawPlayers() {
  const clock = current.clock;
  $("players").replaceChildren(...current.seats.map((s) => {
    const item = document.createElement("li");
    item.className = "player";
    if (s.seat === current.to_move) { item.classList.add("to-move"); item.setAttribute("aria-current", "true"); }
    if (current.you.includes(s.seat)) item.classList.add("you");
    const name = document.createElement("span");
    name.textContent = seatName(s.seat) + " " + playerName(s) + (current.you.includes(s.seat) ? " " + _("(you)") : "");
    item.append(name);
    if (clock && (clock.remaining[s.seat] !== null || clock.running === s.seat)) {
      const time = document.createElement("span");
      time.className = "clock";
      time.dataset.seat = String(s.seat);
      time.setAttribute("role", "timer");
      item.append(" ", time);
    }
    return item;
  }));
  if (current.rated) {
    const badge = document.createElement("li");
    badge.className = "rated";
    badge.textContent = _("rated game");
    $("players").append(badge);
  }
  tick();
}

// the clocks count down between views, from the server's deadline (its
// time corrected by the difference between the two machines' clocks)
let skew = 0;
function tick() {
  const clock = current && current.clock;
  if (!clock) return;
  const now = Date.now() / 1000 - skew;
  for (const element of document.querySelectorAll("#players .clock")) {
    const seat = Number(element.dataset.seat);
    let left = clock.remaining[seat];
    if (clock.running === seat && clock.deadline !== null) left = clock.deadline - now;
    element.textContent = left === null ? "" : clockText(left);
    element.classList.toggle("running", clock.running === seat);
    element.classList.toggle("low", clock.running === seat && left !== null && left < 30);
  }
}
setInterval(tick, 250);

// the results: the winner, each seat's score as the game makes it (a row per
// kind of part, a column per seat: narrow enough for the side panel), the
// places (a seat out of time is last, whatever it scored), rating changes
function drawResults(result) {
  const breakdown = current.breakdown || { kinds: [], seats: [] };
  const kinds = breakdown.kinds.filter(([kind]) => breakdown.seats.some((s) => kind in s));
  const rated = result.ratings && result.ratings.some((r) => r);
  const seats = result.scores.map((_, i) => i);
  const rows = kinds.map(([kind, label]) => [label].concat(seats.map((i) => String(breakdown.seats[i][kind] || 0))));
  rows.push([_("Score")].concat(result.scores.map(String)));
  const late = new Set(result.out_of_time || []);
  if (result.ranks) {
    rows.push([_("Place")].concat(seats.map((i) => (late.has(i) ? _("{place} (out of time)", { place: result.ranks[i] })
      : String(result.ranks[i])))));
  }
  if (rated) {
    rows.push([_("Rating")].concat(seats.map((i) => {
      return result.ratings[i] ? ratingChange(result.ratings[i]) : "";
    })));
  }
  const box = document.createElement("table");
  const head = document.createElement("tr");
  head.append(document.createElement("td"));
  for (const i of seats) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = seatName(i) + " " + playerName(current.seats[i]);
    if (result.ranks && result.ranks[i] === 1) { th.className = "winner"; th.title = _("winner"); th.append(" ★"); }
    head.append(th);
  }
  const caption = document.createElement("caption");
  caption.textContent = _("Final scores");
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row[0];
    tr.append(th);
    for (const cell of row.slice(1)) { const td = document.createElement("td"); td.textContent = cell; tr.append(td); }
    if (row[0] === _("Score")) tr.className = "total";
    body.append(tr);
  }
  const thead = document.createElement("thead");
  thead.append(head);
  box.append(caption, thead, body);
  $("summary").replaceChildren(box);
  $("summary").hidden = false;
  const names = winnersOf(result).map((i) => seatName(i) + " " + playerName(current.seats[i]));
  const told = [];
  if (late.size) {
    told.push(_("Out of time, and so placed last: {seats}.", { seats: joinNames([...late].map(seatName)) }));
  }
  if (result.ended === "abandoned") told.push(_("Nobody moved for too long: the game was abandoned, and nobody won."));
  else told.push(names.length > 1 ? _("{seats} share the win.", { seats: joinNames(names) })
    : _("{seat} wins.", { seat: names[0] }));
  const made = (result.timeouts || []).length;
  if (made) told.push(_("{count} moves were made by the computer when a clock ran out.", { count: made }));
  $("winner").textContent = told.join(" ");
  $("results").hidden = false;
}

// how many moves the last view held (null before the first), and whether
// the view being drawn brings another seat's move, to animate it
let seenMoves = null;
let arriving = false;

// the connection to the server: while it is down, a banner says so and the
// page tries again, waiting longer each time (up to 10 s); the first view
// after it returns brings the page up to date
let retryIn = 1000;
let replacing = false;  // closed on purpose, to connect again at once

function offline(down) {
  $("offline").hidden = !down;
  document.body.classList.toggle("offline", down);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(scheme + "://" + location.host + "/api/games/" + gameId + "/ws");
  socket.addEventListener("open", () => socket.send(JSON.stringify(
    { tokens: tokens, picture: true, narrow: NARROW.matches, lang: LANG })));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      offline(false);
      retryIn = 1000;
      const newest = message.moves[message.moves.length - 1];
      arriving = seenMoves !== null && message.moves.length > seenMoves && newest !== undefined
        && !message.you.includes(newest.seat);
      seenMoves = message.moves.length;
      if (message.clock) skew = Date.now() / 1000 - message.clock.now;
      current = message;
      picked = [];
      say("");
      draw();
    } else {
      say(message.error);
      if (current) draw();
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code >= 4000) { say(_("This link holds no seat in this game.")); return; }
    if (replacing) { replacing = false; connect(); return; }
    offline(true);
    setTimeout(connect, retryIn);
    retryIn = Math.min(10000, retryIn * 2);
  });
}

// turned from a phone's width to a wider one (or back): the picture's layout follows
NARROW.addEventListener("change", () => { if (socket) { replacing = true; socket.close(); } });

$("type-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("typed").value.trim();
  if (text && current) send(text);
  $("typed").value = "";
});

$("rematch").addEventListener("click", async () => {
  const response = await fetch("/api/games/" + gameId + "/rematch", {
    method: "POST", headers: { "X-Seat-Token": tokens.join(",") },
  });
  const body = await response.json();
  if (!response.ok) { say(body.error); return; }
  location.href = "/play/" + body.id + "#" + body.seats.map((s) => "token=" + encodeURIComponent(s.token)).join("&");
});

// on a phone the game log is a drawer, closed until opened (the board and
// the status come first); on a wider screen it stays open beside the board
$("log").open = !NARROW.matches;

connect();
