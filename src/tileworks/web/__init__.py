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
from tileworks.core.i18n import LANGUAGES, _, catalog, current_language, gettext, language
from tileworks.core.registry import registered_games
from tileworks.web.rules import rules_html

STATIC = Path(__file__).parent / "static"
#: the language switch's choice, also read by ``server.app.Language``
LANGUAGE_COOKIE = "tileworks-lang"
#: how each language names itself in the switch
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}


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
    }.items()}


def page(request: Request, title: str, body: str, script: str | None) -> HTMLResponse:
    lang = current_language()
    w = _words()
    strings = json.dumps(catalog(lang) if lang != "en" else {}, ensure_ascii=False).replace("</", "<\\/")
    switch = " ".join(
        f'<a href="?lang={code}" lang="{code}"' + (' aria-current="true"' if code == lang else "") + f">{LANGUAGE_NAMES[code]}</a>"
        for code in LANGUAGES
    )
    scripts = '<script src="/static/common.js"></script>' + (f'<script src="/static/{script}"></script>' if script else "")
    response = HTMLResponse(
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><header><a href="/" class="brand">tileworks</a>'
        f'<nav aria-label="{w["Rules"]}">{_rules_links()}</nav>'
        f'<nav class="languages" aria-label="{w["Language"]}">{switch}</nav></header>'
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
<section id="lobby" aria-label="{w["Games"]}"><div id="cards" class="cards"></div></section>
<h2 id="setup">{w["Choose players and options"]}</h2>
<form id="create">
  <label>{w["Game"]} <select id="game" name="game"></select></label>
  <p id="summary"></p>
  <label>{w["Players"]} <select id="players" name="players"></select></label>
  <fieldset><legend>{w["Seats"]}</legend><div id="seats"></div></fieldset>
  <fieldset><legend>{w["Options"]}</legend><div id="options"></div></fieldset>
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
<div class="table">
  <div id="board" aria-live="polite"></div>
  <div id="side">
    <p id="status" role="status"></p>
    <p id="seats"></p>
    <p id="last"></p>
    <div id="buttons"></div>
    <form id="type-form"><label>{w["Move"]} <input id="typed" autocomplete="off" translate="no"></label> <span id="hint"></span></form>
    <p id="message" role="alert"></p>
    <div id="summary" hidden></div>
    <button id="rematch" type="button" hidden>{w["Rematch"]}</button> <a id="replay" hidden>{w["Replay this game"]}</a>
    <h2>{w["Moves"]}</h2>
    <ol id="moves" translate="no"></ol>
  </div>
</div>
"""


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
    <h2>{w["Moves"]}</h2>
    <ol id="moves" translate="no"></ol>
  </div>
</div>
"""


@functools.lru_cache(maxsize=64)
def opening_picture(game: str, lang: str) -> str:
    """The position after a game's set-up (a fixed deal), drawn for a
    spectator in ``lang``: no hand or bag is shown."""
    state = tileworks.load_game(game).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    with language(lang):
        return state.svg(SPECTATOR)


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

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules(request: Request, game: str) -> HTMLResponse:
        known = {info.name: info for info in registered_games()}
        if game not in known:
            missing = _words()["no such game"]
            response = page(request, _("tileworks: rules"), f'<p role="alert">{missing}</p>', None)
            response.status_code = 404
            return response
        return page(request, f"tileworks: {_rules_title(known[game])}", rules_html(game, current_language()), None)
