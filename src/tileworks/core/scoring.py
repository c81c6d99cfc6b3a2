"""How points were made, part by part, for people reading a game.

Engines call :func:`note` wherever they add points (one call per part: a
group, a closed area, a wall tile, a sale), naming the kind of part as
their game's ``GameInfo.score_kinds`` does, so that a results table can
show a score the way the game makes it. Nothing is kept unless a caller
asks, so searches pay one context-variable look-up per part and no more; an
engine whose parts cost extra work to tell apart asks :func:`is_recording`
first.

>>> import tileworks
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> with recording() as parts:
...     note(0, 3, "sales")
...     note(0, 2, "sales")
>>> parts
[(0, 3, 'sales'), (0, 2, 'sales')]
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

_parts: ContextVar[list[tuple[int, int, str]] | None] = ContextVar("tileworks_score_parts", default=None)


def note(seat: int, points: int, kind: str = "points") -> None:
    """``seat`` scored ``points`` (negative: lost them), one part of a score,
    of the given ``kind``."""
    parts = _parts.get()
    if parts is not None:
        parts.append((seat, points, kind))


def is_recording() -> bool:
    """Whether someone collects the parts (so that an engine need not work
    them out otherwise)."""
    return _parts.get() is not None


@contextmanager
def recording() -> Iterator[list[tuple[int, int, str]]]:
    """Collect the parts noted within the block, in order."""
    parts: list[tuple[int, int, str]] = []
    token = _parts.set(parts)
    try:
        yield parts
    finally:
        _parts.reset(token)


def breakdown(parts: list[tuple[int, int, str]], players: int) -> list[dict[str, object]]:
    """Parts grouped by seat, for a move log: ``[{"seat": 0, "total": 8,
    "parts": [3, 3, 2], "kinds": {"groups": 8}}]``, seats in order, only
    those that scored.

    >>> breakdown([(1, 3, "rows"), (0, 1, "wall"), (1, 2, "wall")], 2)
    [{'seat': 0, 'total': 1, 'parts': [1], 'kinds': {'wall': 1}}, {'seat': 1, 'total': 5, 'parts': [3, 2], 'kinds': {'rows': 3, 'wall': 2}}]
    """
    out = []
    for seat in range(players):
        mine = [(p, k) for s, p, k in parts if s == seat and p]
        if mine:
            kinds: dict[str, int] = {}
            for p, k in mine:
                kinds[k] = kinds.get(k, 0) + p
            out.append({"seat": seat, "total": sum(p for p, _ in mine), "parts": [p for p, _ in mine], "kinds": kinds})
    return out


def totals_by_kind(log: list[dict[str, Any]], players: int) -> list[dict[str, int]]:
    """Each seat's points over a whole move log, by kind of part.

    >>> totals_by_kind([{"points": breakdown([(1, 3, "rows"), (1, 2, "wall")], 2)},
    ...                 {"points": breakdown([(1, -1, "floor")], 2)}], 2)
    [{}, {'rows': 3, 'wall': 2, 'floor': -1}]
    """
    totals: list[dict[str, int]] = [{} for _ in range(players)]
    for entry in log:
        for scored in entry.get("points", ()):
            mine = totals[scored["seat"]]
            for kind, points in scored["kinds"].items():
                mine[kind] = mine.get(kind, 0) + points
    return totals


def announce(before: Any, after: Any, parts: list[tuple[int, int, str]]) -> tuple[str | None, list[str]]:
    """The points one move made, in words for a game log or a terminal, in
    the current language: a heading where the game names the occasion (its
    notation module's ``scoring_heading(before, after)``: "Wall-tiling of
    round 3"; else None), and one line per seat that scored, its parts named
    by the game's ``score_kinds``. No lines when the move scored nothing.

    >>> import tileworks
    >>> state = tileworks.load_game("kiln").new_initial_state()
    >>> announce(state, state, [(0, 3, "sales"), (1, 0, "sales")])
    (None, ['P1 scores 3 (sales 3)'])
    """
    from tileworks.core.i18n import _, gettext
    from tileworks.core.registry import game_info
    from tileworks.core.text import seat_name

    scored = breakdown(parts, before.game().num_players())
    if not scored:
        return None, []
    labels = dict(game_info(before.game().name).score_kinds)
    heading = getattr(getattr(before, "notation", None), "scoring_heading", None)
    lines = []
    for entry in scored:
        named = ", ".join(f"{gettext(labels[kind]) if kind in labels else kind} {signed(points)}"
                          for kind, points in entry["kinds"].items())
        lines.append(_("{who} scores {points} ({parts})", who=seat_name(entry["seat"]), points=signed(entry["total"]),
                       parts=named))
    return (heading(before, after) if heading else None), lines


def signed(points: int) -> str:
    """Points as a results line shows them: a true minus sign for a loss.

    >>> signed(3), signed(-2)
    ('3', '−2')
    """
    return f"−{-points}" if points < 0 else str(points)
