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

const LEVELS = { beginner: _("beginner"), easy: _("easy"), medium: _("medium"), hard: _("hard"), expert: _("expert") };

// "mcts:hard" -> "computer (hard)"; other specs keep their name
function agentName(spec) {
  const [name, params] = spec.split(":");
  if (name === "mcts" && params in LEVELS) return _("computer ({level})", { level: LEVELS[params] });
  if (name === "greedy") return _("computer (greedy)");
  if (name === "random") return _("computer (random moves)");
  return _("computer ({spec})", { spec: spec });
}

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

// a translated sentence as DOM nodes, its {move} kept apart as notation
// (translate="no"), so that no language rewrites a move
function sentence(template, fields, move) {
  const [before, after] = _(template, fields).split("{move}");
  const notation = document.createElement("span");
  notation.setAttribute("translate", "no");
  notation.textContent = move;
  return after === undefined ? [before] : [before, notation, after];
}
