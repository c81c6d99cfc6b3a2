"""The served games: checking and committing moves, telling every client,
and running AI seats off the event loop.

Each game in play has a :class:`Room` in memory: its row, its state rebuilt
from the stored actions, a lock that puts its moves in order, and the
connected clients. A move is checked against the room's state, applied to a
copy, the chance outcomes that follow are drawn, and the new actions are
committed; only then does the room take the new state and every client get
its own view. Chance is drawn from the game's secret seed and the ply, so a
restarted server continues exactly as it would have.

Several server processes may serve one site from one database. A room in
memory is checked against the store's revision of its game before it is
used, and brought up to date from the store when another process wrote to
it (:meth:`Hub.catch_up`); on PostgreSQL each write is announced, so that
every process tells its own watchers at once (``server.changes``). A game's
computer seats and clock are served by the one process holding its lease
(``Store.take_lease``), renewed with the heartbeat; when that process dies,
another takes the game over within :data:`LEASE` seconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import secrets
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from anyio import CapacityLimiter, to_thread

import tileworks
from tileworks.core.scoring import announce, breakdown, recording, totals_by_kind
from tileworks.core.i18n import LANGUAGES, _, current_language, gettext, language
from tileworks.core.registry import registered_games
from tileworks.agents import SERVED_LIMITS, Agent, check_plays, make, over_limit, parse_spec
from tileworks.core import SPECTATOR, IllegalActionError, State, sample_chance
from tileworks.core.records import make_record
from tileworks.core.svg import preview_overlay
from tileworks.core.text import seat_name
from tileworks.server import clocks, ratings
from tileworks.server.errors import ServerError
from tileworks.server.store import Account, GameRow, SeatRow, Store

log = logging.getLogger("tileworks.server")

HUMAN = "human"
#: most seats one game may have (the largest of any game's player counts)
MAX_SEATS = 8
#: games kept in memory; beyond this, idle ones (no client, no AI thinking)
#: are dropped, least recently used first, and reloaded from the store on demand
MAX_ROOMS = 2000
#: seconds between the heartbeats that tell a restarted server how long it was
#: down, renew this process's leases and look for games nobody serves
HEARTBEAT = 2.0
#: seconds a lease lasts unrenewed: a dead process's games are taken over after this
LEASE = 3 * HEARTBEAT
#: a game in which nothing happens for this long (and no clock runs) ends as abandoned
ABANDON_AFTER = 7 * 24 * 3600.0


class Client(Protocol):
    seats: list[int]
    picture: bool
    lang: str

    async def send(self, message: dict[str, Any]) -> None: ...


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def settle(state: State, seed: str) -> None:
    """Draw every chance outcome up to the next decision (or the end). Each
    draw's randomness comes from the secret seed and the ply alone."""
    while state.is_chance_node():
        rng = random.Random(f"{seed}:{len(state.history())}")
        state.apply_action(sample_chance(state, rng))


def think(name: str, options: dict[str, Any], history: list[int], spec: str, seed: int) -> int:
    """An AI seat's move (run in a worker process): rebuild the state, search
    within the served limits (so a game stored before them keeps to them too)."""
    state = tileworks.load_game(name, **options).new_initial_state()
    for action in history:
        state.apply_action(action)
    return served_agent(spec, seed).step(state)


def served_agent(spec: str, seed: int) -> Agent:
    """The agent a computer seat plays with here: its spec, every parameter
    cut to the served limits and its time budget within theirs."""
    return make(spec, seed=seed, limits=SERVED_LIMITS)


def _log_failure(task: asyncio.Task[None]) -> None:
    """Log what ended a background task (a clock's or a computer seat's) by an exception."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a game's background task failed", exc_info=task.exception())


def start_ai_worker() -> None:
    """Run in each AI worker as it starts: its matrix products on one
    thread (a worker a core), and its end the moment the
    server process ends, however it ends (SIGKILL included), even in the
    middle of a search. (Otherwise a worker waits on its task queue forever,
    and keeps multiprocessing's resource tracker alive with it.)"""
    from tileworks.agents.network import one_thread_for_products

    one_thread_for_products()
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - not started by a pool
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])  # readable once the parent is gone
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


@dataclass
class Room:
    row: GameRow
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Any] = field(default_factory=set)
    #: views of the current state by viewer and language (many clients share one)
    views: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    pictures: dict[tuple[int, str], str] = field(default_factory=dict)
    narrow_pictures: dict[tuple[int, str], str] = field(default_factory=dict)  # a phone's layout
    #: JSON text by language: each picture, by (viewer, narrow), and the move log, by "moves"
    encoded: dict[tuple[Any, str], str] = field(default_factory=dict)
    views_at: int = -1
    #: the players' moves so far, in notation (public in every game); it only grows
    log: list[dict[str, Any]] = field(default_factory=list)
    #: the log's entries as JSON text, each encoded once
    log_encoded: list[str] = field(default_factory=list)
    thinking: asyncio.Task[None] | None = None
    #: waits for the running clock's deadline
    timer: asyncio.Task[None] | None = None

    def log_json(self) -> str:
        """The move log as JSON text (what ``json.dumps(self.log)`` gives),
        encoding only the entries added since the last call: a client is
        sent the whole log with each move, and encoding it whole made a
        move's cost grow with the game."""
        for entry in self.log[len(self.log_encoded):]:
            self.log_encoded.append(json.dumps(entry))
        return "[" + ", ".join(self.log_encoded) + "]"

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def over(self) -> bool:
        """Finished: by the rules, by a clock that ran out, or abandoned."""
        return self.row.status == "finished"

    def needs_server(self) -> bool:
        """The game waits on the server: a computer's decision, or a clock's deadline."""
        return needs_server(self.row.status, self.row.turn_started, self.row.seats, self.state, self.out_of_time())

    def out_of_time(self) -> set[int]:
        """The seats whose clock has run out: the computer decides for them
        to the end, and they are placed last."""
        out = {entry["seat"] for entry in self.log if entry.get("timed_out")}
        return out | set((self.row.result or {}).get("out_of_time", ()))

    def to_move(self) -> int | None:
        """The seat to decide (None: the game is over)."""
        return None if self.over or self.state.is_terminal() else self.state.current_player()


