// The leaderboards: one per game, accounts ranked by rating (μ − 3σ).
"use strict";

const $ = (id) => document.getElementById(id);

(async () => {
  const games = await CATALOGUE;
  const chosen = location.pathname.split("/")[2] || games[0].name;
  $("boards").replaceChildren(...games.map((g) => {
    const a = link("/leaderboards/" + g.name, g.title);
    if (g.name === chosen) a.setAttribute("aria-current", "page");
    return a;
  }));
  const response = await fetch("/api/leaderboard/" + encodeURIComponent(chosen));
  const rows = await response.json();
  if (!response.ok) { $("error").textContent = rows.error; return; }
  const title = (games.find((g) => g.name === chosen) || { title: chosen }).title;
  table($("standings"), _("{game}: rated players", { game: title }), [_("Rank"), _("Player"), _("Rating"), _("Games")],
    rows.map((r) => [String(r.rank), link("/players/" + encodeURIComponent(r.username), r.username),
      r.rating.toFixed(1), String(r.games)]));
  if (!rows.length) $("empty").textContent = _("Nobody has played a rated game of {game} yet.", { game: title });
})();
