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
    // the strongest first; the learned players move to where they stand once a network fits (offerLearned)
    for (const spec of LEARNED) select.append(option(spec, agentName(spec)));
    for (const level of Object.keys(LEVELS).reverse()) select.append(option("mcts:" + level, agentName("mcts:" + level)));
    select.append(option("greedy", agentName("greedy")), option("random", agentName("random")));
    if (i > 0) select.value = "mcts:medium";
    label.append(select);
    seats.append(label);
  }
  offerLearned();
}

const LEARNED = ["alpha", "net"];

// the network the game ships for the players and options now chosen, if any
function networkFits(game) {
  const players = Number($("players").value);
  return (game.networks || []).find(({ options: trained }) => trained.players === players && game.options.every((o) => {
    if (o.name === "players" || !(o.name in trained)) return true;
    const chosen = optionValue(o);
    if (chosen === undefined) return JSON.stringify(o.default) === JSON.stringify(trained[o.name]);
    if (o.kind === "subset") return JSON.stringify([...chosen].sort()) === JSON.stringify([...trained[o.name]].sort());
    return String(chosen) === String(trained[o.name]);
  }));
}

// the learned levels can be chosen only where a network was trained for the set-up, and are listed
// just above the strongest level each was measured to beat, or where it beat none, just below the
// weakest level it lost to (the levels are listed strongest first); one not measured yet stays on
// top and says so
function offerLearned() {
  const fits = networkFits(currentGame());
  for (const select of document.querySelectorAll("#seats select")) {
    const level = (value) => select.querySelector("option[value='" + value + "']");
    for (const spec of LEARNED) {
      const item = level(spec);
      item.disabled = !fits;
      item.title = fits ? "" : _("no trained network for these players and options");
      item.textContent = fits && !(spec in fits.beats)
        ? _("{name}: strength not measured yet", { name: agentName(spec) }) : agentName(spec);
      if (fits && spec in fits.beats) {
        const beaten = fits.beats[spec];
        select.insertBefore(item, beaten ? level(beaten) : level(fits.loses_to[spec]).nextSibling);
      }
    }
    if (select.selectedOptions[0].disabled) select.value = "mcts:expert";
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

// a card per game: its opening position (drawn by its renderer), a line on
// what it is, a quick game against the computer, and the full set-up below
function drawCards() {
  $("cards").replaceChildren(...catalogue.map((g) => {
    const card = document.createElement("article");
    card.className = "card";
    card.dataset.game = g.name;
    if (g.lang !== LANG) card.lang = g.lang;  // a plugin's words in its own language
    const picture = document.createElement("img");
    picture.src = "/pictures/" + g.name + ".svg?lang=" + LANG;
    picture.alt = _("{game}: the opening position", { game: g.title });
    const title = document.createElement("h3");
    title.textContent = g.title;
    const summary = document.createElement("p");
    summary.textContent = g.summary;
    const quick = document.createElement("button");
    quick.type = "button";
    quick.className = "quick";
    quick.textContent = _("Play the computer");
    quick.addEventListener("click", () => start({ game: g.name, players: ["human"].concat(
      Array(g.players[0] - 1).fill("mcts:medium")), options: {}, open_seats: [] }));
    const setup = document.createElement("button");
    setup.type = "button";
    setup.textContent = _("Choose players and options");
    setup.addEventListener("click", () => {
      $("game").value = g.name;
      drawGame();
      $("setup").scrollIntoView();
      $("game").focus();
    });
    card.append(picture, title, summary, quick, " ", setup);
    return card;
  }));
}

// who plays: a guest's name (an account's seats show its username)
function guestName() {
  const name = $("guest-name").value.trim();
  if (name) localStorage.setItem("tileworks-name", name);
  return name || null;
}

function clockChoice() {
  const kind = $("clock-kind").value;
  if (kind === "realtime") return { kind: kind, minutes: Number($("clock-minutes").value), increment: Number($("clock-increment").value) };
  if (kind === "turn") return { kind: kind, hours: Number($("clock-hours").value) };
  return null;
}

function drawClock() {
  const kind = $("clock-kind").value;
  for (const label of document.querySelectorAll("#create label.realtime")) label.hidden = kind !== "realtime";
  for (const label of document.querySelectorAll("#create label.turn")) label.hidden = kind !== "turn";
}

async function start(request) {
  request.name = guestName();
  const response = await fetch("/api/games", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) { $("error").textContent = body.error; return; }
  const mine = body.seats.map((s) => "token=" + encodeURIComponent(s.token)).join("&");
  location.href = "/play/" + body.id + (mine ? "#" + mine : "");
}

// open games to join, games being played to watch, finished games to replay
async function listGames() {
  for (const [status, id, path, none] of [
    ["open&joinable=true", "open-games", "/watch/", _("No game is waiting for players.")],
    ["playing", "live-games", "/watch/", _("No game is being played.")],
    ["finished", "finished-games", "/replay/", _("No game has finished yet.")],
  ]) {
    // open games: only those with a seat this visitor may take now
    const games = await (await fetch("/api/games?limit=20&status=" + status)).json();
    const list = $(id);
    if (!games.length) {
      const item = document.createElement("li");
      item.className = "none";
      item.textContent = none;
      list.replaceChildren(item);
      continue;
    }
    list.replaceChildren(...games.map((g) => gameItem(g, path)));
  }
}

function gameItem(g, path) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = path + g.id;
  const title = (catalogue.find((c) => c.name === g.game) || { title: g.game }).title;
  link.textContent = _("{game} — {players} (moves: {moves})", { game: title, players: listedPlayers(g), moves: g.moves });
  item.append(link);
  const marks = [];
  if (g.ended === "abandoned") marks.push(_("abandoned"));
  if (g.ended === "time") marks.push(_("ended when a clock ran out"));
  if (g.rated) marks.push(_("rated"));
  if (g.clock) marks.push(g.clock.kind === "turn" ? _("{hours} h a turn", { hours: g.clock.hours })
    : _("{minutes} min + {increment} s", { minutes: g.clock.minutes, increment: g.clock.increment }));
  if (marks.length) item.append(" (" + marks.join(", ") + ")");
  for (const seat of g.joinable) {
    const join = document.createElement("button");
    join.type = "button";
    join.textContent = _("join as {seat}", { seat: seatName(seat) });
    join.addEventListener("click", async () => {
      const response = await fetch("/api/games/" + g.id + "/seats/" + (seat + 1) + "/claim", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: guestName() }),
      });
      const body = await response.json();
      if (!response.ok) { $("error").textContent = body.error; listGames(); return; }
      location.href = body.link;
    });
    item.append(" ", join);
  }
  return item;
}

$("game").addEventListener("change", drawGame);
$("options").addEventListener("change", offerLearned);
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
  start({ game: game.name, players: players, options: options, open_seats: openSeats, rated: $("rated").checked,
    clock: clockChoice() });
});
$("clock-kind").addEventListener("change", drawClock);

(async () => {
  $("guest-name").value = localStorage.getItem("tileworks-name") || "";
  drawClock();
  // who plays is settled before the lobby offers a game (both requests are already under way)
  const username = await SESSION;
  $("guest").hidden = Boolean(username);  // an account plays under its username
  $("rated").disabled = !username;
  catalogue = await CATALOGUE;
  for (const g of catalogue) $("game").append(option(g.name, g.title));
  drawGame();
  drawCards();
  listGames();
})();