class Hub:
    """Every game this server hosts, loaded on demand from the store."""

    def __init__(self, store: Store, ai_workers: int = 2, max_rooms: int = MAX_ROOMS,
                 abandon_after: float = ABANDON_AFTER):
        self.store = store
        self.abandon_after = abandon_after
        self._background: list[asyncio.Task[None]] = []
        #: rooms in memory, least recently used first
        self.rooms: dict[str, Room] = {}
        self.max_rooms = max_rooms
        self._loading: dict[str, asyncio.Lock] = {}
        self.ai_workers = ai_workers
        self.pool: ProcessPoolExecutor | None = None
        #: the games whose computer seats and clock this process serves (their leases)
        self.serving: set[str] = set()
        self._store_threads: CapacityLimiter | None = None

    # -- lifecycle -------------------------------------------------------------------------
    async def start(self) -> None:
        """Give back to the running clocks the time no server ran, open the
        AI pool, resume thinking wherever an AI seat is to move, and start
        the heartbeat and the sweep for abandoned games."""
        now = time.time()
        since = await self._in_thread(self.store.alive_at)
        # another process of the site beat within two heartbeats: the site was never down
        if since is not None and now - since > 2 * HEARTBEAT:
            moved = await self._in_thread(self.store.give_back, since, now)
            if moved:
                log.info("gave %.1f s of downtime back to the clocks of %d games", now - since, len(moved))
        await self._in_thread(self.store.beat, now)
        self.pool = self._new_pool()
        await self._take_over()
        loop = asyncio.get_running_loop()
        self._background = [loop.create_task(self._heartbeat()), loop.create_task(self._sweep())]
        if self.store.announces:
            from tileworks.server.changes import listen

            self._background.append(loop.create_task(listen(self.store, self.changed, self.watched)))

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        for room in self.rooms.values():
            for task in (room.thinking, room.timer):
                if task:
                    task.cancel()
        if self.pool:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
        await self._in_thread(self.store.beat, time.time())  # down from now: the next start gives it back
        for game_id in list(self.serving):  # the other processes take them over at once
            await self._in_thread(self.store.release_lease, game_id, self.store.origin)
        self.serving.clear()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._in_thread(self.store.beat, time.time())
                held = await self._in_thread(self.store.renew_leases, self.store.origin, LEASE)
                for game_id in self.serving - held:  # lost (this process stalled): its new holder serves it
                    self._stop_serving(game_id)
                await self._take_over()
            except Exception:  # the database is away for a moment: the next beat tries again
                log.exception("heartbeat failed")

    async def _take_over(self) -> None:
        """Serve the games whose computer or clock waits and that no live
        process serves: at start, and each heartbeat (a process died)."""
        for game_id in await self._in_thread(self.store.unserved):
            try:
                room = await self.room(game_id)
            except ServerError:  # gone meanwhile
                continue
            if not await self.tend(room):  # marked by an older server, or a migration: nothing waits
                await self._in_thread(self.store.needs_nothing, game_id, room.row.revision)

    async def tend(self, room: Room) -> bool:
        """Serve the room's computer seat or clock if it needs the server and
        this process holds (or now takes) its lease; let the lease go when it
        needs nothing. Called after every change of the room; False when
        nothing waits on the server."""
        if not room.needs_server():
            if room.id in self.serving:
                self._stop_serving(room.id)
                await self._in_thread(self.store.release_lease, room.id, self.store.origin)
            return False
        if room.id not in self.serving:
            if not await self._in_thread(self.store.take_lease, room.id, self.store.origin, LEASE):
                return True  # another process serves it
            self.serving.add(room.id)
        self.schedule_ai(room)
        self.schedule_clock(room)
        return True

    def _stop_serving(self, game_id: str) -> None:
        self.serving.discard(game_id)
        room = self.rooms.get(game_id)
        if room is not None and room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()

    async def _sweep(self) -> None:
        """End, as abandoned, every game in which nothing has happened for
        ``abandon_after`` seconds (and no clock runs); look again every
        hour, or more often when the limit is short."""
        while True:
            try:
                cutoff = time.time() - self.abandon_after
                for game_id in await self._in_thread(self.store.stale, cutoff):
                    room = await self.room(game_id)
                    async with room.lock:
                        if not room.over:
                            await self._finish_early(room, "abandoned", idle_since=cutoff)
            except Exception:
                log.exception("sweeping abandoned games failed")
            await asyncio.sleep(min(3600.0, max(0.05, self.abandon_after / 10)))

    # -- creating --------------------------------------------------------------------------
    async def create(self, name: str, options: dict[str, Any], players: list[str],
                     rematch_of: Room | None = None, public: tuple[int, ...] = (),
                     account: Account | None = None, guest: str | None = None, rated: bool = False,
                     clock: dict[str, Any] | None = None) -> tuple[Room, dict[int, str]]:
        """A new game; returns its room and a token for each human seat (a
        rematch's human seats are claimed later by the old seats' holders;
        ``public`` seats by whoever claims them first from the games list).
        The creator's seats belong to its ``account`` (or carry its ``guest``
        name). A ``rated`` game seats one account per seat and only the
        computer levels; ``clock`` is a checked time control."""
        try:
            game = tileworks.load_game(name, **options)
        except ValueError as error:
            raise ServerError(400, str(error)) from None
        if len(players) != game.num_players():
            raise ServerError(400, _("{game} with these options has {seats} seats, but {count} players were given",
                                     game=name, seats=game.num_players(), count=len(players)))
        for seat in public:
            if not 0 <= seat < len(players) or players[seat] != HUMAN:
                raise ServerError(400, _("open seat {seat}: only a human seat can be left open to join", seat=seat + 1))
        for player in players:
            if player != HUMAN:
                try:
                    parse_spec(player)
                except ValueError as error:
                    raise ServerError(400, _("seat player {player}: {error}; or 'human'", player=repr(player), error=error)) from None
                found = over_limit(player)
                if found is not None:
                    raise ServerError(400, _("seat player {player}: {parameter} is at most {limit} on this server "
                                             "(the strongest level's budget)",
                                             player=repr(player), parameter=found[0], limit=f"{found[1]:g}"))
                try:
                    check_plays(player, game)
                except ValueError as error:
                    raise ServerError(400, _("seat player {player}: {error}", player=repr(player), error=error)) from None
        if rated:
            _check_rated(players, public, account, rematch_of)
        seed = secrets.token_hex(16)
        state = game.new_initial_state()
        settle(state, seed)
        tokens: dict[int, str] = {}
        seat_rows = []
        for seat, player in enumerate(players):
            token_digest = claim = None
            holder, shown_name = None, None
            if player == HUMAN and seat in public:
                pass  # claimed later, from the games list
            elif player == HUMAN:
                if rematch_of is None:
                    tokens[seat] = secrets.token_urlsafe(24)
                    token_digest = token_hash(tokens[seat])
                    holder, shown_name = (account.id, account.username) if account else (None, guest)
                else:  # the holder of the seat that moves here may claim it
                    old = rematch_of.row.seats[(seat - 1) % len(players)]
                    claim, holder, shown_name = old.token_hash, old.account_id, old.name
            seat_rows.append(SeatRow(seat, player, token_digest, claim, joined=False, public=seat in public,
                                     account_id=holder, name=shown_name,
                                     remaining=clocks.starting_time(clock) if player == HUMAN else None))
        now = time.time()
        row = GameRow(
            id=secrets.token_urlsafe(9), game=name, options=game.json_options(), status="open",
            version=len(state.history()), seed=seed, created=now, updated=now, result=None,
            rematch_of=rematch_of.id if rematch_of else None, rematch=None, seats=seat_rows,
            rated=rated, clock=clock,
        )
        row.status = _status(row, state)
        row.result = _result(state, [], set())
        if row.status == "playing" and clock and row.seats[state.current_player()].human:
            row.turn_started = now
        room = Room(row, state)
        await self._in_thread(self.store.create, row, state.history(), room.needs_server())
        self._keep(room)
        if rematch_of is not None:
            rematch_of.row.rematch = row.id
            rematch_of.row.revision += 1
            await self.broadcast(rematch_of)
        log.info("created %s game %s", name, row.id)
        await self.tend(room)
        return room, tokens

    async def rematch(self, room: Room, tokens: list[str], account: Account | None = None) -> tuple[Room, dict[int, str]]:
        """The same game again with the seats rotated (seat s moves to s + 1).
        The first caller creates it; each caller gets a new token for every
        seat its tokens (or its account) held, which only they can claim."""
        held = self.seats_of(room, tokens, account, required=True)
        if not room.over:
            raise ServerError(409, _("a rematch can start only when the game is over"))
        async with room.lock:
            if room.row.rematch is None:
                players = [s.player for s in room.row.seats]
                await self.create(room.row.game, room.row.options, players[-1:] + players[:-1], rematch_of=room,
                                  rated=room.row.rated, clock=room.row.clock)
        new = await self.room(room.row.rematch)  # type: ignore[arg-type]
        claimed: dict[int, str] = {}
        async with new.lock:
            for old_seat in held:
                seat = (old_seat + 1) % len(new.row.seats)
                row = new.row.seats[seat]
                if row.claim_hash is None or row.claim_hash != room.row.seats[old_seat].token_hash:
                    raise ServerError(409, _("seat {seat} of the rematch was already claimed", seat=seat_name(seat)))
                claimed[seat] = secrets.token_urlsafe(24)
            await self._set_seats(new, {seat: {"token_hash": token_hash(token), "claim_hash": None}
                                        for seat, token in claimed.items()})
        return new, claimed

    async def claim(self, room: Room, seat: int, account: Account | None = None, guest: str | None = None) -> str:
        """Take an open seat: a new token for it, to whoever asks first. The
        seat belongs to the claimer's ``account`` (a rated game's seats must),
        or carries its ``guest`` name."""
        if not 0 <= seat < len(room.row.seats):
            raise ServerError(404, _("this game has no seat {seat}", seat=seat_name(seat)))
        async with room.lock:
            row = room.row.seats[seat]
            if not row.public:
                raise ServerError(403, _("seat {seat} is not open to join", seat=seat_name(seat)))
            if row.token_hash is not None:
                raise ServerError(409, _("seat {seat} was already taken", seat=seat_name(seat)))
            if room.row.rated and account is None:
                raise ServerError(401, _("log in to play a rated game"))
            if room.row.rated and any(s.account_id == account.id for s in room.row.seats):  # type: ignore[union-attr]
                raise ServerError(409, _("you already hold a seat in this rated game"))
            token = secrets.token_urlsafe(24)
            holder, name = (account.id, account.username) if account else (None, guest)
            await self._set_seats(room, {seat: {"token_hash": token_hash(token), "account_id": holder, "name": name}})
        return token

    async def _set_seats(self, room: Room, changes: dict[int, dict[str, Any]], **values: Any) -> None:
        """Write the seats' ``changes`` (and the game's ``values``, as
        ``Store.set_seats`` takes them), and make the room's copy the same.
        The caller holds the room's lock, so no catch-up sees the write
        before the room's revision counts it."""
        await self._in_thread(lambda: self.store.set_seats(room.id, changes, **values))
        for seat, change in changes.items():
            for key, value in change.items():
                setattr(room.row.seats[seat], key, value)
        room.row.revision += 1

    # -- finding games and seats -------------------------------------------------------------
    async def room(self, game_id: str) -> Room:
        """The game's room, up to date with the store."""
        room = self.rooms.pop(game_id, None)
        if room is not None:
            self.rooms[game_id] = room  # now the most recently used
            await self.catch_up(room)
            return room
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(game_id)
                if room is None:
                    room = await self._in_thread(self._load, game_id)
                    self._keep(room)
        finally:
            self._loading.pop(game_id, None)
        return room

    def _keep(self, room: Room) -> None:
        """Hold ``room`` in memory, dropping idle rooms beyond the limit. A
        dropped room's state is all in the store; a request still holding it
        is safe, because commits check the stored version."""
        self.rooms[room.id] = room
        if len(self.rooms) <= self.max_rooms:
            return
        for game_id, old in list(self.rooms.items()):
            if len(self.rooms) <= self.max_rooms:
                break
            busy = (old.clients or (old.thinking is not None and not old.thinking.done()) or old.lock.locked()
                    or (old.timer is not None and not old.timer.done()))
            if old is not room and not busy:
                del self.rooms[game_id]

    def _load(self, game_id: str) -> Room:
        found = self.store.load(game_id) if len(game_id) <= 24 else None
        if found is None:
            raise ServerError(404, _("no game {game_id}", game_id=repr(game_id)))
        row, history, timed_out = found
        state = tileworks.load_game(row.game, **row.options).new_initial_state()
        return Room(row, state, log=replay_log(state, history, timed_out))

    async def catch_up(self, room: Room) -> bool:
        """Bring ``room`` up to date with what other server processes wrote
        to its game (its moves, seats, status and clocks) when the store's
        revision is ahead of it; its clients stay. True when it changed."""
        stored = await self._in_store(self.store.revision, room.id)
        if stored is None or stored == room.row.revision:
            return False
        async with room.lock:
            return await self._catch_up(room)

    async def _in_store(self, call: Any, *args: Any) -> Any:
        """``call(*args)`` on the store: at once on a local SQLite file (a
        fraction of a millisecond, less than handing it to a thread costs),
        else in a worker thread."""
        return call(*args) if self.store.local else await self._in_thread(call, *args)

    async def _in_thread(self, call: Any, *args: Any) -> Any:
        """``call(*args)`` on the store in a worker thread, no more at once
        than the store keeps connections (more would open and close extra
        connections, which costs a database far more than waiting)."""
        if self._store_threads is None:
            self._store_threads = CapacityLimiter(self.store.connections)
        return await to_thread.run_sync(call, *args, limiter=self._store_threads)

    async def _catch_up(self, room: Room) -> bool:
        """:meth:`catch_up` under the room's lock: the row, and the actions
        since the room's version, replayed on its state with their log entries."""
        found = await self._in_thread(self.store.load, room.id, room.row.version)
        if found is None or found[0].revision == room.row.revision or found[0].version < room.row.version:
            return False
        row, new_actions, timed_out = found
        state = room.state.clone()
        entries = replay_log(state, new_actions, timed_out, first_ply=room.row.version) if new_actions else []
        room.row, room.state = row, state
        room.log.extend(entries)
        log.info("game %s: caught up to ply %d (revision %d)", room.id, row.version, row.revision)
        return True

    async def changed(self, game_id: str) -> None:
        """Another server process wrote to the game (PostgreSQL's NOTIFY): if
        someone here watches it, or this process serves it, catch up, tell
        the watchers and serve it. (Other rooms in memory catch up when next
        used.)"""
        room = self.rooms.get(game_id)
        if room is None or not (room.clients or game_id in self.serving):
            return
        async with room.lock:  # the announcement says the store is ahead: load at once
            changed = await self._catch_up(room)
        if changed:
            await self._moved(room)

    def watched(self) -> list[str]:
        """The games in memory here that someone watches."""
        return [game_id for game_id, room in self.rooms.items() if room.clients]

    def to_move(self, game_id: str) -> int | None:
        """The seat to move in a game (None: over), from memory, or rebuilt
        from the store without keeping it (called from a worker thread)."""
        room = self.rooms.get(game_id) or self._load(game_id)
        return room.to_move()

    def seats_of(self, room: Room, tokens: list[str], account: Account | None = None,
                 required: bool = False) -> list[int]:
        """The seats these tokens (every seat compared in constant time) and
        this logged-in ``account`` hold in this game. A token that holds no
        seat here is refused, and so is one for a seat that belongs to
        another account (or to an account, without its session)."""
        held = []
        for token in tokens:
            digest = token_hash(token)
            found = None
            for seat in room.row.seats:
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                    found = seat
            if found is None:
                raise ServerError(403, _("that token holds no seat in this game"))
            if found.account_id is not None and (account is None or account.id != found.account_id):
                raise ServerError(403, _("seat {seat} belongs to an account: log in as its holder", seat=seat_name(found.seat)))
            if found.seat not in held:
                held.append(found.seat)
        if account is not None:
            held += [s.seat for s in room.row.seats if s.account_id == account.id and s.seat not in held]
        if required and not held:
            raise ServerError(403, _("this needs a seat's token"))
        return held

    async def join(self, room: Room, seats: list[int]) -> None:
        """Seats whose holder has arrived; the game leaves 'open' once all have."""
        if all(room.row.seats[s].joined for s in seats):
            return
        # under the lock: a catch-up meanwhile would take this process's own write for another's
        async with room.lock:
            fresh = [s for s in seats if not room.row.seats[s].joined]
            if not fresh:
                return
            for seat in fresh:
                room.row.seats[seat].joined = True
            status = _status(room.row, room.state)
            starts = None  # the clock starts when the last player arrives
            if (status == "playing" != room.row.status and room.row.clock
                    and room.row.seats[room.state.current_player()].human):
                starts = time.time()
            await self._set_seats(room, {seat: {"joined": True} for seat in fresh},
                                  status=status if status != room.row.status else None, turn_started=starts,
                                  needs_server=needs_server(status, starts or room.row.turn_started, room.row.seats,
                                                            room.state, room.out_of_time()))
            room.row.status = status
            if starts is not None:
                room.row.turn_started = starts
        await self.tend(room)
        await self.broadcast(room)

    # -- moves -----------------------------------------------------------------------------------
    async def move(self, room: Room, tokens: list[str], text: Any, ply: int, account: Account | None = None) -> None:
        if ply > room.row.version:  # a live client saw a move another process made: catch up with it
            await self.catch_up(room)
        held = self.seats_of(room, tokens, account, required=True)
        async with room.lock:
            action = self._checked_action(room, held, text, ply, room.out_of_time())
            await self._commit(room, action)
        await self.join(room, held)
        await self._moved(room)

    def preview(self, room: Room, tokens: list[str], text: Any, ply: int, narrow: bool = False,
                account: Account | None = None) -> str | None:
        """What the mover's move ``text`` would change on their picture
        (``core.svg.preview_overlay``), before they make it; only the seat to
        move may ask, for the position it sees (``ply``), and it changes nothing."""
        held = self.seats_of(room, tokens, account, required=True)
        state = room.state
        action = self._checked_action(room, held, text, ply)
        mover = state.current_player()
        now = self.picture(room, mover, narrow)
        return preview_overlay(now, state.svg_after(action, mover, narrow))

    @staticmethod
    def _checked_action(room: Room, held: list[int], text: Any, ply: int, out: set[int] = frozenset()) -> int:  # type: ignore[assignment]
        """The action ``text`` names for the seat to move, which ``held``
        must hold (and not be out of time: ``out``), in the position at
        ``ply``; else the ServerError that says why."""
        state = room.state
        if room.over:
            raise ServerError(409, _("the game is over"))
        if out and all(seat in out for seat in held):
            raise ServerError(409, _("{seat}'s clock ran out: the computer makes its moves to the end",
                                     seat=seat_name(held[0])))
        if ply != room.row.version:
            raise ServerError(409, _("stale move: it was sent for ply {ply}, but the game is at ply {now}",
                                     ply=ply, now=room.row.version))
        mover = state.current_player()
        if mover not in held or mover in out:
            raise ServerError(409, _("not your turn: {mover} is to move", mover=seat_name(mover)))
        try:
            return state.string_to_action(text)
        except ValueError as error:
            raise ServerError(400, str(error)) from None

    async def _commit(self, room: Room, action: int, timed_out: bool = False) -> None:
        """Apply ``action`` (legal, checked under the room's lock) and what
        chance draws next; store it all (the clocks, and the ratings a rated
        game's end changes, with it), then let the room take the new state.
        ``timed_out``: the server moves for a seat whose clock ran out."""
        version, row = room.row.version, room.row
        state = room.state.clone()
        mover = state.current_player()
        entry = log_entry(state, action)
        if timed_out:
            entry["timed_out"] = True
        with recording() as parts:
            state.apply_action(action)
            settle(state, row.seed)
        score_entry(entry, room.state, state, parts)
        new_actions = state.history()[version:]
        out = room.out_of_time() | ({mover} if timed_out else set())
        status, result = _status(row, state), _result(state, room.log + [entry], out)
        next_mover = None if state.is_terminal() else state.current_player()
        clocked = (next_mover is not None and status == "playing" and row.seats[next_mover].human
                   and next_mover not in out)
        timing = clocks.after_move(row, mover, next_mover, clocked, time.time()) if row.clock else None
        rate = self._rating(row, result) if state.is_terminal() else None
        waits = needs_server(status, timing[0] if timing else row.turn_started, row.seats, state, out)

        job = (room.id, version, new_actions, status, result, timed_out, timing, rate, waits)
        stored = await self._in_store(self.store.append, *job)
        if not stored:  # another server process moved first: take its state
            await self._catch_up(room)
            raise ServerError(409, _("another move was made first"))
        room.state = state
        room.log.append(entry)
        row.version = version + len(new_actions)
        row.moves += 1
        row.revision += 1
        row.status, row.result = status, result
        if timing is not None:
            row.turn_started = timing[0]
            for seat, left in timing[1].items():
                row.seats[seat].remaining = left
        log.info("game %s: ply %d -> %d", room.id, version, row.version)

    @staticmethod
    def _rating(row: GameRow, result: dict[str, Any]) -> Any:
        """What rates a rated game as it ends (in the same transaction), by its placing."""
        if not row.rated or result.get("ranks") is None:
            return None
        accounts = [s.account_id for s in row.seats]

        def rate(conn: Any) -> dict[str, Any]:
            return {"ratings": ratings.rate_game(conn, row.game, accounts, result["ranks"])}  # type: ignore[arg-type]

        return rate

    async def _finish_early(self, room: Room, ended: str, out: set[int] = frozenset(),  # type: ignore[assignment]
                            idle_since: float | None = None) -> None:
        """End the game before its rules do (under the room's lock): ``ended``
        is "time" (the clocks of all but one seat ran out: those seats are
        placed last) or "abandoned" (nobody placed). Every client is told."""
        row, state = room.row, room.state
        result: dict[str, Any] = {"returns": [0.0] * len(row.seats), "scores": state.scores(), "ended": ended,
                                  "ranks": None}
        if ended == "time":
            result["ranks"] = ratings.standing(result["returns"], result["scores"], out)
            result["out_of_time"] = sorted(out)
        timeouts = _timeouts(room.log)
        if timeouts:
            result["timeouts"] = timeouts
        rate = self._rating(row, result)
        emptied = {seat: 0.0 for seat in out if row.seats[seat].remaining is not None}
        if not await self._in_thread(self.store.finish, room.id, row.version, result, rate, idle_since, emptied):
            return  # a move (or, for an idle game, anything) got there first
        row.status, row.result, row.turn_started = "finished", result, None
        row.revision += 1
        for seat, left in emptied.items():
            row.seats[seat].remaining = left
        log.info("game %s ended: %s", room.id, ended)
        await self.broadcast(room)
        await self.tend(room)  # nothing waits now: the clock's timer stops and the lease goes

    # -- AI seats ----------------------------------------------------------------------------------
    def schedule_ai(self, room: Room) -> None:
        """Start the computer deciding, if a computer seat is to move, or a
        human seat whose clock has run out."""
        seat = room.to_move()
        if seat is None or (room.thinking is not None and not room.thinking.done()):
            return
        if room.row.seats[seat].player == HUMAN and seat not in room.out_of_time():
            return
        room.thinking = asyncio.get_running_loop().create_task(self._think(room, seat))
        room.thinking.add_done_callback(_log_failure)

    async def _think(self, room: Room, seat: int) -> None:
        player = room.row.seats[seat].player
        stand_in = player == HUMAN
        try:
            moved = await self._play_for(room, clocks.STAND_IN if stand_in else player,
                                         "clock" if stand_in else "ai", timed_out=stand_in)
        finally:
            room.thinking = None
        if moved:
            await self._moved(room)

    async def _play_for(self, room: Room, spec: str, salt: str, timed_out: bool = False) -> bool:
        """The computer player ``spec`` decides for the seat to move (its
        seed from the game's secret, ``salt`` and the ply) off the event
        loop; the decision is committed if the game has not moved meanwhile.
        False when the search failed (logged)."""
        version, seat = room.row.version, room.state.current_player()
        seed = int.from_bytes(hashlib.sha256(f"{room.row.seed}:{salt}:{version}".encode()).digest()[:8], "big")
        try:
            action = await self._search(room.row.game, room.row.options, room.state.history(), spec, seed)
            async with room.lock:
                if room.row.version == version and not room.over:
                    await self._commit(room, action, timed_out)
        except ServerError:  # another server process moved first; the next look sees its move
            pass
        except Exception:
            log.exception("%s deciding for P%d of game %s failed", spec, seat + 1, room.id)
            return False
        return True

    async def _moved(self, room: Room) -> None:
        """Tell every client, and start whatever the next decision needs (if
        this process serves the game)."""
        await self.broadcast(room)
        await self.tend(room)

    # -- clocks ------------------------------------------------------------------------------------
    def schedule_clock(self, room: Room) -> None:
        """Wait for the running clock's deadline (if any), replacing an
        earlier wait: each move calls this, and the new deadline wins."""
        if room.timer is not None and not room.timer.done():
            room.timer.cancel()
            room.timer = None
        seat = room.to_move()
        if seat is None or room.row.status != "playing" or seat in room.out_of_time():
            return
        due = clocks.deadline(room.row, seat)
        if due is not None:
            room.timer = asyncio.get_running_loop().create_task(self._flag(room, room.row.version, due))
            room.timer.add_done_callback(_log_failure)

    async def _flag(self, room: Room, version: int, due: float) -> None:
        """At ``due``, if the game has not moved, the seat whose clock ran
        out is out of time: it will be placed last. Left with one seat not
        out of time, the game ends there; with more, it goes on, the
        stand-in deciding for the seat to the end."""
        await asyncio.sleep(max(0.0, due - time.time()))
        await self.catch_up(room)  # a move made through another process just before the deadline counts
        if room.row.version != version or room.over:
            return
        seat = room.state.current_player()
        out = room.out_of_time() | {seat}
        if len(room.row.seats) - len(out) < 2:
            async with room.lock:
                if room.row.version == version and not room.over:
                    await self._finish_early(room, "time", out)
            return
        if not await self._play_for(room, clocks.STAND_IN, "clock", timed_out=True):
            return
        log.info("game %s: P%d's clock ran out; %s moves for it", room.id, seat + 1, clocks.STAND_IN)
        room.timer = None  # this task is done: the next deadline gets a task of its own
        await self._moved(room)

    async def _search(self, *job: Any) -> int:
        """Run ``think`` in the worker pool, replacing a pool whose process died."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self.pool
            if pool is None:
                raise RuntimeError("the server is stopping")
            try:
                return await loop.run_in_executor(pool, think, *job)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                if self.pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.pool = self._new_pool()
        raise AssertionError("unreachable")  # pragma: no cover

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.ai_workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=start_ai_worker)

    # -- telling clients -----------------------------------------------------------------------------
    async def broadcast(self, room: Room) -> None:
        for client in list(room.clients):
            try:
                with language(client.lang):
                    message = self.message(room, client.seats, client.picture, client.narrow)
                await client.send(message)
            except Exception:  # a client gone away: forget it
                room.clients.discard(client)

    def payload(self, room: Room, seats: list[int], picture: bool = False, narrow: bool = False) -> dict[str, Any]:
        """What a client holding ``seats`` sees (spectators: no seats). With
        ``picture``, also the SVG of its view (laid out for a phone when
        ``narrow``), the move list, and, for the seat to move, the clicks
        that make each legal move."""
        state, row = room.state, room.row
        viewer = viewer_of(state, seats)
        extra: dict[str, Any] = {}
        if picture:
            svg = self.picture(room, viewer, narrow)
            # chance and the end have no seat to move, and so no choices
            extra = {"svg": svg, "moves": room.log,
                     "choices": state.choices() if room.to_move() in seats and room.to_move() not in room.out_of_time()
                     else []}
        if room.over:
            extra["breakdown"] = score_breakdown(room)
        return {
            "type": "view",
            "id": row.id,
            "game": row.game,
            "options": row.options,
            "status": row.status,
            "ply": row.version,
            "moves_made": row.moves,
            "seats": [{"seat": s.seat, "player": s.player, "joined": s.joined, "open": s.open_to_join,
                       "name": s.name, "account": s.account_id is not None, "guest": s.guest} for s in row.seats],
            "rated": row.rated,
            "clock": clocks.shown(row, room.to_move(), time.time()),
            "you": seats,
            "viewer": viewer if viewer != SPECTATOR else None,
            "to_move": room.to_move(),
            "result": row.result,
            "rematch": row.rematch,
            "rematch_of": row.rematch_of,
            "view": self.view(room, viewer),
            **extra,
        }

    def message(self, room: Room, seats: list[int], picture: bool = False, narrow: bool = False) -> str:
        """:meth:`payload` as JSON text, for a live client. The picture and
        the move log, the bulk of it and the same for many clients, are
        encoded once a ply."""
        payload = self.payload(room, seats, picture, narrow)
        if not picture:
            return json.dumps(payload)
        svg = payload.pop("svg")
        del payload["moves"]  # sent as the room encodes it
        drawn = _cached(room, room.encoded, (room.state.picture_viewer(viewer_of(room.state, seats)), narrow),
                        lambda _: json.dumps(svg))
        told = _cached(room, room.encoded, "moves", lambda _: room.log_json())  # one log for every client
        return json.dumps(payload)[:-1] + f', "svg": {drawn}, "moves": {told}}}'  # a payload is never empty

    @staticmethod
    def view(room: Room, viewer: int) -> dict[str, Any]:
        return _cached(room, room.views, viewer, room.state.view)

    @staticmethod
    def picture(room: Room, viewer: int, narrow: bool = False) -> str:
        """The SVG of ``viewer``'s view, drawn once a ply for every client
        shown the same picture (in a game whose table every viewer sees
        whole, one picture serves the seats and the spectators)."""
        state = room.state
        return _cached(room, room.narrow_pictures if narrow else room.pictures, state.picture_viewer(viewer),
                       lambda seen: state.svg(seen, narrow))

    def record(self, room: Room, seats: list[int]) -> dict[str, Any]:
        """A finished game's full record; an unfinished game's history and
        view as the requester sees them."""
        state = room.state
        players = [s.player for s in room.row.seats]
        names = [{"name": s.name, "guest": s.guest} if s.name else None for s in room.row.seats]
        if room.over:
            result = room.row.result or {}
            return {**make_record(state, players), "names": names,
                    "outcome": {"ended": result.get("ended", "end"), "ranks": result.get("ranks"),
                                "out_of_time": result.get("out_of_time", [])}}
        viewer = viewer_of(state, seats)
        return {
            "format": "tileworks-partial-record",
            "version": 1,
            "game": room.row.game,
            "options": room.row.options,
            "players": players,
            "names": names,
            "viewer": viewer if viewer != SPECTATOR else None,
            "ply": room.row.version,
            "actions": state.visible_history(viewer),
            "view": state.view(viewer),
        }


def _cached(room: Room, cache: dict[tuple[Any, str], Any], viewer: Any, make: Any) -> Any:
    """``make(viewer)`` for the room's current ply in the current language,
    made once and shared by every client that sees the same (``viewer``: a
    seat, or what else tells the clients apart)."""
    if room.views_at != room.row.version:
        room.views.clear()
        room.pictures.clear()
        room.narrow_pictures.clear()
        room.encoded.clear()
        room.views_at = room.row.version
    key = (viewer, current_language())
    found = cache.get(key)
    if found is None:
        found = cache[key] = make(viewer)
    return found


def score_breakdown(room: Room) -> dict[str, Any]:
    """A finished game's scores as the game makes them: the kinds of part
    (label in the current language), and each seat's points of each kind."""
    info = next((i for i in registered_games() if i.name == room.row.game), None)
    kinds = [[kind, gettext(label)] for kind, label in (info.score_kinds if info else ())]
    return {"kinds": kinds, "seats": totals_by_kind(room.log, len(room.row.seats))}


