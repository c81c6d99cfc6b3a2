"""Durable storage for served games (SQLAlchemy Core).

A game is its row in ``games``, one row per seat in ``seats``, and its
action list in ``actions``. The action list is the truth: a game's state is
rebuilt by replaying it. An accepted move is one transaction that appends
its actions and bumps the game's ``version`` only if the version is still the
one the move was checked against, so two racing moves can never both land,
even from two server processes on one database.

Tokens are never stored: a seat keeps the SHA-256 of its token.

SQLite (the default) runs in WAL mode with ``synchronous=NORMAL``; any other
SQLAlchemy URL (PostgreSQL, ...) works unchanged. ``create_all`` makes the
tables on first start; the schema carries a version in ``meta``, and an
older database is migrated in place on start (``MIGRATIONS``).

Several server processes may share one database (docs/server.md). Each
write to a game bumps its ``revision``, so a process can tell that its copy
in memory is behind; on PostgreSQL a trigger on that column (:data:`ANNOUNCE`)
sends ``NOTIFY`` on :data:`CHANNEL` in the same transaction (delivered when it
commits), so that every process with watchers of the game hears of it
(``server.changes``). A move is one statement there (:meth:`Store.append`),
one round trip to the database besides the pool's check of the connection. The computer's
decisions and the clocks' deadlines of a game are taken care of by one
process at a time, the holder of its row in ``leases``.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import (
    ARRAY, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, and_, bindparam, create_engine,
    delete, event, func, insert, select, text, true, update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import QueuePool

SCHEMA_VERSION = 5
#: schema upgrades in place: version -> steps that reach the next one, each
#: an SQL statement or a function of the connection (new tables are made by
#: ``create_all``)
MIGRATIONS: dict[int, list[str | Callable[[Any], None]]] = {
    1: ["ALTER TABLE seats ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE"],
    2: ["ALTER TABLE seats ADD COLUMN account_id INTEGER",
        "ALTER TABLE seats ADD COLUMN name VARCHAR(40)",
        "ALTER TABLE seats ADD COLUMN remaining FLOAT",
        "ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE",
        "ALTER TABLE games ADD COLUMN clock TEXT",
        "ALTER TABLE games ADD COLUMN turn_started FLOAT",
        "ALTER TABLE actions ADD COLUMN timed_out BOOLEAN NOT NULL DEFAULT FALSE",
        "CREATE INDEX IF NOT EXISTS ix_seats_account_id ON seats (account_id)"],
    3: ["ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0",
        lambda conn: _fair_play(conn)],
    4: ["ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN needs_server BOOLEAN NOT NULL DEFAULT FALSE",
        # the first server to start looks at every game not over, and clears what needs nothing
        "UPDATE games SET needs_server = (status <> 'finished')"],
}
#: the PostgreSQL channel on which each write to a game is announced: "GAME_ID ORIGIN"
CHANNEL = "tileworks_games"
#: PostgreSQL: every write that bumps a game's revision announces it on
#: CHANNEL, signed with the writing process (its connections' setting
#: ``tileworks.origin``): a trigger, so that the write and its announcement
#: are one statement, and no write can forget it
ANNOUNCE = [
    f"""CREATE OR REPLACE FUNCTION tileworks_announce() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('{CHANNEL}', NEW.id || ' ' || coalesce(current_setting('tileworks.origin', true), ''));
            RETURN NULL;
        END $$""",
    # made only where missing: replacing a trigger locks the table against the running processes' moves
    """DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_trigger WHERE tgname = 'games_announce' AND tgrelid = 'games'::regclass) THEN
            CREATE TRIGGER games_announce AFTER UPDATE OF revision ON games FOR EACH ROW
                WHEN (NEW.revision IS DISTINCT FROM OLD.revision) EXECUTE FUNCTION tileworks_announce();
        END IF;
    END $$""",
]
#: the PostgreSQL advisory lock held while a process makes or migrates the schema
SCHEMA_LOCK = 0x7469_6C65
#: database connections a server process keeps open (PostgreSQL), as many
#: as it runs store calls at once; as many again may open for a moment
#: beside them (requests for accounts and ratings at a busy time)
CONNECTIONS = 10

metadata = MetaData()

meta = Table(
    "meta", metadata,
    Column("key", String(32), primary_key=True),
    Column("value", String(64), nullable=False),
)

games = Table(
    "games", metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),          # JSON: every option, defaults included
    Column("status", String(16), nullable=False, index=True),  # open | playing | finished
    Column("version", Integer, nullable=False),       # number of actions stored
    Column("moves", Integer, nullable=False, default=0),  # of which players' decisions
    Column("seed", String(64), nullable=False),       # secret: chance outcomes and AI seeds
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("result", Text),                           # JSON once finished
    Column("rematch_of", String(24)),
    Column("rematch", String(24)),
    Column("rated", Boolean, nullable=False, default=False),
    Column("clock", Text),                            # JSON time control; NULL: untimed
    Column("turn_started", Float),                    # when the mover's clock started (NULL: none runs)
    Column("revision", Integer, nullable=False, default=0),  # bumped by every write to the game
    Column("needs_server", Boolean, nullable=False, default=False, index=True),  # a computer or a clock to serve
)

leases = Table(
    "leases", metadata,
    Column("game_id", String(24), primary_key=True),
    Column("holder", String(96), nullable=False),    # the server process that serves the game's computer and clock
    Column("expires", Float, nullable=False),        # renewed while the holder lives
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(24), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(200), nullable=False),    # "human" or an agent spec
    Column("token_hash", String(64), index=True),     # humans: SHA-256 of the seat's token
    Column("claim_hash", String(64)),                 # rematch: the old seat's token hash may claim it
    Column("joined", Boolean, nullable=False, default=False),
    Column("public", Boolean, nullable=False, default=False),  # anyone may claim it from the games list
    Column("account_id", Integer, ForeignKey("accounts.id"), index=True),  # the account that holds it
    Column("name", String(40)),                       # the name shown: a guest's choice or the account's
    Column("remaining", Float),                       # real-time clock: seconds left at turn_started
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(24), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("action", Integer, nullable=False),
    Column("timed_out", Boolean, nullable=False, default=False),  # made by the server when a clock ran out
)

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(24), nullable=False),   # as its holder typed it
    Column("key", String(24), nullable=False, unique=True),  # casefolded: one account per name, whatever the case
    Column("password_hash", String(200), nullable=False),  # argon2id, never sent anywhere
    Column("created", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the cookie's secret
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

ratings = Table(
    "ratings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(32), primary_key=True, index=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)


@dataclass
class SeatRow:
    seat: int
    player: str
    token_hash: str | None
    claim_hash: str | None
    joined: bool
    public: bool = False
    account_id: int | None = None
    name: str | None = None
    #: a real-time clock's seconds left when the game's ``turn_started``
    remaining: float | None = None

    @property
    def human(self) -> bool:
        return self.player == "human"

    @property
    def guest(self) -> bool:
        """A person playing under a name of their choosing, with no account."""
        return self.human and self.name is not None and self.account_id is None

    @property
    def open_to_join(self) -> bool:
        """Left open when the game was made, and nobody has taken it yet."""
        return self.public and self.token_hash is None


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    seed: str
    created: float
    updated: float
    result: dict[str, Any] | None
    rematch_of: str | None
    rematch: str | None
    seats: list[SeatRow] = field(default_factory=list)
    rated: bool = False
    clock: dict[str, Any] | None = None
    turn_started: float | None = None
    #: the players' decisions among the ``version`` actions
    moves: int = 0
    #: how many writes the game has had (its copy in memory is behind when the store's is higher)
    revision: int = 0


@dataclass
class Account:
    id: int
    username: str


@dataclass
class Rating:
    mu: float
    sigma: float
    games: int = 0


def default_url(data_dir: str | Path) -> str:
    path = Path(data_dir)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'tileworks.db'}"


def connect(url: str) -> Engine:
    """An engine for ``url`` with the schema in place."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if ":memory:" not in url and url != "sqlite://":
                cursor.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit is durable once it returns, against any
            # crash of the server process (SIGKILL included); only a power
            # cut or OS crash could lose the last moments
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    else:
        # kept open: a connection opened for a moment and closed again costs
        # PostgreSQL a new backend process, more than the query itself
        engine = create_engine(url, pool_pre_ping=True, pool_size=CONNECTIONS, max_overflow=CONNECTIONS)
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # processes starting at once make or migrate the schema one by one
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        metadata.create_all(conn)
        found = conn.execute(select(meta.c.value).where(meta.c.key == "schema")).scalar()
        if found is None:
            conn.execute(insert(meta).values(key="schema", value=str(SCHEMA_VERSION)))
        elif int(found) > SCHEMA_VERSION:
            raise RuntimeError(f"the database has schema {found}, newer than this tileworks ({SCHEMA_VERSION})")
        else:
            version = int(found)
            while version < SCHEMA_VERSION:
                for step in MIGRATIONS[version]:
                    conn.execute(text(step)) if isinstance(step, str) else step(conn)
                version += 1
            conn.execute(update(meta).where(meta.c.key == "schema").values(value=str(version)))
        if engine.dialect.name == "postgresql":
            for statement in ANNOUNCE:
                conn.execute(text(statement))
    return engine


