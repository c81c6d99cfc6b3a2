// The home page: start a game from the catalogue, and list the games.
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = [];

function option(value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label;
  return o;
}

function currentGame() {
  return catalogue.find((g) => g.name === $("game").value);
}

function drawSeats() {
  const game = currentGame();
  const count = Number($("players").value);
  const seats = $("seats");
  seats.replaceChildren();
  for (let i = 0; i < count; i++) {
    const label = document.createElement("label");
    label.textContent = seatName(i) + " ";
    const select = document.createElement("select");
    select.name = "seat" + i;
    select.append(option("human", _("human (this screen)")), option("open", _("human (open: anyone may join)")));
    for (const level of Object.keys(LEVELS)) select.append(option("mcts:" + level, agentName("mcts:" + level)));
    select.append(option("greedy", agentName("greedy")), option("random", agentName("random")));
    if (i > 0) select.value = "mcts:medium";
    label.append(select);
    seats.append(label);
  }
}

function drawGame() {
  const game = currentGame();
  $("summary").textContent = game.summary;
  const players = $("players");
  players.replaceChildren();
  for (let n = game.players[0]; n <= game.players[1]; n++) players.append(option(String(n), String(n)));
  const options = $("options");
  options.replaceChildren();
  for (const o of game.options) {
    if (o.name === "players" || o.safeguard) continue;
    options.append(optionField(o));
  }
  drawSeats();
}

// one form field per option, shaped by its kind, with its explanation
function optionField(o) {
  const box = document.createElement("div");
  box.className = "option";
  const help = document.createElement("small");
  help.id = "help-" + o.name;
  help.textContent = o.doc;
  if (o.kind === "subset") {
    const group = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = o.label;
    group.append(legend);
    group.setAttribute("aria-describedby", help.id);
    for (const c of o.choices) {
      const label = document.createElement("label");
      label.className = "inline";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.name = "option-" + o.name;
      box.value = String(c.value);
      box.checked = o.default.includes(c.value);
      label.append(box, " " + c.label);
      group.append(label);
    }
    group.append(help);
    box.append(group);
    return box;
  }
  const label = document.createElement("label");
  let input;
  if (o.kind === "choice") {
    input = document.createElement("select");
    for (const c of o.choices) input.append(option(c.value, c.label));
    input.value = o.default;
  } else if (o.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = o.default;
  } else {
    input = document.createElement("input");
    if (o.kind === "int") input.type = "number";
    input.value = String(o.default);
    input.title = o.allowed;
  }
  input.name = "option-" + o.name;
  input.setAttribute("aria-describedby", help.id);
  if (o.kind === "bool") label.append(input, " " + o.label);
  else label.append(o.label + " ", input);
  box.append(label, help);
  return box;
}

function optionValue(o) {
  const inputs = [...document.querySelectorAll("[name=option-" + o.name + "]")];
  if (!inputs.length) return undefined;
  if (o.kind === "subset") return inputs.filter((i) => i.checked).map((i) => Number(i.value));
  if (o.kind === "bool") return inputs[0].checked;
  return inputs[0].value;
}

async function listGames() {
  const games = await (await fetch("/api/games?limit=50")).json();
  const list = $("games");
  list.replaceChildren(...games.map((g) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = (g.status === "finished" ? "/replay/" : "/watch/") + g.id;
    const title = (catalogue.find((c) => c.name === g.game) || { title: g.game }).title;
    const status = { open: _("waiting for players"), playing: _("playing"), finished: _("finished") }[g.status] || g.status;
    link.textContent = _("{game} — {players} — {status} (ply {ply})", {
      game: title, players: g.players.map((p) => (p === "human" ? _("human") : agentName(p))).join(", "), status: status, ply: g.ply });
    item.append(link);
    for (const seat of g.joinable) {
      const join = document.createElement("button");
      join.type = "button";
      join.textContent = _("join as {seat}", { seat: seatName(seat) });
      join.addEventListener("click", async () => {
        const response = await fetch("/api/games/" + g.id + "/seats/" + (seat + 1) + "/claim", { method: "POST" });
        const body = await response.json();
        if (!response.ok) { $("error").textContent = body.error; listGames(); return; }
        location.href = body.link;
      });
      item.append(" ", join);
    }
    return item;
  }));
}

$("game").addEventListener("change", drawGame);
$("players").addEventListener("change", drawSeats);
$("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const game = currentGame();
  const options = {};
  for (const o of game.options) {
    const value = optionValue(o);
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(o.default)) options[o.name] = value;
  }
  const choices = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const players = choices.map((c) => (c === "open" ? "human" : c));
  const openSeats = choices.map((c, i) => (c === "open" ? i + 1 : 0)).filter(Boolean);
  const response = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: game.name, players: players, options: options, open_seats: openSeats }),
  });
  const body = await response.json();
  if (!response.ok) { $("error").textContent = body.error; return; }
  const mine = body.seats.map((s) => "token=" + encodeURIComponent(s.token)).join("&");
  location.href = "/play/" + body.id + (mine ? "#" + mine : "");
});

(async () => {
  catalogue = await (await fetch("/api/catalogue")).json();
  for (const g of catalogue) $("game").append(option(g.name, g.title));
  drawGame();
  listGames();
})();