def log_entry(state: State, action: int) -> dict[str, Any]:
    """A player's move for the log, before it is made: who, the notation,
    and the clicks on the picture that make it (a page marks the shapes
    they name as the last move; everything a move's clicks name is public
    once it is made)."""
    clicks = getattr(getattr(state, "notation", None), "clicks", None)
    made = [c for c in clicks(state, action) if "button" not in c] if clicks else []
    return {"seat": state.current_player(), "move": state.action_to_string(action), "clicks": made,
            "words": in_every_language(lambda: state.describe(action))}


def in_every_language(make: Any) -> dict[str, Any]:
    """``make()`` said in each language, by language code."""
    said = {}
    for code in LANGUAGES:
        with language(code):
            said[code] = make()
    return said


def score_entry(entry: dict[str, Any], before: State, after: State, parts: list[tuple[int, int, str]]) -> None:
    """Put what a move scored on its log entry: the points part by part, and
    the announcement in words in each language (a heading, if any, then a
    line per seat)."""
    entry["points"] = breakdown(parts, before.game().num_players())
    if entry["points"]:
        def said() -> list[str]:
            heading, lines = announce(before, after, parts)
            return ([heading] if heading else []) + lines

        entry["scoring"] = in_every_language(said)


def replay_log(state: State, history: list[int], timed_out: set[int] = frozenset(),  # type: ignore[assignment]
               first_ply: int = 0) -> list[dict[str, Any]]:
    """Play ``history`` (from ply ``first_ply`` on) on ``state``; the move
    log: each player's move in notation with the points it made, part by
    part (chance that followed included). ``timed_out``: plies the server
    played for a seat whose clock ran out. A history that starts after the
    first ply starts with a player's decision (the server draws chance to
    the next decision with each move)."""
    log: list[dict[str, Any]] = []
    before = state
    with recording() as parts:
        for ply, action in enumerate(history, start=first_ply):
            if not state.is_chance_node():
                if log:
                    score_entry(log[-1], before, state, parts)
                parts.clear()
                log.append(log_entry(state, action))
                before = state.clone()
                if ply in timed_out:
                    log[-1]["timed_out"] = True
            state.apply_action(action)
        if log:
            score_entry(log[-1], before, state, parts)
    return log


