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
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, create_engine, event,
    insert, select, text, update,
)
from sqlalchemy.engine import Engine

SCHEMA_VERSION = 2
#: schema upgrades in place: version -> statements that reach the next one
MIGRATIONS = {
    1: ["ALTER TABLE seats ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE"],
}

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
    Column("seed", String(64), nullable=False),       # secret: chance outcomes and AI seeds
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("result", Text),                           # JSON once finished
    Column("rematch_of", String(24)),
    Column("rematch", String(24)),
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
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(24), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("action", Integer, nullable=False),
)


@dataclass
class SeatRow:
    seat: int
    player: str
    token_hash: str | None
    claim_hash: str | None
    joined: bool
    public: bool = False

    @property
    def human(self) -> bool:
        return self.player == "human"

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
        engine = create_engine(url, pool_pre_ping=True)
    metadata.create_all(engine)
    with engine.begin() as conn:
        found = conn.execute(select(meta.c.value).where(meta.c.key == "schema")).scalar()
        if found is None:
            conn.execute(insert(meta).values(key="schema", value=str(SCHEMA_VERSION)))
        elif int(found) > SCHEMA_VERSION:
            raise RuntimeError(f"the database has schema {found}, newer than this tileworks ({SCHEMA_VERSION})")
        else:
            version = int(found)
            while version < SCHEMA_VERSION:
                for statement in MIGRATIONS[version]:
                    conn.execute(text(statement))
                version += 1
            conn.execute(update(meta).where(meta.c.key == "schema").values(value=str(version)))
    return engine


class Store:
    """Synchronous storage calls; the server runs them in worker threads
    (moves on a local SQLite file directly)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        #: a local SQLite file: a commit takes a fraction of a millisecond,
        #: less than handing it to a worker thread costs
        self.local = engine.dialect.name == "sqlite"

    def create(self, row: GameRow, first_actions: list[int]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=row.id, game=row.game, options=json.dumps(row.options), status=row.status,
                version=len(first_actions), seed=row.seed, created=row.created, updated=row.updated,
                result=json.dumps(row.result) if row.result is not None else None,
                rematch_of=row.rematch_of, rematch=None,
            ))
            conn.execute(insert(seats), [
                {"game_id": row.id, "seat": s.seat, "player": s.player, "token_hash": s.token_hash,
                 "claim_hash": s.claim_hash, "joined": s.joined, "public": s.public}
                for s in row.seats
            ])
            if first_actions:
                conn.execute(insert(actions), [
                    {"game_id": row.id, "ply": i, "action": a} for i, a in enumerate(first_actions)
                ])
            if row.rematch_of:
                conn.execute(update(games).where(games.c.id == row.rematch_of).values(rematch=row.id))

    def append(self, game_id: str, version: int, new_actions: list[int], status: str,
               result: dict[str, Any] | None) -> bool:
        """Commit ``new_actions`` after the first ``version`` actions. False
        (and nothing written) when another move got there first."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.version == version)
                .values(version=version + len(new_actions), status=status, updated=time.time(),
                        result=json.dumps(result) if result is not None else None)
            )
            if done.rowcount != 1:
                return False
            conn.execute(insert(actions), [
                {"game_id": game_id, "ply": version + i, "action": a} for i, a in enumerate(new_actions)
            ])
        return True

    def load(self, game_id: str) -> tuple[GameRow, list[int]] | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if found is None:
                return None
            row = _game_row(found)
            row.seats = self._seats(conn, game_id)
            history = [a for (a,) in conn.execute(
                select(actions.c.action).where(actions.c.game_id == game_id).order_by(actions.c.ply))]
        return row, history

    def listing(self, status: str | None = None, limit: int = 100) -> list[GameRow]:
        query = select(games).order_by(games.c.updated.desc()).limit(limit)
        if status:
            query = query.where(games.c.status == status)
        with self.engine.connect() as conn:
            rows = [_game_row(m) for m in conn.execute(query).mappings()]
            for row in rows:
                row.seats = self._seats(conn, row.id)
        return rows

    def ids_with_status(self, status: str) -> list[str]:
        with self.engine.connect() as conn:
            return [i for (i,) in conn.execute(select(games.c.id).where(games.c.status == status))]

    def set_seat(self, game_id: str, seat: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat).values(**values))

    def set_status(self, game_id: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(status=status, updated=time.time()))

    @staticmethod
    def _seats(conn: Any, game_id: str) -> list[SeatRow]:
        return [
            SeatRow(r.seat, r.player, r.token_hash, r.claim_hash, bool(r.joined), bool(r.public))
            for r in conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))
        ]


def _game_row(m: Any) -> GameRow:
    return GameRow(
        id=m["id"], game=m["game"], options=json.loads(m["options"]), status=m["status"],
        version=m["version"], seed=m["seed"], created=m["created"], updated=m["updated"],
        result=json.loads(m["result"]) if m["result"] else None,
        rematch_of=m["rematch_of"], rematch=m["rematch"],
    )
