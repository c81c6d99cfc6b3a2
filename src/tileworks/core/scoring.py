"""How points were made, part by part, for people reading a game.

Engines call :func:`note` wherever they add points (one call per part: a
group, a closed area, a wall tile, a sale). Nothing is kept unless a caller
asks, so searches pay one context-variable look-up per part and no more; an
engine whose parts cost extra work to tell apart asks :func:`is_recording`
first.

>>> import tileworks
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> with recording() as parts:
...     note(0, 3)
...     note(0, 2)
>>> parts
[(0, 3), (0, 2)]
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_parts: ContextVar[list[tuple[int, int]] | None] = ContextVar("tileworks_score_parts", default=None)


def note(seat: int, points: int) -> None:
    """``seat`` scored ``points`` (negative: lost them), one part of a score."""
    parts = _parts.get()
    if parts is not None:
        parts.append((seat, points))


def is_recording() -> bool:
    """Whether someone collects the parts (so that an engine need not work
    them out otherwise)."""
    return _parts.get() is not None


@contextmanager
def recording() -> Iterator[list[tuple[int, int]]]:
    """Collect the parts noted within the block, in order."""
    parts: list[tuple[int, int]] = []
    token = _parts.set(parts)
    try:
        yield parts
    finally:
        _parts.reset(token)


def breakdown(parts: list[tuple[int, int]], players: int) -> list[dict[str, object]]:
    """Parts grouped by seat, for a move log: ``[{"seat": 0, "total": 8,
    "parts": [3, 3, 2]}]``, seats in order, only those that scored.

    >>> breakdown([(1, 3), (0, 1), (1, 2)], 2)
    [{'seat': 0, 'total': 1, 'parts': [1]}, {'seat': 1, 'total': 5, 'parts': [3, 2]}]
    """
    out = []
    for seat in range(players):
        mine = [p for s, p in parts if s == seat and p]
        if mine:
            out.append({"seat": seat, "total": sum(mine), "parts": mine})
    return out