def position_after(room: Room, moves: int) -> State:
    """A finished game's position after its first ``moves`` player moves
    (and the chance outcomes that followed them)."""
    state = tileworks.load_game(room.row.game, **room.row.options).new_initial_state()
    made = 0
    for action in room.state.history():
        if not state.is_chance_node():
            if made == moves:
                break
            made += 1
        state.apply_action(action)
    return state


def viewer_of(state: State, seats: list[int]) -> int:
    """Whose eyes a client sees with: the seat to move if it holds it (hot
    seat), else its first seat, else a spectator's."""
    if not seats:
        return SPECTATOR
    mover = state.current_player()
    return mover if mover in seats else seats[0]


def needs_server(status: str, turn_started: float | None, seats: list[SeatRow], state: State, out: set[int]) -> bool:
    """A game waits on the server: a computer seat (or a seat out of time)
    is to decide, or the mover's clock runs toward a deadline."""
    if status == "finished" or state.is_terminal():
        return False
    seat = state.current_player()
    return seats[seat].player != HUMAN or seat in out or (status == "playing" and turn_started is not None)


def _status(row: GameRow, state: State) -> str:
    if state.is_terminal():
        return "finished"
    if any(s.player == HUMAN and not s.joined for s in row.seats):
        return "open"
    return "playing"


