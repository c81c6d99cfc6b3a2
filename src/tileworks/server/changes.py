"""Hearing the other server processes of a site: PostgreSQL's LISTEN/NOTIFY.

Every write to a game sends ``NOTIFY tileworks_games, 'GAME_ID ORIGIN'`` in
its transaction (a trigger, ``store.ANNOUNCE``), which PostgreSQL delivers to every
listening connection once the transaction commits, in commit order. Each
server process keeps one connection listening (psycopg, asynchronous) and
hands each announcement of another process to the hub, which catches the
game up from the store and tells its watchers. Nothing else is needed: no
broker, no extra service; the database the site already runs carries it.

An announcement can be missed only while the connection is down; the
listener then reconnects (backing off to 10 s) and catches up every watched
game at once. A request never relies on announcements: the hub checks the
game's revision before using a room (``Hub.catch_up``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

from tileworks.server.store import CHANNEL, Store

log = logging.getLogger("tileworks.server")


def psycopg_url(store: Store) -> str:
    """The store's SQLAlchemy URL as libpq takes it (no ``+psycopg`` driver)."""
    return store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


async def listen(store: Store, changed: Callable[[str], Awaitable[None]], watched: Callable[[], list[str]]) -> None:
    """Call ``changed(game_id)`` for every write another process announces,
    until cancelled; after (re)connecting, for every game in ``watched()``."""
    import psycopg

    running: set[asyncio.Task[None]] = set()

    def spawn(game_id: str) -> None:
        task = asyncio.get_running_loop().create_task(changed(game_id))
        running.add(task)
        task.add_done_callback(_finished(running))

    delay = 0.5
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(psycopg_url(store), autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                delay = 0.5
                for game_id in watched():  # what may have been missed while not listening
                    spawn(game_id)
                async for note in conn.notifies():
                    game_id, _space, origin = note.payload.partition(" ")
                    if origin != store.origin:
                        spawn(game_id)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the database restarted or the network dropped: listen again
            log.warning("listening for other processes' moves failed (%s); again in %.1f s", error, delay)
            await asyncio.sleep(delay)
            delay = min(10.0, delay * 2)


def _finished(running: set[asyncio.Task[None]]) -> Callable[[asyncio.Task[None]], Any]:
    def done(task: asyncio.Task[None]) -> None:
        running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("catching up a game another process changed failed", exc_info=task.exception())

    return done