class Store:
    """Synchronous storage calls; the server runs them in worker threads
    (moves on a local SQLite file directly)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        #: a local SQLite file: a commit takes a fraction of a millisecond,
        #: less than handing it to a worker thread costs
        self.local = engine.dialect.name == "sqlite"
        #: PostgreSQL: writes are announced with NOTIFY, for the other server processes
        self.announces = engine.dialect.name == "postgresql"
        #: store calls to run at once (the connections the pool keeps open)
        self.connections = engine.pool.size() if isinstance(engine.pool, QueuePool) else CONNECTIONS
        #: this server process, as it signs its leases and announcements
        self.origin = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: one statement, committed as it runs (a move with nothing else to write)
        self.autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        #: for reading: on PostgreSQL each statement sees the latest commits
        #: inside a transaction or not (READ COMMITTED), so reads run outside
        #: one, sparing its BEGIN and ROLLBACK round trips
        self.reads = self.autocommit if self.announces else engine
        if self.announces:
            sign_connections(engine, self.origin)

    def _changed(self, conn: Any, game_id: str, **values: Any) -> None:
        """Count a write to the game (with ``values`` to set); on PostgreSQL
        it is announced when the transaction commits."""
        conn.execute(update(games).where(games.c.id == game_id).values(revision=games.c.revision + 1, **values))

    def create(self, row: GameRow, first_actions: list[int], needs_server: bool = False) -> None:
        """A new game; ``needs_server`` as in :meth:`append`."""
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(needs_server=needs_server, revision=row.revision,
                id=row.id, game=row.game, options=json.dumps(row.options), status=row.status,
                version=len(first_actions), moves=row.moves, seed=row.seed, created=row.created,
                updated=row.updated,
                result=json.dumps(row.result) if row.result is not None else None,
                rematch_of=row.rematch_of, rematch=None, rated=row.rated,
                clock=json.dumps(row.clock) if row.clock else None, turn_started=row.turn_started,
            ))
            conn.execute(insert(seats), [
                {"game_id": row.id, "seat": s.seat, "player": s.player, "token_hash": s.token_hash,
                 "claim_hash": s.claim_hash, "joined": s.joined, "public": s.public,
                 "account_id": s.account_id, "name": s.name, "remaining": s.remaining}
                for s in row.seats
            ])
            if first_actions:
                conn.execute(insert(actions), [
                    {"game_id": row.id, "ply": i, "action": a} for i, a in enumerate(first_actions)
                ])
            if row.rematch_of:
                self._changed(conn, row.rematch_of, rematch=row.id)

    def append(self, game_id: str, version: int, new_actions: list[int], status: str,
               result: dict[str, Any] | None, timed_out: bool = False,
               clocks: tuple[float | None, dict[int, float]] | None = None,
               rate: Callable[[Any], dict[str, Any]] | None = None, needs_server: bool | None = None) -> bool:
        """Commit ``new_actions`` after the first ``version`` actions. False
        (and nothing written) when another move got there first.

        The first action is a player's decision; the rest are the chance
        outcomes that followed it. ``timed_out``: the first action was the server's, for a seat whose
        clock ran out. ``clocks``: the new ``turn_started`` and the seats'
        new seconds left. ``rate(conn)`` runs in the same transaction (the
        ratings a finished rated game changes), so a game is rated exactly
        once, with its last move; what it returns joins ``result``.
        ``needs_server``: the next decision is a computer's, or a clock runs."""
        values: dict[str, Any] = dict(version=version + len(new_actions), status=status, updated=time.time(),
                                      result=json.dumps(result) if result is not None else None)
        if clocks is not None:
            values["turn_started"] = clocks[0]
        if needs_server is not None:
            values["needs_server"] = needs_server
        # on PostgreSQL a move with nothing else to write is one statement, committed as it runs
        alone = self.announces and clocks is None and (rate is None or result is None)
        with (self.autocommit if alone else self.engine).begin() as conn:
            if not _move_written(conn, game_id, version, values, new_actions, timed_out):
                return False
            if clocks is not None:
                for seat, left in clocks[1].items():
                    conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                                 .values(remaining=left))
            if rate is not None and result is not None:
                result.update(rate(conn))
                conn.execute(update(games).where(games.c.id == game_id).values(result=json.dumps(result)))
        return True

    def finish(self, game_id: str, version: int, result: dict[str, Any],
               rate: Callable[[Any], dict[str, Any]] | None = None, idle_since: float | None = None,
               remaining: dict[int, float] | None = None) -> bool:
        """End a game before its rules do (a clock that ran out, a game
        abandoned), if it is still at ``version``, not over, and (with
        ``idle_since``) untouched since then: False (and nothing written)
        otherwise. ``rate`` as in :meth:`append`; ``remaining``: seats' clocks to set."""
        where = [games.c.id == game_id, games.c.version == version, games.c.status != "finished"]
        if idle_since is not None:
            where.append(games.c.updated < idle_since)
        with self.engine.begin() as conn:
            done = conn.execute(update(games).where(*where).values(
                status="finished", turn_started=None, updated=time.time(), result=json.dumps(result),
                revision=games.c.revision + 1, needs_server=False))
            if done.rowcount != 1:
                return False
            for seat, left in (remaining or {}).items():
                conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                             .values(remaining=left))
            if rate is not None:
                result.update(rate(conn))
                conn.execute(update(games).where(games.c.id == game_id).values(result=json.dumps(result)))
        return True

    # -- the site's heartbeat -----------------------------------------------------------------------
    def alive_at(self) -> float | None:
        """When a server last said it was running (None: never)."""
        with self.reads.connect() as conn:
            found = conn.execute(select(meta.c.value).where(meta.c.key == "alive")).scalar()
        return float(found) if found is not None else None

    def beat(self, now: float) -> None:
        """Say the server is running at ``now`` (several processes may say it at once)."""
        with self.engine.begin() as conn:
            upsert(conn, meta, {"key": "alive", "value": repr(now)}, keys=("key",))

    def give_back(self, since: float, now: float) -> list[str]:
        """Restart every running clock as if no time had passed between
        ``since`` (the last heartbeat) and ``now``: a clock that started
        before ``since`` regains ``now - since``, one started after it all
        its time. The ids of the games whose clocks moved."""
        moved = []
        with self.engine.begin() as conn:
            running = conn.execute(select(games.c.id, games.c.turn_started).where(
                games.c.status == "playing", games.c.turn_started.is_not(None))).all()
            for game_id, started in running:
                down = now - max(since, started)
                if down > 0:
                    conn.execute(update(games).where(games.c.id == game_id).values(turn_started=started + down))
                    moved.append(game_id)
        return moved

    def stale(self, before: float) -> list[str]:
        """Games not over in which nothing has happened since ``before`` and
        no clock runs (a running clock ends its game by itself)."""
        with self.reads.connect() as conn:
            return [i for (i,) in conn.execute(select(games.c.id).where(
                games.c.status != "finished", games.c.updated < before, games.c.turn_started.is_(None)))]

    def load(self, game_id: str, since: int = 0) -> tuple[GameRow, list[int], set[int]] | None:
        """A game's row, its actions from ply ``since`` on, and the plies
        (counted from the start) the server played for a seat whose clock ran out."""
        with self.reads.connect() as conn:
            found = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if found is None:
                return None
            row = _game_row(found)
            row.seats = self._seats(conn, game_id)
            stored = conn.execute(select(actions.c.action, actions.c.timed_out).where(
                actions.c.game_id == game_id, actions.c.ply >= since).order_by(actions.c.ply)).all()
            stored = stored[:max(0, row.version - since)]  # a move committed since the row was read waits its turn
        return row, [a for a, _ in stored], {since + i for i, (_, late) in enumerate(stored) if late}

    def listing(self, status: str | None = None, limit: int = 100,
                joinable_by: Account | None | bool = False) -> list[GameRow]:
        """Games, most recently active first. ``joinable_by``: only games
        with a seat left open that this visitor (an account, or None for a
        guest) may take now: rated games only for accounts not seated there."""
        query = select(games).order_by(games.c.updated.desc()).limit(limit)
        if status:
            query = query.where(games.c.status == status)
        if joinable_by is not False:
            query = query.where(games.c.status != "finished", games.c.id.in_(
                select(seats.c.game_id).where(seats.c.public, seats.c.token_hash.is_(None))))
            if joinable_by is None:
                query = query.where(games.c.rated.is_(False))
            else:
                seated = select(seats.c.game_id).where(seats.c.account_id == joinable_by.id)  # type: ignore[union-attr]
                query = query.where(games.c.id.not_in(seated))
        with self.reads.connect() as conn:
            rows = [_game_row(m) for m in conn.execute(query).mappings()]
            for row in rows:
                row.seats = self._seats(conn, row.id)
        return rows

    def set_seats(self, game_id: str, changes: dict[int, dict[str, Any]], status: str | None = None,
                  turn_started: float | None = None, needs_server: bool | None = None) -> None:
        """One write to a game: each seat's ``changes``; with ``status``, a
        new status (``turn_started``: the clock starts with it; ``needs_server``
        as in :meth:`append`)."""
        values: dict[str, Any] = {}
        if status is not None:
            values.update(status=status, updated=time.time())
        if turn_started is not None:
            values["turn_started"] = turn_started
        if needs_server is not None:
            values["needs_server"] = needs_server
        with self.engine.begin() as conn:
            for seat, seat_values in changes.items():
                conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(**seat_values))
            self._changed(conn, game_id, **values)

    def revision(self, game_id: str) -> int | None:
        """How many writes the game has had (None: no such game)."""
        with self.reads.connect() as conn:
            return conn.execute(select(games.c.revision).where(games.c.id == game_id)).scalar()

    # -- serving computers and clocks, one process per game -------------------------------------------
    def take_lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Become (or stay) the process that serves the game's computer seats
        and clock, for ``seconds``: True unless another holds it unexpired."""
        now = time.time()
        with self.engine.begin() as conn:
            return upsert(conn, leases, {"game_id": game_id, "holder": holder, "expires": now + seconds},
                          keys=("game_id",), where=(leases.c.expires < now) | (leases.c.holder == holder))

    def renew_leases(self, holder: str, seconds: float) -> set[str]:
        """Extend every lease ``holder`` still has; the games they are for."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(update(leases).where(leases.c.holder == holder, leases.c.expires >= now)
                         .values(expires=now + seconds))
            return {i for (i,) in conn.execute(select(leases.c.game_id).where(
                leases.c.holder == holder, leases.c.expires >= now))}

    def release_lease(self, game_id: str, holder: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(leases).where(leases.c.game_id == game_id, leases.c.holder == holder))

    def lease_holder(self, game_id: str) -> str | None:
        """The process serving the game now (None: none)."""
        with self.reads.connect() as conn:
            return conn.execute(select(leases.c.holder).where(
                leases.c.game_id == game_id, leases.c.expires >= time.time())).scalar()

    def needs_nothing(self, game_id: str, revision: int) -> None:
        """Nothing in the game waits on a server, as of ``revision`` (a later
        write says for itself)."""
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id, games.c.revision == revision)
                         .values(needs_server=False))

    def unserved(self, limit: int = 100) -> list[str]:
        """Games whose computer or clock needs a server and that no live
        process serves (never taken, or its holder died)."""
        served = select(leases.c.game_id).where(leases.c.expires >= time.time())
        with self.reads.connect() as conn:
            return [i for (i,) in conn.execute(select(games.c.id).where(
                games.c.needs_server, games.c.status != "finished", games.c.id.not_in(served)).limit(limit))]

    # -- accounts -------------------------------------------------------------------------------
    def create_account(self, username: str, key: str, password_hash: str) -> Account | None:
        """A new account; None when the name (in any case) is taken."""
        try:
            with self.engine.begin() as conn:
                new = conn.execute(insert(accounts).values(
                    username=username, key=key, password_hash=password_hash, created=time.time()))
                return Account(new.inserted_primary_key[0], username)
        except IntegrityError:
            return None

    def password_of(self, key: str) -> tuple[Account, str] | None:
        with self.reads.connect() as conn:
            found = conn.execute(select(accounts).where(accounts.c.key == key)).first()
        return (Account(found.id, found.username), found.password_hash) if found else None

    def account(self, key: str) -> Account | None:
        with self.reads.connect() as conn:
            found = conn.execute(select(accounts.c.id, accounts.c.username).where(accounts.c.key == key)).first()
        return Account(found.id, found.username) if found else None

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

    def add_session(self, digest: str, account_id: int, lifetime: float) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.expires < now))  # the expired go as new ones come
            conn.execute(insert(sessions).values(token_hash=digest, account_id=account_id, created=now,
                                                 expires=now + lifetime))

    def session_account(self, digest: str) -> Account | None:
        """The account a session belongs to, while it has not expired."""
        with self.reads.connect() as conn:
            found = conn.execute(
                select(accounts.c.id, accounts.c.username).join(sessions, sessions.c.account_id == accounts.c.id)
                .where(sessions.c.token_hash == digest, sessions.c.expires > time.time())).first()
        return Account(found.id, found.username) if found else None

    def end_session(self, digest: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == digest))

    def games_of(self, account_id: int, limit: int = 100) -> list[GameRow]:
        """The games an account holds a seat in, newest activity first."""
        held = select(seats.c.game_id).where(seats.c.account_id == account_id)
        query = select(games).where(games.c.id.in_(held)).order_by(games.c.updated.desc()).limit(limit)
        with self.reads.connect() as conn:
            rows = [_game_row(m) for m in conn.execute(query).mappings()]
            for row in rows:
                row.seats = self._seats(conn, row.id)
        return rows

    # -- ratings -------------------------------------------------------------------------------
    @staticmethod
    def ratings_in(conn: Any, game: str, account_ids: list[int]) -> dict[int, Rating]:
        found = conn.execute(select(ratings).where(ratings.c.game == game, ratings.c.account_id.in_(account_ids)))
        return {r.account_id: Rating(r.mu, r.sigma, r.games) for r in found}

    @staticmethod
    def put_rating(conn: Any, game: str, account_id: int, rating: Rating) -> None:
        upsert(conn, ratings, dict(account_id=account_id, game=game, mu=rating.mu, sigma=rating.sigma,
                                   games=rating.games, updated=time.time()), keys=("account_id", "game"))

    def ratings_of(self, account_id: int) -> dict[str, Rating]:
        with self.reads.connect() as conn:
            return {r.game: Rating(r.mu, r.sigma, r.games)
                    for r in conn.execute(select(ratings).where(ratings.c.account_id == account_id))}

    def leaderboard(self, game: str, limit: int = 100) -> list[tuple[str, Rating]]:
        """Accounts rated at ``game``, best first by μ − 3σ."""
        query = (select(accounts.c.username, ratings.c.mu, ratings.c.sigma, ratings.c.games)
                 .join(accounts, accounts.c.id == ratings.c.account_id).where(ratings.c.game == game)
                 .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), accounts.c.key).limit(limit))
        with self.reads.connect() as conn:
            return [(r.username, Rating(r.mu, r.sigma, r.games)) for r in conn.execute(query)]

    @staticmethod
    def _seats(conn: Any, game_id: str) -> list[SeatRow]:
        return [
            SeatRow(r.seat, r.player, r.token_hash, r.claim_hash, bool(r.joined), bool(r.public),
                    r.account_id, r.name, r.remaining)
            for r in conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))
        ]


