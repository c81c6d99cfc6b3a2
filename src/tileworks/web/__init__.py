"""The pages people play on, served by ``tileworks serve``: a home page to
start and find games, a game page that draws the table with each game's own
SVG renderer and makes the legal moves clickable, a replay page, and each
game's rules. Plain HTML and a small hand-written client (``static/``); no
build step.

Every page speaks the request's language (see ``server.app.Language``); the
client's own strings come with the page as a JSON table from the same
catalog.
"""

from __future__ import annotations

import functools
import json
import random
from html import escape
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

import tileworks
from tileworks.core import SPECTATOR, sample_chance
from tileworks.core.i18n import LANGUAGE_NAMES, LANGUAGES, _, catalog, current_language, gettext, language
from tileworks.core.registry import registered_games
from tileworks.web.fonts import FIRST_SLICES
from tileworks.web.rules import rules_html

STATIC = Path(__file__).parent / "static"
#: the language switch's choice, also read by ``server.app.Language``
LANGUAGE_COOKIE = "tileworks-lang"


def _words() -> dict[str, str]:
    """The pages' own words in the current language, escaped for HTML."""
    return {key: escape(text) for key, text in {
        "Game": _("Game"),
        "Games": _("Games"),
        "Open games to join": _("Open games to join"),
        "Games being played": _("Games being played"),
        "Finished games": _("Finished games"),
        "Choose players and options": _("Choose players and options"),
        "Language": _("Language"),
        "Move": _("Move"),
        "Sound on my turn": _("Sound on my turn"),
        "Theme": _("Theme"),
        "theme: as the system": _("theme: as the system"),
        "theme: light": _("theme: light"),
        "theme: dark": _("theme: dark"),
        "Notify me on my turn": _("Notify me on my turn"),
        "Moves": _("Moves"),
        "Options": _("Options"),
        "Play": _("Play"),
        "Players": _("Players"),
        "Rematch": _("Rematch"),
        "Replay this game": _("Replay this game"),
        "Rules": _("Rules"),
        "Seats": _("Seats"),
        "Start the game": _("Start the game"),
        "move": _("move"),
        "next move": _("next move"),
        "no such game": _("no such game"),
        "previous move": _("previous move"),
        "Account": _("Account"),
        "Log in": _("Log in"),
        "Log out": _("Log out"),
        "Create an account": _("Create an account"),
        "Username": _("Username"),
        "Password": _("Password"),
        "Leaderboards": _("Leaderboards"),
        "Your name": _("Your name"),
        "Rated game": _("Rated game"),
        "Clock": _("Clock"),
        "no clock": _("no clock"),
        "real time": _("real time"),
        "turn-based": _("turn-based"),
        "Minutes per player": _("Minutes per player"),
        "Seconds added per turn": _("Seconds added per turn"),
        "Hours per turn": _("Hours per turn"),
        "Results": _("Results"),
        "Back to the lobby": _("Back to the lobby"),
        "Ratings": _("Ratings"),
        "Your turn": _("Your turn"),
        "Recent games": _("Recent games"),
        "Players of the game": _("Players of the game"),
        "guest_hint": _("Guests play at once under this name; an account keeps your games and a rating."),
        "password_hint": _("At least 10 characters; several unrelated words make a strong one."),
        "rated_hint": _("Rated games are between people with accounts: the other seats stay open for other accounts."),
        "reconnecting": _("Lost the connection to the server: reconnecting…"),
        "replay_keys": _("Keys: ← and → step back and forward, Home goes to the start, End to the last move."),
    }.items()}


@functools.lru_cache(maxsize=None)
def script_strings(lang: str) -> dict[str, str]:
    """The translations the pages' scripts look up (the strings their code
    marks with ``_``), not the whole catalog: what every page carries inline.
    English needs none."""
    if lang == "en":
        return {}
    from babel.messages.extract import extract_from_file

    marked = {message for path in sorted(STATIC.glob("*.js"))
              for _line, message, _comments, _context in extract_from_file("javascript", path, keywords={"_": None})
              if isinstance(message, str)}
    translated = catalog(lang)
    return {message: translated[message] for message in sorted(marked) if message in translated}


