"""Time controls: the clocks of human seats, kept by the server.

Two kinds, chosen when a game is created:

- ``{"kind": "realtime", "minutes": M, "increment": S}``: each human seat
  has M minutes for the whole game and gains S seconds after each turn;
- ``{"kind": "turn", "hours": H}``: each turn must be made within H hours.

A clock runs only while its seat is to move in a game being played (not
while players are still joining, nor while a computer thinks). A turn of
several decisions (KILN's push, group, placement, sale) is one turn on the
clock. What the server stores is when the running clock started
(``turn_started``, wall-clock seconds) and each seat's seconds left at that
moment, so a restarted server knows every deadline exactly. When a clock
runs out, the server makes the seat's decisions with the ``greedy``
computer player and marks them in the game's record; with a real-time
clock the seat then plays on with what increments it earns.

>>> check_clock({"kind": "realtime", "minutes": 5, "increment": 3})
{'kind': 'realtime', 'minutes': 5, 'increment': 3}
>>> check_clock({"kind": "turn"})
{'kind': 'turn', 'hours': 24}
"""

from __future__ import annotations

from typing import Any

from tileworks.core.i18n import _
from tileworks.server.errors import ServerError
from tileworks.server.store import GameRow

#: the player that moves for a seat whose clock ran out
STAND_IN = "greedy"
#: (a real-time game may be as short as a few seconds a player: bullet, or a test)
LIMITS = {"minutes": (0.02, 180), "increment": (0, 120), "hours": (1, 336)}
DEFAULTS = {"realtime": {"minutes": 10, "increment": 5}, "turn": {"hours": 24}}


def check_clock(clock: Any) -> dict[str, Any] | None:
    """A time control with its defaults filled in (None: untimed), or a 400
    naming the problem."""
    if clock is None:
        return None
    if not isinstance(clock, dict) or clock.get("kind") not in DEFAULTS:
        raise ServerError(400, _('a clock is {"kind": "realtime", "minutes": M, "increment": S} or {"kind": "turn", "hours": H}'))
    kind = clock["kind"]
    checked: dict[str, Any] = {"kind": kind}
    for key, default in DEFAULTS[kind].items():
        value = clock.get(key, default)
        low, high = LIMITS[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
            raise ServerError(400, _("clock {key}: a number from {low} to {high}", key=key, low=low, high=high))
        checked[key] = value
    unknown = set(clock) - set(checked)
    if unknown:
        raise ServerError(400, _("clock: unknown setting {key}", key=sorted(unknown)[0]))
    return checked


def starting_time(clock: dict[str, Any] | None) -> float | None:
    """Each human seat's seconds at the start (real-time clocks only)."""
    return clock["minutes"] * 60.0 if clock and clock["kind"] == "realtime" else None


def deadline(row: GameRow, seat: int) -> float | None:
    """When the running clock of ``seat`` runs out (None: none runs)."""
    if row.clock is None or row.turn_started is None:
        return None
    if row.clock["kind"] == "turn":
        return row.turn_started + row.clock["hours"] * 3600.0
    left = row.seats[seat].remaining
    return row.turn_started + (left if left is not None else 0.0)


def after_move(row: GameRow, mover: int, next_mover: int | None, clocked: bool, now: float) -> tuple[float | None, dict[int, float]]:
    """The clocks once ``mover`` has decided and ``next_mover`` (None: the
    game is over) is to decide: the new ``turn_started`` and the seats'
    changed seconds left. ``clocked``: whether ``next_mover`` has a clock
    that runs (a human seat in a game being played)."""
    if row.clock is None:
        return None, {}
    if next_mover == mover and row.turn_started is not None:
        return row.turn_started, {}  # the same turn goes on
    changed: dict[int, float] = {}
    seat = row.seats[mover]
    if row.clock["kind"] == "realtime" and seat.remaining is not None and row.turn_started is not None:
        left = max(0.0, seat.remaining - (now - row.turn_started))
        changed[mover] = left + row.clock["increment"]
    return (now if clocked else None), changed


def shown(row: GameRow, to_move: int | None, now: float) -> dict[str, Any] | None:
    """The clocks as clients see them: the time control, each seat's
    seconds left (real-time), the seat whose clock runs and its deadline,
    and the server's time (to correct the client's own clock)."""
    if row.clock is None:
        return None
    running = to_move if to_move is not None and row.turn_started is not None else None
    left: list[float | None] = []
    for seat in row.seats:
        if seat.remaining is None:
            left.append(None)
        elif seat.seat == running and row.turn_started is not None:
            left.append(round(max(0.0, seat.remaining - (now - row.turn_started)), 1))
        else:
            left.append(round(seat.remaining, 1))
    return {**row.clock, "remaining": left, "running": running,
            "deadline": deadline(row, running) if running is not None else None, "now": now}
