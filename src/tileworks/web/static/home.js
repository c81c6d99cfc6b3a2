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
    label.textContent = "P" + (i + 1) + " ";
    const select = document.createElement("select");
    select.name = "seat" + i;
    select.append(option("human", "human (this screen)"), option("open", "human (open: anyone may join)"));
    for (const level of ["beginner", "easy", "medium", "hard", "expert"]) {
      select.append(option("mcts:" + level, "computer: " + level));
    }
    select.append(option("greedy", "computer: greedy"), option("random", "computer: random"));
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
    if (o.name === "players" || o.doc.startsWith("safeguard")) continue;
    const label = document.createElement("label");
    label.textContent = o.name + " ";
    const input = document.createElement("input");
    input.name = "option-" + o.name;
    input.value = Array.isArray(o.default) ? o.default.join(",") : String(o.default);
    input.title = o.allowed;
    const help = document.createElement("small");
    help.textContent = " " + o.doc + " (" + o.allowed + ")";
    label.append(input, help);
    options.append(label);
  }
  drawSeats();
}

async function listGames() {
  const games = await (await fetch("/api/games?limit=50")).json();
  const list = $("games");
  list.replaceChildren(...games.map((g) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = (g.status === "finished" ? "/replay/" : "/watch/") + g.id;
    link.textContent = g.game + " — " + g.players.join(", ") + " — " + g.status + " (ply " + g.ply + ")";
    item.append(link);
    for (const seat of g.joinable) {
      const join = document.createElement("button");
      join.type = "button";
      join.textContent = "join as P" + (seat + 1);
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
    const input = document.querySelector("[name=option-" + o.name + "]");
    if (input && input.value !== String(o.default)) options[o.name] = input.value;
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
