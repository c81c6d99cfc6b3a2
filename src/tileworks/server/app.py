"""The HTTP and WebSocket API (FastAPI).

Seats prove themselves with their secret token in the ``X-Seat-Token``
header (several, comma-separated, for one client playing several seats at
one screen), or in the first WebSocket message. Tokens never appear in URLs
the server sees: a seat's link carries its token after ``#``.

Every refusal is JSON ``{"error": "...", "status": N}`` with the status that
fits: 400 bad content (unknown game or option, unreadable or illegal move),
403 a token that holds no seat, 404 no such game, 409 out of turn or stale
or raced, 413 too large, 422 a body of the wrong shape.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
from contextlib import asynccontextmanager
from typing import Annotated, Any, AsyncIterator, Literal

import anyio
from fastapi import Depends, FastAPI, Header, Path, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictBool, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import tileworks
from tileworks.core import jsontext
from tileworks.core.i18n import LANGUAGES, _, current_language, language, negotiate, use_language
from tileworks.core.registry import GameInfo, registered_games
from tileworks.core import SPECTATOR
from tileworks.core.text import seat_name
from tileworks.server.accounts import (MAX_NAME, MAX_PASSWORD, MIN_PASSWORD, PASSWORD_MEMORY_KIB, PASSWORD_PASSES,
                                       SESSION_COOKIE, SESSION_SECONDS, USERNAME, Accounts, check_username,
                                       password_hasher)
from tileworks.server.clocks import check_clock
from tileworks.server.errors import ServerError
from tileworks.agents import spec_pattern
from tileworks.agents.learned import networks_of, standing, weakest_loss
from tileworks.server.hub import ABANDON_AFTER, HUMAN, MAX_SEATS, Hub, Room, position_after
from tileworks.server.ratings import shown as shown_rating
from tileworks.server.store import Account, GameRow, Store, connect, default_url
from tileworks.server.transport import tune_collector
from tileworks.web import LANGUAGE_COOKIE, add_pages

log = logging.getLogger("tileworks.server")

#: the largest request body or WebSocket message accepted
MAX_BODY = 16 * 1024
#: the largest WebSocket frame the transport reads at all (larger ones are
#: closed with 1009 unread); frames between MAX_BODY and this get a 413 answer
MAX_FRAME = 1024 * 1024
#: the largest ply a move may name
MAX_PLY = 10**9
TOKEN_HEADER = "X-Seat-Token"
#: a seat token: the server makes them URL-safe, 32 characters long
TOKEN = r"[A-Za-z0-9_-]{1,64}"
#: the X-Seat-Token header: up to MAX_SEATS tokens, comma-separated
TOKEN_LIST = rf"^(?:{TOKEN}(?:, ?{TOKEN}){{0,{MAX_SEATS - 1}}})?$"


# -- request and response shapes ------------------------------------------------------------------
OptionValue = int | bool | str | list[str]


class CreateGame(BaseModel):
    game: str = Field(max_length=40, description="a registered game (the catalogue lists them)")
    options: dict[Annotated[str, Field(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=16, description="game options; 'players' is taken from the seats")
    players: list[Annotated[str, Field(max_length=100)]] = Field(
        min_length=1, max_length=MAX_SEATS, description="one per seat: 'human' or an agent spec such as 'mcts:medium'")
    open_seats: list[Annotated[int, Field(ge=1, le=MAX_SEATS)]] = Field(
        default_factory=list, max_length=MAX_SEATS,
        description="human seats (1-based) left open: anyone may take them from the games list")
    name: str | None = Field(None, description="a guest's display name for its seats (accounts show their username)",
                             json_schema_extra={"maxLength": MAX_NAME})
    rated: StrictBool = Field(False, description="rate the game (needs a logged-in account; one seat per account)")
    clock: dict[Annotated[str, Field(max_length=20)], Annotated[str, Field(max_length=20)] | int | float] | None = Field(
        None, max_length=4,
        description='a time control: {"kind": "realtime", "minutes": M, "increment": S} or {"kind": "turn", "hours": H}')


class ClaimIn(BaseModel):
    name: str | None = Field(None, description="a guest's display name", json_schema_extra={"maxLength": MAX_NAME})


class Credentials(BaseModel):
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class NewAccount(BaseModel):
    """A new account's name and password. The schema states the name's form
    and the password's length; the server checks them (and the password's
    strength) with a 400 that says what is wrong."""

    username: str = Field(description="3 to 24 letters (any script), digits, _ or -, starting with a letter or digit",
                          json_schema_extra={"minLength": 3, "maxLength": 24, "pattern": f"^{USERNAME.pattern}$"})
    password: str = Field(description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters, hard to guess",
                          json_schema_extra={"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD})


class SessionOut(BaseModel):
    username: str | None


class MoveIn(BaseModel):
    move: str = Field(max_length=200, description="the move in the game's notation")
    ply: int = Field(ge=0, le=MAX_PLY, description="the ply of the view the move answers (stale moves get 409)")

    @field_validator("ply", mode="before")
    @classmethod
    def _not_a_truth_value(cls, value: Any) -> Any:
        if isinstance(value, bool):  # JSON's true is no number, though Python's bool is an int
            raise ValueError("a ply is a number, not true or false")
        return value


class SeatLink(BaseModel):
    seat: int
    name: str
    token: str
    link: str


class Created(BaseModel):
    id: str
    seats: list[SeatLink]
    spectator_link: str


class Rematch(BaseModel):
    id: str
    seats: list[SeatLink]


class GameSummary(BaseModel):
    id: str
    game: str
    status: Literal["open", "playing", "finished"]
    ply: int = Field(description="actions stored, chance included: the ply a move answers")
    moves: int = Field(description="the players' decisions so far")
    players: list[str]
    names: list[str | None]
    guests: list[bool] = Field(description="seats played by a guest under a name of their own (no account)")
    open_seats: list[int]
    joinable: list[int]
    updated: float
    rated: bool
    clock: dict[str, Any] | None
    ended: Literal["end", "time", "abandoned"] | None = Field(
        description="how a finished game ended: by its rules, when clocks ran out, or abandoned")


class ErrorBody(BaseModel):
    error: str
    status: int


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 429)
}


def seat_link(game_id: str, token: str) -> str:
    return f"/play/{game_id}#token={token}"


def tokens_from(header: str | None) -> list[str]:
    """The tokens of an ``X-Seat-Token`` header, or a 400 naming its form."""
    header = (header or "").strip()
    if not re.fullmatch(TOKEN_LIST, header):
        raise ServerError(400, _("{token_header} holds at most {max_seats} seat tokens (letters, digits, _ and -, "
                                 "at most 64 each), separated by commas",
                                 token_header=TOKEN_HEADER, max_seats=MAX_SEATS))
    return [token.strip() for token in header.split(",") if token.strip()]


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, whether or not
    they announce their length."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and not length.isdigit():
            await JSONResponse({"error": _("Content-Length must be a number of bytes"), "status": 400},
                               status_code=400)(scope, receive, send)
            return
        if length is not None and int(length) > self.limit:
            await _too_large(self.limit)(scope, receive, send)
            return
        # read the whole (small) body first, so an oversized one is refused
        # before any of it is parsed
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _too_large(self.limit)(scope, receive, send)
                return
            more = message.get("more_body", False)
        await self.app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive), send)


class CompressPages:
    """Gzips the pages, styles, scripts and pictures (a game page's text is
    a quarter of its size compressed). The API's answers go uncompressed:
    they carry seat tokens and session cookies beside text a client chose,
    the mix that compression leaks to an eavesdropper (BREACH)."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.compressed = GZipMiddleware(app, minimum_size=1000)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith("/api/"):
            await self.compressed(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class Language:
    """Answers each request in its client's language: ``?lang=``, then the
    ``tileworks-lang`` cookie (the pages' language switch), then the
    ``Accept-Language`` header; English otherwise."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with language(request_language(scope)):
            await self.app(scope, receive, send)


def request_language(scope: Scope) -> str:
    from http.cookies import SimpleCookie
    from urllib.parse import parse_qs

    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang")
    if asked and asked[-1] in LANGUAGES:
        return asked[-1]
    headers = dict(scope.get("headers") or [])
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
    except Exception:  # a malformed cookie header is ignored
        pass
    chosen = cookie.get(LANGUAGE_COOKIE)
    if chosen is not None and chosen.value in LANGUAGES:
        return chosen.value
    return negotiate(headers.get(b"accept-language", b"").decode("latin-1"))


def _replay(messages: list[Message], receive: Receive) -> Receive:
    async def replayed() -> Message:
        return messages.pop(0) if messages else await receive()

    return replayed


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": _("the request body is over {limit} bytes", limit=limit), "status": 413}, status_code=413)


#: the environment variable that hands ``tileworks serve --workers N``'s
#: settings (JSON: create_app's arguments) to each worker process
SETTINGS_VARIABLE = "TILEWORKS_SERVE_SETTINGS"


def app_from_environment() -> FastAPI:
    """The app of one worker process of ``tileworks serve --workers N``."""
    app = create_app(**json.loads(os.environ[SETTINGS_VARIABLE]))
    tune_collector()
    return app


def create_app(db_url: str | None = None, data_dir: str = "data", ai_workers: int = 2,
               session_seconds: float = SESSION_SECONDS, abandon_after: float = ABANDON_AFTER,
               password_memory_kib: int = PASSWORD_MEMORY_KIB, password_passes: int = PASSWORD_PASSES) -> FastAPI:
    """The tileworks server: games stored at ``db_url`` (default: an SQLite
    file in ``data_dir``), AI seats searched in ``ai_workers`` processes;
    logins last ``session_seconds``; a game in which nothing happens for
    ``abandon_after`` seconds (and no clock runs) ends as abandoned;
    passwords are hashed with argon2id at ``password_memory_kib`` and
    ``password_passes`` (see :func:`~tileworks.server.accounts.password_hasher`)."""
    hasher = password_hasher(password_memory_kib, password_passes)  # here: bad settings fail before the server starts

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = connect(db_url or default_url(data_dir))
        hub = Hub(Store(engine), ai_workers=ai_workers, abandon_after=abandon_after)
        app.state.hub = hub
        app.state.accounts = Accounts(hub.store, session_seconds=session_seconds, hasher=hasher)
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            engine.dispose()

    app = FastAPI(
        title="tileworks",
        version=tileworks.__version__,
        summary="Play tile-laying games: durable games, seats, spectators, live views and AI seats.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(Language)
    app.add_middleware(CompressPages)
    add_pages(app)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = FastAPI.openapi(app)
            name_the_games(schema, registered_games())
            describe_token_headers(schema)
            add_links(schema)
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(ServerError)
    async def _refused(request: Request, error: ServerError) -> JSONResponse:
        headers = {"Retry-After": str(math.ceil(error.retry_after))} if error.retry_after else None
        return JSONResponse({"error": error.detail, "status": error.status}, status_code=error.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = dict(getattr(error, "headers", None) or {})
        if error.status_code == 405:  # Starlette names only the first route on the path
            headers["Allow"] = ", ".join(allowed_methods(app, request.scope))
        return JSONResponse({"error": str(error.detail), "status": error.status_code},
                            status_code=error.status_code, headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def _malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        return JSONResponse({"error": _("malformed request: {problems}", problems=problems), "status": 422}, status_code=422)

    def hub() -> Hub:
        return app.state.hub

    def accounts() -> Accounts:
        return app.state.accounts

    def start_session(request: Request, response: Response, token: str) -> None:
        response.set_cookie(SESSION_COOKIE, token, max_age=int(accounts().session_seconds), httponly=True,
                            samesite="lax", secure=request.url.scheme == "https", path="/")

    async def room(game_id: str) -> Room:
        if len(game_id) > 24:
            raise ServerError(404, _("no such game"))
        return await hub().room(game_id)

    @app.get("/api/catalogue", summary="The games and their options")
    async def catalogue() -> list[dict[str, Any]]:
        # "networks": the option sets a trained network was shipped for (the learned agents play those),
        # each with the strongest level each learned agent was measured to beat (it is listed above that level)
        # and the weakest it lost to (one that beat none is listed below that)
        return [{**entry, "players": list(entry["players"]),
                 "networks": [{"options": about["options"], "beats": standing(about), "loses_to": weakest_loss(about)}
                              for _, about in networks_of(entry["name"])]}
                for entry in tileworks.list_games()]

    # -- accounts ----------------------------------------------------------------------------
    @app.post("/api/accounts", status_code=201, responses=ERRORS, summary="Create an account (and log in)")
    async def register(body: NewAccount, request: Request, response: Response) -> SessionOut:
        made = await anyio.to_thread.run_sync(accounts().register, body.username, body.password, _address(request))
        _, token = await anyio.to_thread.run_sync(accounts().login, body.username, body.password, _address(request))
        start_session(request, response, token)
        return SessionOut(username=made.username)

    @app.post("/api/session", responses=ERRORS, summary="Log in: a session cookie (HttpOnly, SameSite=Lax)")
    async def login(body: Credentials, request: Request, response: Response) -> SessionOut:
        account, token = await anyio.to_thread.run_sync(accounts().login, body.username, body.password, _address(request))
        start_session(request, response, token)
        return SessionOut(username=account.username)

    @app.get("/api/session", summary="Who is logged in (username null: nobody)")
    async def who(account: Player) -> SessionOut:
        return SessionOut(username=account.username if account else None)

    @app.delete("/api/session", summary="Log out")
    async def logout(request: Request, response: Response) -> SessionOut:
        await anyio.to_thread.run_sync(accounts().logout, request.cookies.get(SESSION_COOKIE))
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return SessionOut(username=None)

    @app.get("/api/players/{username}", responses=ERRORS, summary="A player's ratings and games")
    async def profile(username: Annotated[str, Path(max_length=64)], account: Player) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(player_profile, hub(), username, account)

    @app.get("/api/leaderboard/{game}", responses=ERRORS, summary="A game's rated accounts, best first")
    async def leaderboard(game: Annotated[str, Path(max_length=40)],
                          limit: Annotated[int, Query(ge=1, le=500)] = 100) -> list[dict[str, Any]]:
        _known(game, status=404)
        rows = await anyio.to_thread.run_sync(hub().store.leaderboard, game, limit)
        return [{"rank": i + 1, "username": name, "rating": shown_rating(r), "mu": round(r.mu, 2),
                 "sigma": round(r.sigma, 2), "games": r.games} for i, (name, r) in enumerate(rows)]

    # -- games ---------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, responses=ERRORS, summary="Create a game")
    async def create_game(body: CreateGame, account: Player) -> Created:
        _known(body.game)
        options = dict(body.options)
        if "players" in options and str(options["players"]) != str(len(body.players)):
            raise ServerError(400, _("option players={players} but {count} seats were given", players=options['players'], count=len(body.players)))
        options["players"] = len(body.players)
        players = [p.strip().lower() for p in body.players]
        guest = None if account else await anyio.to_thread.run_sync(accounts().guest_name, body.name)
        new, tokens = await hub().create(
            body.game, options, players, public=tuple(s - 1 for s in body.open_seats), account=account,
            guest=guest, rated=body.rated, clock=check_clock(body.clock))
        return Created(
            id=new.id,
            seats=[SeatLink(seat=s, name=seat_name(s), token=t, link=seat_link(new.id, t)) for s, t in tokens.items()],
            spectator_link=f"/watch/{new.id}",
        )

    @app.get("/api/games", summary="Games, newest activity first")
    async def list_games(
        account: Player,
        status: Annotated[Literal["open", "playing", "finished"] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
        joinable: Annotated[bool, Query(description="only games with a seat the caller may take now")] = False,
    ) -> list[GameSummary]:
        joinable_by = account if joinable else False
        rows = await anyio.to_thread.run_sync(lambda: hub().store.listing(status, limit, joinable_by))
        return [
            summary(r) for r in rows
        ]

    @app.get("/api/games/{game_id}", responses=ERRORS, summary="A game as the caller may see it")
    async def get_game(
        game_id: str, account: Player, x_seat_token: SeatTokens = None,
        picture: Annotated[bool, Query(description="add the SVG picture, the move list and the clicks")] = False,
        narrow: Annotated[bool, Query(description="the picture laid out for a phone")] = False,
    ) -> dict[str, Any]:
        found = await room(game_id)
        seats = hub().seats_of(found, tokens_from(x_seat_token), account)
        await hub().join(found, seats)
        return hub().payload(found, seats, picture, narrow)

    @app.post("/api/games/{game_id}/moves", responses=ERRORS, summary="Make a move with a seat's token")
    async def make_move(
        game_id: str, body: MoveIn, account: Player, x_seat_token: SeatTokens = None,
    ) -> dict[str, Any]:
        found = await room(game_id)
        tokens = tokens_from(x_seat_token)
        await hub().move(found, tokens, body.move, body.ply, account)
        return hub().payload(found, hub().seats_of(found, tokens, account))

    @app.get("/api/games/{game_id}/preview", responses=ERRORS,
             summary="What a move would change on the mover's picture, before it is made")
    async def preview(
        game_id: str, account: Player,
        move: Annotated[str, Query(max_length=64, description="the move, in the game's notation")],
        ply: Annotated[int, Query(ge=0, le=MAX_PLY, description="the ply of the view the preview is for")],
        x_seat_token: SeatTokens = None,
        narrow: Annotated[bool, Query(description="the picture laid out for a phone")] = False,
    ) -> dict[str, Any]:
        found = await room(game_id)
        overlay = hub().preview(found, tokens_from(x_seat_token), move, ply, narrow, account)
        return {"move": move, "ply": ply, "svg": overlay}

    @app.post("/api/games/{game_id}/seats/{seat}/claim", responses=ERRORS, summary="Take an open seat")
    async def claim(game_id: str, seat: Annotated[int, Path(ge=1, le=MAX_SEATS)], account: Player,
                    body: ClaimIn | None = None) -> SeatLink:
        found = await room(game_id)
        guest = None if account else await anyio.to_thread.run_sync(accounts().guest_name, body.name if body else None)
        token = await hub().claim(found, seat - 1, account, guest)
        return SeatLink(seat=seat - 1, name=seat_name(seat - 1), token=token, link=seat_link(found.id, token))

    @app.get("/api/games/{game_id}/record", responses=ERRORS, summary="The game record")
    async def record(
        game_id: str, account: Player, x_seat_token: SeatTokens = None,
    ) -> JSONResponse:
        found = await room(game_id)
        seats = hub().seats_of(found, tokens_from(x_seat_token), account)
        return JSONResponse(
            hub().record(found, seats),
            headers={"Content-Disposition": f'attachment; filename="{found.row.game}-{found.id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay", responses=ERRORS, summary="A finished game, move by move")
    async def replay(game_id: str, move: Annotated[int, Query(ge=0, le=100_000)] = 0,
                     narrow: Annotated[bool, Query(description="the picture laid out for a phone")] = False,
                     ) -> dict[str, Any]:
        found = await room(game_id)
        if not found.over:
            raise ServerError(409, _("only a finished game can be replayed"))
        total = len(found.log)
        if move > total:
            raise ServerError(404, _("this game has {total} moves", total=total))
        state = position_after(found, move)
        return {"id": found.id, "game": found.row.game, "move": move, "moves": found.log,
                "svg": state.svg(SPECTATOR, narrow), "decision": state.decision(), "result": found.row.result}

    @app.post("/api/games/{game_id}/rematch", responses=ERRORS, summary="Play again, seats rotated")
    async def rematch(
        game_id: str, account: Player, x_seat_token: SeatTokens = None,
    ) -> Rematch:
        found = await room(game_id)
        new, claimed = await hub().rematch(found, tokens_from(x_seat_token), account)
        return Rematch(
            id=new.id,
            seats=[SeatLink(seat=s, name=seat_name(s), token=t, link=seat_link(new.id, t)) for s, t in claimed.items()],
        )

    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str) -> None:
        """Live play. Send ``{"tokens": [...]}`` first (an empty list to
        watch; ``"picture": true`` adds the SVG, move list and clicks, ``"narrow": true``
        lays the SVG out for a phone; ``"lang": "ja"``
        picks the language of sentences and pictures); then ``{"move": "...", "ply": N}``. Every change of the game
        arrives as a ``view`` message; a refused move as an ``error``."""
        await websocket.accept()
        client = _Socket(websocket)
        try:
            found = await room(game_id)
            hello = await client.receive()
            tokens = _tokens_in(hello)
            account = await account_of(app.state.accounts, websocket.cookies)
            client.seats = hub().seats_of(found, tokens, account)
            client.picture = isinstance(hello, dict) and hello.get("picture") is True
            client.narrow = isinstance(hello, dict) and hello.get("narrow") is True
            if isinstance(hello, dict) and hello.get("lang") in LANGUAGES:
                client.lang = use_language(hello["lang"])
        except ServerError as error:
            await client.send({"type": "error", "error": error.detail, "status": error.status})
            await websocket.close(code=4000 + error.status)
            return
        except WebSocketDisconnect:
            return
        try:
            await hub().join(found, client.seats)  # tells the others
            found.clients.add(client)
            await client.send(hub().message(found, client.seats, client.picture, client.narrow))
            while True:
                try:
                    message = await client.receive()
                    if not is_move_message(message):
                        raise ServerError(422, _('a move message is {"move": "...", "ply": N}'))
                    await hub().move(found, tokens, message.get("move"), int(message["ply"]), account)
                except ServerError as error:
                    await client.send({"type": "error", "error": error.detail, "status": error.status})
        except WebSocketDisconnect:
            pass
        finally:
            found.clients.discard(client)

    return app


async def account_of(accounts: Accounts, cookies: dict[str, str]) -> Account | None:
    """The account whose session cookie came with a request (None: a guest)."""
    token = cookies.get(SESSION_COOKIE)
    return await anyio.to_thread.run_sync(accounts.session, token) if token else None


async def signed_in(request: Request) -> Account | None:
    return await account_of(request.app.state.accounts, request.cookies)


#: a route's logged-in account, if any
Player = Annotated[Account | None, Depends(signed_in)]
#: the seat tokens a request carries (its form is checked by tokens_from, with a clear 400)
SeatTokens = Annotated[str | None, Header(description="the caller's seat tokens, comma-separated")]


def name_the_games(schema: dict[str, Any], infos: list[GameInfo]) -> None:
    """State in the OpenAPI schema which games exist (those registered when
    the server started, plugins included) and what a seat may hold, with an
    example game to create: the docs show it, and a fuzzer's first phase
    posts it, so a game exists at once and the links from its answer lead
    the later phases into the game's paths."""
    games = [info.name for info in infos]
    first = infos[0]
    create_game = schema["components"]["schemas"]["CreateGame"]
    create_game["examples"] = [{"game": first.name, "players": [HUMAN] + ["mcts:easy"] * (first.min_players - 1)}]
    creating = create_game["properties"]
    creating["game"]["enum"] = games
    creating["players"]["items"]["pattern"] = f"^(?:{HUMAN}|{spec_pattern()[1:-1]})$"
    for parameter in schema["paths"]["/api/leaderboard/{game}"]["get"]["parameters"]:
        if parameter["name"] == "game":
            parameter["schema"]["enum"] = games


def describe_token_headers(schema: dict[str, Any]) -> None:
    """The ``X-Seat-Token`` header as what it is on the wire: optional text
    of a given form (FastAPI writes an optional header as "text or null")."""
    for operations in schema["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "header" and parameter["name"].lower() == TOKEN_HEADER.lower():
                    parameter["schema"] = {"type": "string", "pattern": TOKEN_LIST, "maxLength": MAX_SEATS * 66,
                                           "description": "the caller's seat tokens, comma-separated"}


#: OpenAPI links: where an answer's fields lead (what clients, and
#: schemathesis's stateful tests, follow): (from path, method, status) ->
#: {link name: (to path, method, parameters)}
LINKS: dict[tuple[str, str, str], dict[str, tuple[str, str, dict[str, str]]]] = {
    ("/api/games", "post", "201"): {
        "GetGame": ("/api/games/{game_id}", "get", {
            "path.game_id": "$response.body#/id", "header.X-Seat-Token": "$response.body#/seats/0/token"}),
        "MakeMove": ("/api/games/{game_id}/moves", "post", {
            "path.game_id": "$response.body#/id", "header.X-Seat-Token": "$response.body#/seats/0/token"}),
        "ClaimSeat": ("/api/games/{game_id}/seats/{seat}/claim", "post", {"path.game_id": "$response.body#/id"}),
        "GetRecord": ("/api/games/{game_id}/record", "get", {
            "path.game_id": "$response.body#/id", "header.X-Seat-Token": "$response.body#/seats/0/token"}),
        "GetReplay": ("/api/games/{game_id}/replay", "get", {"path.game_id": "$response.body#/id"}),
        "Rematch": ("/api/games/{game_id}/rematch", "post", {
            "path.game_id": "$response.body#/id", "header.X-Seat-Token": "$response.body#/seats/0/token"}),
    },
    ("/api/games", "get", "200"): {
        "GetListedGame": ("/api/games/{game_id}", "get", {"path.game_id": "$response.body#/0/id"}),
        "ReplayListedGame": ("/api/games/{game_id}/replay", "get", {"path.game_id": "$response.body#/0/id"}),
    },
    ("/api/accounts", "post", "201"): {
        "GetProfile": ("/api/players/{username}", "get", {"path.username": "$response.body#/username"}),
    },
}


def add_links(schema: dict[str, Any]) -> None:
    """Put :data:`LINKS` into the OpenAPI schema, by the targets' operation ids."""
    paths = schema["paths"]
    for (path, method, status), links in LINKS.items():
        response = paths[path][method]["responses"][status]
        response["links"] = {
            name: {"operationId": paths[target][to_method]["operationId"], "parameters": parameters}
            for name, (target, to_method, parameters) in links.items()
        }


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route answers at the request's path, for ``Allow``."""
    methods: set[str] = set()
    for route in app.router.routes:
        if route.matches(scope)[0] != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)


def _known(game: str, status: int = 400) -> None:
    """Refuse a game no plugin registers: 400 when a body names it, 404 when a path does."""
    if game not in {info.name for info in registered_games()}:
        names = ", ".join(info.name for info in registered_games())
        raise ServerError(status, _("unknown game {game}; games: {names}", game=repr(game), names=names))


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def summary(row: GameRow) -> GameSummary:
    return GameSummary(
        id=row.id, game=row.game, status=row.status, ply=row.version, moves=row.moves,
        players=[s.player for s in row.seats], names=[s.name for s in row.seats], guests=[s.guest for s in row.seats],
        open_seats=[s.seat for s in row.seats if s.human and not s.joined],
        joinable=[s.seat for s in row.seats if s.open_to_join], updated=row.updated, rated=row.rated,
        clock=row.clock, ended=row.result.get("ended", "end") if row.result else None,
    )


def player_profile(hub: Hub, username: str, viewer: Account | None) -> dict[str, Any]:
    """An account's ratings per game and its games, newest first, each with
    its seat, its result and its rating change; for the account itself, the
    games in which it is to move."""
    try:
        key = check_username(username)
    except ServerError:
        raise ServerError(404, _("no player {name}", name=username)) from None
    account = hub.store.account(key)
    if account is None:
        raise ServerError(404, _("no player {name}", name=username))
    games = []
    for row in hub.store.games_of(account.id):
        seat = next(s.seat for s in row.seats if s.account_id == account.id)
        entry: dict[str, Any] = {**summary(row).model_dump(), "seat": seat}
        if row.result:
            entry["score"] = row.result["scores"][seat]
            entry["outcome"] = outcome(row.result, seat)
            changes = row.result.get("ratings")
            entry["rating"] = changes[seat] if changes else None
        games.append(entry)
    mine = viewer is not None and viewer.id == account.id
    your_turn = []
    if mine:
        for entry in games:
            # a game still waiting for players is nobody's turn yet
            if entry["status"] == "playing" and hub.to_move(entry["id"]) == entry["seat"]:
                your_turn.append(entry["id"])
    return {
        "username": account.username,
        "you": mine,
        "ratings": {game: {"rating": shown_rating(r), "mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "games": r.games}
                    for game, r in sorted(hub.store.ratings_of(account.id).items())},
        "games": games,
        "your_turn": your_turn,
    }


def outcome(result: dict[str, Any], seat: int) -> str:
    """A seat's end of a finished game: "win", "shared" (the first place
    with others), "loss", or "abandoned"."""
    ranks = result.get("ranks")
    if result.get("ended") == "abandoned" or ranks is None:
        return "abandoned"
    if ranks[seat] != 1:
        return "loss"
    return "win" if ranks.count(1) == 1 else "shared"


class _Socket:
    """A connected WebSocket client and the seats it holds."""

    def __init__(self, websocket: WebSocket):
        self.websocket = websocket
        self.seats: list[int] = []
        self.picture = False
        self.narrow = False
        self.lang = current_language()
        self._sending = asyncio.Lock()

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send ``message`` (a dict, or its JSON text)."""
        async with self._sending:
            await self.websocket.send_text(message if isinstance(message, str) else json.dumps(message))

    async def receive(self) -> Any:
        """The next message, parsed. A message that is not JSON text (a
        binary frame, nesting past the limit) or is over the size limit is
        a ServerError, which the caller answers."""
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        text = message.get("text")
        if text is None:
            raise ServerError(422, _("a message must be JSON text, not a binary frame"))
        if len(text) > MAX_BODY or len(text.encode()) > MAX_BODY:
            raise ServerError(413, _("a message is at most {max_body} bytes", max_body=MAX_BODY))
        try:
            return jsontext.loads(text)
        except jsontext.TooDeepError:
            raise ServerError(422, _("a message must be JSON nested at most {depth} levels deep",
                                     depth=jsontext.MAX_DEPTH)) from None
        except ValueError:
            raise ServerError(422, _("a message must be JSON")) from None


def is_move_message(message: Any) -> bool:
    """Whether a WebSocket message has the shape of a move, as ``MoveIn``
    has over HTTP: text of at most 200 characters and a whole ply (not ``true``)."""
    if not isinstance(message, dict):
        return False
    move, ply = message.get("move"), message.get("ply")
    whole = isinstance(ply, (int, float)) and not isinstance(ply, bool) and math.isfinite(ply) and ply == int(ply)
    return isinstance(move, str) and len(move) <= 200 and whole and 0 <= ply <= MAX_PLY


def _tokens_in(hello: Any) -> list[str]:
    """The tokens of a WebSocket's first message, checked like the header's."""
    tokens = hello.get("tokens", []) if isinstance(hello, dict) else None
    if not isinstance(tokens, list) or not all(isinstance(t, str) and "," not in t for t in tokens):
        raise ServerError(422, _('the first message is {"tokens": [...]} (an empty list to watch)'))
    return tokens_from(",".join(tokens))
