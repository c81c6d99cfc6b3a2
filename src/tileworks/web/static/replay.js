// The replay page: a finished game move by move, with a slider and the arrow keys.
"use strict";

const gameId = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
const cache = new Map();
let total = 0;

async function show(move) {
  move = Math.max(0, Math.min(total, move));
  $("slider").value = String(move);
  let data = cache.get(move);
  if (!data) {
    const response = await fetch("/api/games/" + gameId + "/replay?move=" + move + (NARROW.matches ? "&narrow=true" : ""));
    data = await response.json();
    if (!response.ok) { $("status").textContent = data.error; return; }
    cache.set(move, data);
  }
  total = data.moves.length;
  $("slider").max = String(total);
  $("board").innerHTML = data.svg;  // drawn by the server's renderer
  if (move > 0) markLastMove($("board").querySelector("svg"), data.moves[move - 1]);
  $("status").textContent = _("Move {move} of {total}: {decision}", { move: move, total: total, decision: data.decision });
  const last = data.moves[move - 1];
  $("last").textContent = last && scored(last) ? _("Move {move} scored: {points}", { move: move, points: scored(last, false) }) : "";
  $("moves").replaceChildren(...data.moves.map((m, i) => {
    const item = logItem(m);
    if (i === move - 1) { item.className = "last"; item.setAttribute("aria-current", "step"); }
    item.addEventListener("click", () => show(i + 1));
    return item;
  }));
  // the list follows the move shown (the start: its top)
  const shown = $("moves").querySelector(".last");
  if (shown) shown.scrollIntoView({ block: "nearest" }); else $("moves").scrollTop = 0;
}

NARROW.addEventListener("change", () => { cache.clear(); show(Number($("slider").value)); });
$("slider").addEventListener("input", () => show(Number($("slider").value)));
$("back").addEventListener("click", () => show(Number($("slider").value) - 1));
$("forward").addEventListener("click", () => show(Number($("slider").value) + 1));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") show(Number($("slider").value) - 1);
  if (event.key === "ArrowRight") show(Number($("slider").value) + 1);
  if (event.key === "Home") show(0);
  if (event.key === "End") show(total);
});
show(0).then(() => show(0));
