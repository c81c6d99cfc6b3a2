// A player's page: ratings per game, games whose turn is theirs (on their own
// page), and recent games with results and rating changes.
"use strict";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/").pop());

(async () => {
  const response = await fetch("/api/players/" + encodeURIComponent(username));
  const body = await response.json();
  if (!response.ok) { $("error").textContent = body.error; return; }
  const titles = Object.fromEntries((await CATALOGUE).map((g) => [g.name, g.title]));
  $("name").textContent = body.username;
  document.title = "tileworks: " + body.username;
  table($("ratings"), null, [_("Game"), _("Rating"), _("Games")],
    Object.entries(body.ratings).map(([game, r]) => [
      link("/leaderboards/" + game, titles[game] || game), r.rating.toFixed(1), String(r.games)]));
  if (!Object.keys(body.ratings).length) $("ratings").replaceChildren(_("No rated games yet."));
  const outcomes = { win: _("won"), loss: _("lost"), shared: _("shared the win"), abandoned: _("abandoned") };
  const statuses = { open: _("waiting for players"), playing: _("being played") };
  table($("games"), null, [_("Game"), _("Players of the game"), _("Result"), _("Rating")], body.games.map((g) => {
    const players = listedPlayers(g);
    const where = g.status === "finished" ? "/replay/" : body.you ? "/play/" : "/watch/";
    const result = g.status === "finished" ? outcomes[g.outcome] + " (" + g.score + ")" : statuses[g.status];
    const rating = g.rating ? ratingChange(g.rating) : "";
    return [link(where + g.id, titles[g.game] || g.game), players, result, rating];
  }));
  if (body.you) {
    const out = document.createElement("button");
    out.type = "button";
    out.id = "logout";
    out.textContent = _("Log out");
    out.addEventListener("click", async () => { await fetch("/api/session", { method: "DELETE" }); location.href = "/"; });
    $("name").after(out);
  }
  if (body.you && body.your_turn.length) {
    $("turns").hidden = false;
    $("turn-games").replaceChildren(...body.your_turn.map((id) => {
      const g = body.games.find((x) => x.id === id);
      const item = document.createElement("li");
      item.append(link("/play/" + id, titles[g.game] || g.game));
      return item;
    }));
  }
})();