def sign_connections(engine: Engine, origin: str) -> None:
    """Give every PostgreSQL connection of ``engine`` the setting
    ``tileworks.origin``, so that the announcements of its writes name
    ``origin`` (the process can then tell its own from the others')."""
    @event.listens_for(engine, "do_connect")
    def _signed(_dialect: Any, _record: Any, _cargs: Any, cparams: dict[str, Any]) -> None:
        cparams["options"] = f"{cparams.get('options', '')} -c tileworks.origin={origin}".strip()

    engine.dispose()  # connections opened before (making the schema) are opened again, signed


def _move_written(conn: Any, game_id: str, version: int, values: dict[str, Any], new_actions: list[int],
                  timed_out: bool) -> bool:
    """Set the game's ``values`` (counting a move and a write) and append
    ``new_actions`` after ply ``version``, if the game is still at
    ``version``: True, else nothing is written. On PostgreSQL this is one
    statement, the update's result feeding the insert; other databases run
    the two in the caller's transaction."""
    moved, appended = _move_statements(tuple(sorted(values)))
    params = {f"new_{key}": value for key, value in values.items()}
    params.update(game_id=game_id, at=version)
    if conn.dialect.name != "postgresql":
        if conn.execute(moved, params).rowcount != 1:
            return False
        conn.execute(insert(actions), [
            {"game_id": game_id, "ply": version + i, "action": a, "timed_out": timed_out and i == 0}
            for i, a in enumerate(new_actions)])
        return True
    params.update(new_actions=new_actions, late=timed_out)
    return len(conn.execute(appended, params).all()) == len(new_actions)