def _result(state: State, moves: list[dict[str, Any]], out: set[int]) -> dict[str, Any] | None:
    """A game that reached its end: its returns and scores, its placing (a
    seat whose clock ran out last: ``out``), and the moves the server made
    for those seats."""
    if not state.is_terminal():
        return None
    returns, scores = state.returns(), state.scores()
    result = {"returns": returns, "scores": scores, "ended": "end", "ranks": ratings.standing(returns, scores, out)}
    if out:
        result["out_of_time"] = sorted(out)
    timeouts = _timeouts(moves)
    if timeouts:
        result["timeouts"] = timeouts
    return result


def _timeouts(moves: list[dict[str, Any]]) -> list[dict[str, int]]:
    """The moves the server made for a seat whose clock had run out: whose, and which (1-based)."""
    return [{"seat": m["seat"], "move": i + 1} for i, m in enumerate(moves) if m.get("timed_out")]


def _check_rated(players: list[str], public: tuple[int, ...], account: Account | None, rematch_of: Room | None) -> None:
    """A rated game is between people: the creator logged in, every seat
    human, one seat per account."""
    if any(player != HUMAN for player in players):
        raise ServerError(400, _("a rated game is between people: every seat human, each held by an account "
                                 "(games against the computer are not rated)"))
    if rematch_of is None and account is None:
        raise ServerError(401, _("log in to play a rated game"))
    held = [s for s, p in enumerate(players) if p == HUMAN and s not in public]
    if rematch_of is None and len(held) > 1:
        raise ServerError(400, _("in a rated game each account holds one seat: leave the other human seats open to join"))


__all__ = ["HUMAN", "Hub", "IllegalActionError", "Room", "ServerError", "settle", "think", "token_hash"]
