"""The pages people play on, served by ``tileworks serve``: a home page to
start and find games, and a game page that draws the table with each game's
own SVG renderer and makes the legal moves clickable. Plain HTML and a small
hand-written client (``static/``); no build step."""

from __future__ import annotations

from html import escape
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def page(title: str, body: str, script: str) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(title)}</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>"
        f"<body><header><a href=\"/\">tileworks</a></header><main>{body}</main>"
        f"<script src=\"/static/{script}\"></script></body></html>"
    )


HOME = """
<h1>Play</h1>
<form id="create">
  <label>Game <select id="game" name="game"></select></label>
  <p id="summary"></p>
  <label>Players <select id="players" name="players"></select></label>
  <fieldset><legend>Seats</legend><div id="seats"></div></fieldset>
  <fieldset><legend>Options</legend><div id="options"></div></fieldset>
  <button type="submit">Start the game</button>
  <p id="error" role="alert"></p>
</form>
<h2>Games</h2>
<ul id="games"></ul>
"""

GAME = """
<div class="table">
  <div id="board" aria-live="polite"></div>
  <div id="side">
    <p id="status" role="status"></p>
    <p id="seats"></p>
    <div id="buttons"></div>
    <form id="type-form"><label>Move <input id="typed" autocomplete="off"></label> <span id="hint"></span></form>
    <p id="message" role="alert"></p>
    <button id="rematch" type="button" hidden>Rematch</button> <a id="replay" hidden>Replay this game</a>
    <h2>Moves</h2>
    <ol id="moves"></ol>
  </div>
</div>
"""


REPLAY = """
<div class="table">
  <div id="board"></div>
  <div id="side">
    <p id="status" role="status"></p>
    <p><button id="back" type="button" aria-label="previous move">&larr;</button>
       <input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
       <button id="forward" type="button" aria-label="next move">&rarr;</button></p>
    <h2>Moves</h2>
    <ol id="moves"></ol>
  </div>
</div>
"""


def add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def home() -> HTMLResponse:
        return page("tileworks", HOME, "home.js")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play(game_id: str) -> HTMLResponse:
        return page("tileworks: a game", GAME, "game.js")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay(game_id: str) -> HTMLResponse:
        return page("tileworks: replay", REPLAY, "replay.js")

    @app.get("/watch/{game_id}", include_in_schema=False)
    async def watch(game_id: str) -> HTMLResponse:
        return page("tileworks: watching a game", GAME, "game.js")