@functools.cache
def _move_statements(keys: tuple[str, ...]) -> tuple[Any, Any]:
    """The update a move makes to its game (setting ``keys``) and, for
    PostgreSQL, the insert of its actions that runs it: built once, since
    building a statement costs more than running it."""
    moved = (update(games).where(games.c.id == bindparam("game_id"), games.c.version == bindparam("at"))
             .values(moves=games.c.moves + 1, revision=games.c.revision + 1,
                     **{key: bindparam(f"new_{key}") for key in keys}))
    written = moved.returning(games.c.id).cte("moved")
    new = (func.unnest(bindparam("new_actions", type_=ARRAY(Integer))).table_valued("action", with_ordinality="n")
           .render_derived())
    rows = select(written.c.id, bindparam("at") + new.c.n - 1, new.c.action,
                  and_(new.c.n == 1, bindparam("late", type_=Boolean))).select_from(written).join(new, true())
    appended = (insert(actions).from_select(["game_id", "ply", "action", "timed_out"], rows)
                .returning(actions.c.ply))
    return moved, appended


def upsert(conn: Any, table: Table, values: dict[str, Any], keys: tuple[str, ...], where: Any = None) -> bool:
    """Insert the row ``values``, or update the row with the same ``keys``
    (only if ``where`` holds, when given), in one atomic statement, so that
    processes doing it at once cannot collide: PostgreSQL's and SQLite's
    ``INSERT ... ON CONFLICT DO UPDATE``. True when a row was written."""
    name = conn.dialect.name
    if name not in ("postgresql", "sqlite"):  # other databases serve one process: update, else insert
        match = [table.c[k] == values[k] for k in keys] + ([where] if where is not None else [])
        if conn.execute(update(table).where(*match).values(**values)).rowcount:
            return True
        try:
            with conn.begin_nested():
                conn.execute(insert(table).values(**values))
        except IntegrityError:
            return False
        return True
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as insert_or_update
    else:
        from sqlalchemy.dialects.sqlite import insert as insert_or_update  # type: ignore[assignment]
    statement = insert_or_update(table).values(**values).on_conflict_do_update(
        index_elements=[table.c[k] for k in keys], set_={k: v for k, v in values.items() if k not in keys},
        where=where).returning(table.c[keys[0]])
    return conn.execute(statement).first() is not None  # no row: the update's condition failed


