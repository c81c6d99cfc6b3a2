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
    const best = Math.max(...result.returns);
    const winners = result.returns.map((r, i) => (r === best ? seatName(i) : null)).filter(Boolean);
    const scores = result.scores.map((s, i) => seatName(i) + " " + s).join(", ");
    line = winners.length > 1
      ? _("Game over: {seats} share the win. Scores: {scores}.", { seats: winners.join(_(" and ")), scores: scores })
      : _("Game over: {seat} wins. Scores: {scores}.", { seat: winners[0], scores: scores });
    drawSummary(result, winners);
    $("replay").href = "/replay/" + gameId;
    $("replay").hidden = false;
  } else if (current.you.includes(current.to_move)) {
    line = _("Your move ({seat}): {decision}", { seat: seatName(current.to_move), decision: view.decision });
  } else {
    line = view.decision;
  }
  $("status").textContent = line;
  const seats = current.seats.map((s) => seatName(s.seat) + " " + playerName(s));
  $("seats").textContent = seats.join(" · ");
  const list = $("moves");
  list.replaceChildren(...current.moves.map((m, i) => {
    const item = document.createElement("li");
    item.textContent = seatName(m.seat) + " " + m.move;
    if (i === current.moves.length - 1) { item.className = "last"; item.setAttribute("aria-current", "step"); }
    return item;
  }));
  const last = current.moves[current.moves.length - 1];
  $("last").replaceChildren(...(last ? sentence(_("Last move: {seat} {move}"), { seat: seatName(last.seat) }, last.move) : []));
  if (last && scored(last)) $("last").append(" — " + scored(last));
  list.scrollTop = list.scrollHeight;
  $("rematch").hidden = !(current.status === "finished" && current.you.length);
}

function draw() {
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
  if (svg && arriving) {  // another seat's move just came in: its shapes grow into place
    for (const shape of svg.querySelectorAll(".last-move")) shape.classList.add("arrive");
    arriving = false;
  }
  if (svg) {
    // an image's parts are hidden from screen readers; a group's buttons are not
    if (next.some((c) => !("button" in c))) svg.setAttribute("role", "group");
    for (const element of svg.querySelectorAll("*")) {
      const click = next.find((c) => !("button" in c) && matches(element, c));
      if (!click) continue;
      element.classList.add("target");
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "button");
      element.setAttribute("aria-label", clickLabel(click));
      const choose = (event) => {
        event.stopPropagation();
        picked.push(click);
        draw();
      };
      element.addEventListener("click", choose);
      element.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") choose(event);
      });
    }
    for (const click of picked) {
      for (const element of svg.querySelectorAll("*")) {
        if (!("button" in click) && matches(element, click)) element.classList.add("picked");
      }
    }
  }
  const labels = new Set();
  for (const click of next) {
    if ("button" in click && !labels.has(click.button)) {
      labels.add(click.button);
      const choose = button(click.button, () => { picked.push(click); draw(); });
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
  $("hint").textContent = current.choices.length ? _("Click a highlighted piece, or type a move.") : "";
  $("typed").disabled = !current.choices.length;
}

function button(label, action, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (title) b.title = title;
  b.addEventListener("click", action);
  return b;
}

function playerName(seat) {
  if (seat.player !== "human") return agentName(seat.player);
  return seat.joined ? _("human") : seat.open ? _("open seat") : _("waiting");
}

// a clickable shape's name for screen readers, from its data attributes
function clickLabel(click) {
  const names = { border: _("border cell"), kiln: _("kiln cell"), warehouse: _("warehouse"), cell: _("cell"),
    source: _("factory"), colour: _("colour"), seat: _("seat"), line: _("line"), row: _("row"), column: _("column"),
    tile: _("tile"), square: _("square"), sale: _("sale") };
  return Object.entries(click).map(([key, value]) => (names[key] || key) + " " + value).join(", ");
}

function drawSummary(result, winners) {
  const box = $("summary");
  const rows = result.scores.map((s, i) => {
    const row = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = seatName(i) + " " + playerName(current.seats[i]);
    const score = document.createElement("td");
    score.textContent = String(s);
    const outcome = document.createElement("td");
    outcome.textContent = winners.includes(seatName(i)) ? _("winner") : "";
    row.append(name, score, outcome);
    return row;
  });
  const table = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = _("Final scores");
  table.append(caption, ...rows);
  box.replaceChildren(table);
  box.hidden = false;
}

// how many moves the last view held (null before the first), and whether
// the view being drawn brings another seat's move, to animate it
let seenMoves = null;
let arriving = false;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(scheme + "://" + location.host + "/api/games/" + gameId + "/ws");
  socket.addEventListener("open", () => socket.send(JSON.stringify({ tokens: tokens, picture: true, lang: LANG })));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      const newest = message.moves[message.moves.length - 1];
      arriving = seenMoves !== null && message.moves.length > seenMoves && newest !== undefined
        && !message.you.includes(newest.seat);
      seenMoves = message.moves.length;
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
    if (event.code >= 4000) say(_("This link holds no seat in this game."));
    else setTimeout(connect, 1000);
  });
}

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

connect();
