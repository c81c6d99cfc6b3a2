// The page's language: translations arrive with the page (#strings, from
// the server's catalog), and _("text {name}", {name: value}) looks one up
// and fills in its fields, as the Python side does.
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
