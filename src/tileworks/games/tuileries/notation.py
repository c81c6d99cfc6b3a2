"""Tuileries notation, serialisation and views.

A move names the tile and the square: ``rnd@c3`` puts the red knight of
diamonds on c3. Tiles are colour (``b`` blue, ``y`` yellow, ``r`` red,
``g`` green), value (``k`` king, ``q`` queen, ``n`` knight, ``j`` jack) and
sign (``s`` spades, ``h`` hearts, ``d`` diamonds, ``c`` clubs). Squares run
a1-h8 (files left to right, ranks bottom to top). Chance outcomes are the
tile drawn, e.g. ``rnd``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tileworks.core import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.i18n import N_, _, gettext
from tileworks.core.text import check_viewer, field_error, read_draws, read_int, read_move, seat_name
from tileworks.games.tuileries import constants as const
from tileworks.games.tuileries.constants import (
    SQUARE_INDEX,
    SQUARE_NAMES,
    tile_long_name,
    tile_name,
    tile_of,
)

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tuileries.rules import TuileriesGame, TuileriesState

_MOVE = re.compile(r"^([byrg][kqnj][shdc])@?([a-h][1-8])$")


def describe_decision(state: "TuileriesState") -> str:
    phase = state.phase
    if phase == const.FIRST:
        return _("chance picks the first player")
    if phase == const.DEAL:
        return _("chance deals a tile to {who}", who=seat_name(state.deal_index // state._game.hand_size))
    if phase == const.REPLACE:
        return _("{who} draws a replacement tile", who=seat_name(state.seat))
    if phase == const.BONUS:
        return _("{who} draws an extra tile for the extra turn", who=seat_name(state.seat))
    if phase == const.OVER:
        return _("the game is over")
    if state.placed() < 4:
        return _("{who} places a tile on a circle square", who=seat_name(state.seat))
    return _("{who} places a tile on any empty square", who=seat_name(state.seat))


def action_to_string(state: "TuileriesState", action: int) -> str:
    if state.phase == const.FIRST:
        return seat_name(action) if 0 <= action < state._game.players else str(action)
    if state.player == CHANCE:
        return tile_name(action) if 0 <= action < const.TILES else str(action)
    if 0 <= action < const.TILES * 64:
        return f"{tile_name(action >> 6)}@{SQUARE_NAMES[action & 63]}"
    return str(action)


def tile_words(tile: int) -> str:
    """A tile's name in the current language.

    >>> tile_words(16 * 2 + 4 * 2 + 2)
    'red knight of diamonds'
    """
    return _("{colour} {value} of {sign}", colour=gettext(const.COLOUR_NAMES[tile >> 4]),
             value=gettext(const.VALUE_NAMES[(tile >> 2) & 3]), sign=gettext(const.SIGN_NAMES[tile & 3]))


def describe_action(state: "TuileriesState", action: int) -> str:
    """A move in words, for the game log (a draw names no tile: only its holder sees it)."""
    if state.phase == const.FIRST:
        return _("chance picks {who} to start", who=seat_name(action))
    if state.player == CHANCE:
        return describe_decision(state)
    tile, square = action >> 6, action & 63
    who = seat_name(state.seat)
    if state.score_for(tile, square) >= const.EXTRA_TURN_AT:
        return _("{who} places the {tile} on {square} and earns an extra turn", who=who, tile=tile_words(tile),
                 square=SQUARE_NAMES[square])
    return _("{who} places the {tile} on {square}", who=who, tile=tile_words(tile), square=SQUARE_NAMES[square])


def reason_illegal(state: "TuileriesState", action: int) -> str | None:
    """Why a placement is refused, in a player's terms."""
    if state.phase != const.PLAY or not 0 <= action < const.TILES * 64:
        return None
    tile, square = action >> 6, action & 63
    if tile not in state.hands[state.seat]:
        return _("{who} holds no {tile}", who=seat_name(state.seat), tile=tile_words(tile))
    if state.occupied >> square & 1:
        return _("{square} already holds a tile", square=SQUARE_NAMES[square])
    return _("the first four tiles go on the circle squares ({squares})",
             squares=", ".join(SQUARE_NAMES[s] for s in state._game.circles))


def clicks(state: "TuileriesState", action: int) -> list[dict[str, str]]:
    """The clicks on the SVG picture that make a placement: the hand tile,
    then the square.

    >>> clicks(None, (16 * 2 + 4 * 2 + 2) * 64 + 18)
    [{'tile': 'rnd'}, {'square': 'c3'}]
    """
    return [{"tile": tile_name(action >> 6)}, {"square": SQUARE_NAMES[action & 63]}]


def string_to_action(state: "TuileriesState", text: str) -> int:
    """Read a move typed in notation; it must be legal in ``state``."""
    return read_move(state, text, _parse, "Tuileries", N_("moves look like rnd@c3 (red knight of diamonds on c3)"))


def _parse(state: "TuileriesState", word: str) -> int | None:
    if state.phase == const.FIRST:
        match = re.fullmatch(r"p([1-6])", word)
        return int(match.group(1)) - 1 if match else None
    if state.player == CHANCE:
        try:
            return tile_of(word)
        except ValueError:
            return None
    match = _MOVE.match(word)
    if not match:
        return None
    return (tile_of(match.group(1)) << 6) | SQUARE_INDEX[match.group(2)]


# -- serialisation ----------------------------------------------------------------------
def state_fields(state: "TuileriesState") -> dict[str, Any]:
    game = state._game
    return {
        "board": {SQUARE_NAMES[s]: tile_name(t) for s, t in enumerate(state.board) if t >= 0},
        "hands": [[tile_name(t) for t in hand] for hand in state.hands],
        "pile": [tile_name(t) for t in state.pile],
        "points": list(state.points),
        "seat": state.seat,
        "to_move": state.player,
        "phase": const.PHASE_NAMES[state.phase],
        "deal_index": state.deal_index,
        "extra": state.extra,
        "first": state.first,
        "hand_slots": [list(s) for s in state.hand_slots],
        "private_to": list(state.private_to),
        "players": game.players,
    }