def _game_row(m: Any) -> GameRow:
    return GameRow(
        id=m["id"], game=m["game"], options=json.loads(m["options"]), status=m["status"],
        version=m["version"], seed=m["seed"], created=m["created"], updated=m["updated"],
        result=json.loads(m["result"]) if m["result"] else None,
        rematch_of=m["rematch_of"], rematch=m["rematch"], rated=bool(m["rated"]),
        clock=json.loads(m["clock"]) if m["clock"] else None, turn_started=m["turn_started"], moves=m["moves"],
        revision=m["revision"],
    )


def _fair_play(conn: Any) -> None:
    """Schema 4: count each game's player decisions; a finished game's result
    gains its placing (``ranks``) and how it ended; ratings come from games
    between people only, so games rated against a computer level become
    unrated and every rating is made again from the rest, in order."""
    import tileworks
    from tileworks.server import ratings as rating

    conn.execute(delete(ratings))
    found = conn.execute(select(games.c.id, games.c.game, games.c.options, games.c.result, games.c.rated)
                         .order_by(games.c.updated)).all()
    for game_id, name, options, result_text, rated in found:
        history = [a for (a,) in conn.execute(select(actions.c.action).where(actions.c.game_id == game_id)
                                               .order_by(actions.c.ply))]
        try:
            state = tileworks.load_game(name, **json.loads(options)).new_initial_state()
        except ValueError:  # a game no plugin registers any more: leave it as it is
            continue
        moves = 0
        for action in history:
            moves += not state.is_chance_node()
            state.apply_action(action)
        values: dict[str, Any] = {"moves": moves}
        seated = conn.execute(select(seats.c.player, seats.c.account_id).where(seats.c.game_id == game_id)
                              .order_by(seats.c.seat)).all()
        if rated and any(player != "human" for player, _ in seated):
            rated = values["rated"] = False
        if result_text:
            result = json.loads(result_text)
            result.pop("ratings", None)
            result.setdefault("ended", "end")
            result.setdefault("ranks", rating.standing(result["returns"], result["scores"]))
            if rated:
                result["ratings"] = rating.rate_game(conn, name, [account for _, account in seated], result["ranks"])
            values["result"] = json.dumps(result)
        conn.execute(update(games).where(games.c.id == game_id).values(**values))