#: the theme chosen in the header ("" follows the system), and the scheme it
#: comes to, set before the first paint and kept up with the system's
THEME_SCRIPT = (
    '(() => { const root = document.documentElement, system = matchMedia("(prefers-color-scheme: dark)");'
    'window.applyScheme = () => { root.dataset.scheme = root.dataset.theme || (system.matches ? "dark" : "light"); };'
    'root.dataset.theme = localStorage.getItem("tileworks-theme") || "";'
    'applyScheme(); system.addEventListener("change", applyScheme); })();'
)


def page(request: Request, title: str, body: str, script: str | None) -> HTMLResponse:
    lang = current_language()
    w = _words()
    strings = json.dumps(script_strings(lang), ensure_ascii=False).replace("</", "<\\/")
    switch = " ".join(
        f'<a href="?lang={code}" lang="{code}"' + (' aria-current="true"' if code == lang else "") + f">{LANGUAGE_NAMES[code]}</a>"
        for code in LANGUAGES
    )
    scripts = '<script src="/static/common.js"></script>' + (f'<script src="/static/{script}"></script>' if script else "")
    response = HTMLResponse(
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="icon" href="data:,">'
        # the font slices every page of its language draws with: fetched with the styles, not after them
        + "".join(f'<link rel="preload" href="/static/fonts/{file}" as="font" type="font/woff2" crossorigin>'
                  for file in FIRST_SLICES.get(lang, FIRST_SLICES["en"]))
        + '<link rel="stylesheet" href="/static/fonts/fonts.css"><link rel="stylesheet" href="/static/style.css">'
        # the theme chosen in the header, before the first paint (no flash of the other one)
        f'<script>{THEME_SCRIPT}</script></head>'
        f'<body><header><a href="/" class="brand">tileworks</a>'
        f'<nav aria-label="{w["Rules"]}">{_rules_links()}</nav>'
        f'<nav id="account" aria-label="{w["Account"]}"><a href="/leaderboards">{w["Leaderboards"]}</a> '
        f'<a id="me" href="/account">{w["Log in"]}</a></nav>'
        f'<nav class="languages" aria-label="{w["Language"]}">{switch}'
        f'<button id="theme" type="button" aria-label="{w["Theme"]}" data-auto="{w["theme: as the system"]}" '
        f'data-light="{w["theme: light"]}" data-dark="{w["theme: dark"]}"></button></nav></header>'
        f'<main>{body}</main>'
        f'<script id="strings" type="application/json">{strings}</script>{scripts}</body></html>'
    )
    if request.query_params.get("lang") in LANGUAGES:  # the switch: remember the choice
        response.set_cookie(LANGUAGE_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def _rules_title(info: Any) -> str:
    return _("{game} rules", game=gettext(info.title))


def _rules_links() -> str:
    return " ".join(f'<a href="/rules/{info.name}">{escape(_rules_title(info))}</a>' for info in registered_games())


def home_body() -> str:
    w = _words()
    return f"""
<h1>{w["Play"]}</h1>
<p id="guest"><label>{w["Your name"]} <input id="guest-name" maxlength="24" autocomplete="nickname" aria-describedby="guest-hint"></label>
<small id="guest-hint">{w["guest_hint"]}</small></p>
<section id="lobby" aria-label="{w["Games"]}"><div id="cards" class="cards"></div></section>
<h2 id="setup">{w["Choose players and options"]}</h2>
<form id="create">
  <label>{w["Game"]} <select id="game" name="game"></select></label>
  <p id="summary"></p>
  <label>{w["Players"]} <select id="players" name="players"></select></label>
  <fieldset><legend>{w["Seats"]}</legend><div id="seats"></div></fieldset>
  <fieldset><legend>{w["Options"]}</legend><div id="options"></div></fieldset>
  <fieldset><legend>{w["Clock"]}</legend>
    <label>{w["Clock"]} <select id="clock-kind"><option value="">{w["no clock"]}</option>
      <option value="realtime">{w["real time"]}</option><option value="turn">{w["turn-based"]}</option></select></label>
    <label class="realtime">{w["Minutes per player"]} <input id="clock-minutes" type="number" min="1" max="180" value="10"></label>
    <label class="realtime">{w["Seconds added per turn"]} <input id="clock-increment" type="number" min="0" max="120" value="5"></label>
    <label class="turn">{w["Hours per turn"]} <input id="clock-hours" type="number" min="1" max="336" value="24"></label>
  </fieldset>
  <label><input type="checkbox" id="rated" aria-describedby="rated-hint"> {w["Rated game"]}</label>
  <small id="rated-hint">{w["rated_hint"]}</small>
  <button type="submit">{w["Start the game"]}</button>
  <p id="error" role="alert"></p>
</form>
<section id="open"><h2>{w["Open games to join"]}</h2><ul id="open-games"></ul></section>
<section id="live"><h2>{w["Games being played"]}</h2><ul id="live-games"></ul></section>
<section id="finished"><h2>{w["Finished games"]}</h2><ul id="finished-games"></ul></section>
"""


def game_body() -> str:
    w = _words()
    return f"""
<p id="offline" role="status" hidden>{w["reconnecting"]}</p>
<div class="table">
  <div id="board" aria-live="polite"></div>
  <div id="side">
    <p id="status" role="status"></p>
    <ul id="players" aria-label="{w["Players of the game"]}"></ul>
    <p id="last"></p>
    <p id="chosen" aria-live="polite"></p>
    <div id="buttons"></div>
    <form id="type-form"><label>{w["Move"]} <input id="typed" autocomplete="off" translate="no"></label> <span id="hint"></span></form>
    <p id="message" role="alert"></p>
    <p id="signals"><label><input type="checkbox" id="sound"> {w["Sound on my turn"]}</label>
      <label><input type="checkbox" id="notify"> {w["Notify me on my turn"]}</label></p>
    <section id="results" hidden aria-labelledby="results-title"><h2 id="results-title">{w["Results"]}</h2>
      <p id="winner"></p><div id="summary"></div>
      <p><button id="rematch" type="button" hidden>{w["Rematch"]}</button> <a id="replay" hidden>{w["Replay this game"]}</a>
      <a id="lobby" href="/">{w["Back to the lobby"]}</a></p></section>
    <details id="log" open><summary><h2>{w["Moves"]}</h2></summary>
    <ol id="moves" translate="no"></ol></details>
  </div>
</div>
"""


def _keys(text: str) -> str:
    """The keys a sentence names, marked as keys (names no language translates)."""
    for key in ("←", "→", "Home", "End"):
        text = text.replace(key, f'<kbd translate="no">{key}</kbd>')
    return text


def replay_body() -> str:
    w = _words()
    return f"""
<div class="table">
  <div id="board"></div>
  <div id="side">
    <p id="status" role="status"></p>
    <p id="last"></p>
    <p><button id="back" type="button" aria-label="{w["previous move"]}">&larr;</button>
       <input id="slider" type="range" min="0" max="0" value="0" aria-label="{w["move"]}">
       <button id="forward" type="button" aria-label="{w["next move"]}">&rarr;</button></p>
    <p id="keys"><small>{_keys(w["replay_keys"])}</small></p>
    <h2>{w["Moves"]}</h2>
    <ol id="moves" translate="no"></ol>
  </div>
</div>
"""


def account_body() -> str:
    w = _words()
    return f"""
<h1>{w["Account"]}</h1>
<section id="signed-in" hidden><p id="who"></p><button id="logout" type="button">{w["Log out"]}</button></section>
<div id="signed-out" class="forms">
<form id="login"><h2>{w["Log in"]}</h2>
  <label>{w["Username"]} <input name="username" autocomplete="username" required maxlength="24"></label>
  <label>{w["Password"]} <input name="password" type="password" autocomplete="current-password" required maxlength="128"></label>
  <button type="submit">{w["Log in"]}</button> <p class="error" role="alert"></p></form>
<form id="register"><h2>{w["Create an account"]}</h2>
  <label>{w["Username"]} <input name="username" autocomplete="username" required minlength="3" maxlength="24"></label>
  <label>{w["Password"]} <input name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="128" aria-describedby="password-hint"></label>
  <small id="password-hint">{w["password_hint"]}</small>
  <button type="submit">{w["Create an account"]}</button> <p class="error" role="alert"></p></form>
</div>
"""


def profile_body() -> str:
    w = _words()
    return f"""
<h1 id="name"></h1>
<section id="turns" hidden><h2>{w["Your turn"]}</h2><ul id="turn-games"></ul></section>
<section><h2>{w["Ratings"]}</h2><table id="ratings"></table></section>
<section><h2>{w["Recent games"]}</h2><table id="games"></table></section>
<p id="error" role="alert"></p>
"""


def leaderboard_body() -> str:
    w = _words()
    return f"""
<h1>{w["Leaderboards"]}</h1>
<nav id="boards" aria-label="{w["Games"]}"></nav>
<table id="standings"></table>
<p id="empty"></p>
<p id="error" role="alert"></p>
"""


@functools.lru_cache(maxsize=64)
def opening_picture(game: str, lang: str) -> str:
    """A game's picture for its lobby card, in ``lang``: the render module's
    ``render_card`` (a close-up drawn for the card's size, from the view of
    the position after a fixed set-up) where it has one, else that position
    as a spectator sees it (no hand or bag is shown)."""
    state = tileworks.load_game(game).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    card = getattr(getattr(state, "render", None), "render_card", None)  # a close-up drawn for the card's size
    with language(lang):
        return card(state.view(SPECTATOR)) if card else state.svg(SPECTATOR)


def add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return page(request, "tileworks", home_body(), "home.js")

    @app.get("/pictures/{game}.svg", include_in_schema=False)
    async def picture(game: str) -> Response:
        """A game's opening position, as a spectator sees it: the lobby's card."""
        if game not in {info.name for info in registered_games()}:
            return Response(status_code=404)
        return Response(opening_picture(game, current_language()), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play(request: Request, game_id: str) -> HTMLResponse:
        return page(request, _("tileworks: a game"), game_body(), "game.js")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay(request: Request, game_id: str) -> HTMLResponse:
        return page(request, _("tileworks: replay"), replay_body(), "replay.js")

    @app.get("/watch/{game_id}", include_in_schema=False)
    async def watch(request: Request, game_id: str) -> HTMLResponse:
        return page(request, _("tileworks: watching a game"), game_body(), "game.js")

    @app.get("/account", include_in_schema=False)
    async def account(request: Request) -> HTMLResponse:
        return page(request, _("tileworks: account"), account_body(), "account.js")

    @app.get("/players/{username}", include_in_schema=False)
    async def player(request: Request, username: str) -> HTMLResponse:
        return page(request, _("tileworks: a player"), profile_body(), "profile.js")

    @app.get("/leaderboards", include_in_schema=False)
    @app.get("/leaderboards/{game}", include_in_schema=False)
    async def leaderboards(request: Request, game: str | None = None) -> HTMLResponse:
        return page(request, _("tileworks: leaderboards"), leaderboard_body(), "leaderboard.js")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules(request: Request, game: str) -> HTMLResponse:
        known = {info.name: info for info in registered_games()}
        if game not in known:
            missing = _words()["no such game"]
            response = page(request, _("tileworks: rules"), f'<p role="alert">{missing}</p>', None)
            response.status_code = 404
            return response
        return page(request, f"tileworks: {_rules_title(known[game])}", rules_html(game, current_language()), None)