def _tiles(value: Any, field: str) -> list[int]:
    if not isinstance(value, list):
        raise field_error(field, "expected a list of tile names")
    try:
        return [tile_of(v) if isinstance(v, str) else tile_of("?") for v in value]
    except ValueError as exc:
        raise field_error(field, str(exc)) from None


def state_from_fields(game: "TuileriesGame", fields: dict[str, Any]) -> "TuileriesState":
    """Build a state from :func:`state_fields` output, checking every field."""
    state = game.new_initial_state()
    n = game.players
    board = fields.get("board")
    if not isinstance(board, dict):
        raise field_error("board", "expected an object of square -> tile")
    seen: list[int] = []
    for square, name in board.items():
        if square not in SQUARE_INDEX:
            raise field_error("board", f"{square!r} is not a square")
        tile = _tiles([name], "board")[0]
        state._put(tile, SQUARE_INDEX[square])
        seen.append(tile)
    hands = fields.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise field_error("hands", f"expected {n} hands")
    state.hands = [sorted(_tiles(h, f"hands[{i}]")) for i, h in enumerate(hands)]
    state.pile = sorted(_tiles(fields.get("pile"), "pile"))
    seen += [t for hand in state.hands for t in hand] + state.pile
    if sorted(seen) != list(range(const.TILES)):
        raise field_error("pile", "board, hands and pile must hold each of the 64 tiles exactly once")
    placed = state.placed()
    circles = sum(1 << s for s in game.circles)
    if placed < 4 and state.occupied & ~circles or placed >= 4 and state.occupied & circles != circles:
        raise field_error("board", "the first four tiles cover the circle squares "
                          + ", ".join(SQUARE_NAMES[s] for s in game.circles))
    points = fields.get("points")
    if not isinstance(points, list) or len(points) != n or not all(type(p) is int and p >= 0 for p in points):
        raise field_error("points", f"expected {n} non-negative integers")
    state.points = list(points)
    state.seat = read_int(fields, "seat", 0, n - 1)
    state.deal_index = read_int(fields, "deal_index", 0, n * game.hand_size)
    phase = fields.get("phase")
    if phase not in const.PHASE_NAMES:
        raise field_error("phase", f"expected one of {', '.join(const.PHASE_NAMES)}, got {phase!r}")
    state.phase = const.PHASE_NAMES.index(phase)
    extra = fields.get("extra")
    if type(extra) is not bool:
        raise field_error("extra", "expected true or false")
    state.extra = extra
    state.first = read_int(fields, "first", -1, n - 1)
    if (state.phase == const.FIRST) != (state.first < 0):
        raise field_error("first", "chance picks the first player before anything else, and only then")
    to_move = fields.get("to_move")
    expected = {const.PLAY: state.seat, const.OVER: TERMINAL}.get(state.phase, CHANCE)
    if to_move != expected:
        raise field_error("to_move", f"{to_move!r} does not fit phase {phase!r} with seat {state.seat}")
    state.player = to_move
    if (state.phase == const.OVER) != (placed == const.TILES):
        raise field_error("phase", "the game is over exactly when all 64 tiles are down")
    read_draws(state, fields, n)
    if not state.is_terminal() and not state.legal_actions():
        raise field_error("phase", f"phase {phase!r} has no legal action in this position")
    return state


def position(game: "TuileriesGame", **fields: Any) -> "TuileriesState":
    """A position for tests and puzzles: ``state_fields`` with defaults.

    Defaults: P1 to play (and first to have played), no points, and the draw holding every tile not on
    the board or in a hand. ``board`` and ``hands`` are required.
    """
    base: dict[str, Any] = {
        "points": [0] * game.players,
        "seat": 0,
        "phase": "play",
        "deal_index": game.players * game.hand_size,
        "extra": False,
        "first": 0,
        "hand_slots": [[] for _ in range(game.players)],
        "private_to": [],
    }
    base.update(fields)
    base.setdefault("to_move", base["seat"])
    if "pile" not in base:
        used = set(base["board"].values()) | {t for hand in base["hands"] for t in hand}
        base["pile"] = [tile_name(t) for t in range(const.TILES) if tile_name(t) not in used]
    return state_from_fields(game, base)


# -- views --------------------------------------------------------------------------------
def view(state: "TuileriesState", viewer: int = SPECTATOR) -> dict[str, Any]:
    """What ``viewer`` may see: the board, the scores, hand sizes, the draw's
    size, and only their own hand."""
    game = state._game
    check_viewer(viewer, game.players)
    return {
        "game": "tuileries",
        "viewer": viewer,
        "board": {SQUARE_NAMES[s]: tile_name(t) for s, t in enumerate(state.board) if t >= 0},
        "circles": [SQUARE_NAMES[s] for s in game.circles],
        "hand": [tile_name(t) for t in state.hands[viewer]] if viewer >= 0 else None,
        "hand_sizes": [len(h) for h in state.hands],
        "pile": len(state.pile),
        "points": list(state.points),
        "to_move": state.player,
        "seat": state.seat,
        "first": state.first if state.first >= 0 else None,
        "phase": const.PHASE_NAMES[state.phase],
        "decision": describe_decision(state),
        "legal": [action_to_string(state, a) for a in state.legal_actions()] if state.player == viewer else [],
        "winners": [s for s, v in enumerate(state.returns()) if v > 0] if state.phase == const.OVER else [],
    }


__all__ = ["position", "tile_long_name"]
