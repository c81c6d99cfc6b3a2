"""Dominoes notation, serialisation and views.

=========  ==========================================================
``3-5L``   play the 3-5 on the left end of the line (``3-5R``: right)
``6-6``    the lead: the first tile of the game (no end to choose)
``pass``   no tile of the hand fits either end
``draw``   (Draw variant) nothing fits: draw from the boneyard
=========  ==========================================================

A tile is named low-high (``3-5``); ``5-3`` and ``3-5 left`` are read too.
Chance outcomes are the tile dealt or drawn, e.g. ``3-5``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tileworks.core import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.i18n import N_, _
from tileworks.core.text import check_viewer, field_error, read_draws, read_int, read_move, seat_name

from tileworks_dominoes.tiles import COUNT, TILE_ID, TILES, ids, pip_total, tile_name

if TYPE_CHECKING:  # pragma: no cover
    from tileworks_dominoes.rules import DominoesGame, DominoesState

PASS = 2 * COUNT
DRAW_TILE = PASS + 1
PHASE_NAMES = ("deal", "draw", "play", "over")
_TILE = re.compile(r"^([0-6])-([0-6])$")
_PLAY = re.compile(r"^([0-6])-([0-6])(l|r|left|right)?$")


def describe_decision(state: "DominoesState") -> str:
    phase = PHASE_NAMES[state.phase]
    if phase == "deal":
        return _("chance deals a tile to {who}", who=seat_name(state.deal_index // state.game().hand_size))
    if phase == "draw":
        return _("chance gives {who} a tile from the boneyard", who=seat_name(state.seat))
    if phase == "over":
        return _("the game is over")
    who = seat_name(state.seat)
    if not state.line:
        return _("{who} leads with {tile}, the highest tile dealt", who=who, tile=tile_name(state.lead_tile()))
    left, right = state.ends()
    # the same words whether or not a tile fits: the hand stays hidden
    if state.game().draw and state.boneyard:
        return _("{who} plays a tile on the {left} or the {right} end, or draws", who=who, left=left, right=right)
    return _("{who} plays a tile on the {left} or the {right} end, or passes", who=who, left=left, right=right)


def action_to_string(state: "DominoesState", action: int) -> str:
    if state.player == CHANCE:
        return tile_name(action) if 0 <= action < COUNT else str(action)
    if action == PASS:
        return "pass"
    if action == DRAW_TILE:
        return "draw"
    if 0 <= action < PASS:
        tile, end = divmod(action, 2)
        return tile_name(tile) if not state.line else f"{tile_name(tile)}{'LR'[end]}"
    return str(action)


def describe_move(state: "DominoesState", action: int) -> str:
    """A move's words on a button (moves made by clicks need none)."""
    if action == PASS:
        return _("pass (no tile fits)")
    if action == DRAW_TILE:
        return _("draw from the boneyard (no tile fits)")
    return action_to_string(state, action)


def describe_action(state: "DominoesState", action: int) -> str:
    """A move in words, for the game log (a draw never names its tile).

    >>> import tileworks
    >>> state = position(tileworks.load_game("dominoes"), line=["6-6", "6-3"], hands=[["3-5", "0-1"], ["2-2"]])
    >>> describe_action(state, 2 * TILE_ID[3, 5] + 1)
    'P1 plays 3-5 on the 3 end'
    """
    if state.player == CHANCE:
        return describe_decision(state)
    who = seat_name(state.seat)
    if action == PASS:
        return _("{who} passes: no tile fits", who=who)
    if action == DRAW_TILE:
        return _("{who} draws from the boneyard: no tile fits", who=who)
    tile, end = divmod(action, 2)
    if not state.line:
        return _("{who} leads with {tile}", who=who, tile=tile_name(tile))
    return _("{who} plays {tile} on the {end} end", who=who, tile=tile_name(tile), end=state.ends()[end])


def clicks(state: "DominoesState", action: int) -> list[dict[str, str]]:
    """The clicks on the picture that make a move: the hand tile, then the
    end of the line (the lead needs only its tile). A pass is a button.

    >>> clicks(None, 2 * TILE_ID[3, 5] + 1)
    [{'tile': '3-5'}, {'end': 'right'}]
    """
    if action >= PASS:
        return []
    tile, end = divmod(action, 2)
    if state is not None and not state.line:
        return [{"tile": tile_name(tile)}]
    return [{"tile": tile_name(tile)}, {"end": ("left", "right")[end]}]


def string_to_action(state: "DominoesState", text: str) -> int:
    return read_move(state, text, _parse, "Dominoes",
                     N_("moves look like 3-5L, 3-5R (left or right end), 6-6 (the lead), pass, draw"))


def _parse(state: "DominoesState", word: str) -> int | None:
    if state.player == CHANCE:
        match = _TILE.match(word)
        return TILE_ID[int(match.group(1)), int(match.group(2))] if match else None
    if word in ("pass", "-"):
        return PASS
    if word == "draw":
        return DRAW_TILE
    match = _PLAY.match(word)
    if not match:
        return None
    tile = TILE_ID[int(match.group(1)), int(match.group(2))]
    side = match.group(3)
    if side is None:
        if state.line:
            return None  # after the lead the end must be named
        return 2 * tile
    return 2 * tile + (0 if side.startswith("l") else 1)


# -- serialisation ----------------------------------------------------------------
def _names(mask: int) -> list[str]:
    return [tile_name(t) for t in ids(mask)]


def state_fields(state: "DominoesState") -> dict[str, Any]:
    return {
        "hands": [_names(hand) for hand in state.hands],
        "boneyard": _names(state.boneyard),
        "line": [f"{a}-{b}" for a, b in state.line],
        "seat": state.seat,
        "to_move": state.player,
        "phase": PHASE_NAMES[state.phase],
        "deal_index": state.deal_index,
        "passes": state.passes,
        "points": list(state.points),
        "winners": list(state.winners),
        "hand_slots": [list(slots) for slots in state.hand_slots],
        "private_to": list(state.private_to),
    }


def _tiles(value: Any, field: str) -> list[int]:
    if not isinstance(value, list):
        raise field_error(field, "expected a list of tiles such as '3-5'")
    out = []
    for name in value:
        match = _TILE.match(name) if isinstance(name, str) else None
        if not match:
            raise field_error(field, f"{name!r} is not a tile: two pip counts 0-6 joined by '-', e.g. '3-5'")
        out.append(TILE_ID[int(match.group(1)), int(match.group(2))])
    return out


def state_from_fields(game: "DominoesGame", fields: dict[str, Any]) -> "DominoesState":
    """Build a state from :func:`state_fields` output, checking every field."""
    state = game.new_initial_state()
    n = game.players
    phase = fields.get("phase")
    if phase not in PHASE_NAMES:
        raise field_error("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {phase!r}")
    state.phase = PHASE_NAMES.index(phase)
    hands = fields.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise field_error("hands", f"expected {n} hands")
    seen = [t for i, hand in enumerate(hands) for t in _tiles(hand, f"hands[{i}]")]
    state.hands = [sum(1 << t for t in _tiles(hand, f"hands[{i}]")) for i, hand in enumerate(hands)]
    boneyard = _tiles(fields.get("boneyard"), "boneyard")
    state.boneyard = sum(1 << t for t in boneyard)
    line = fields.get("line")
    if not isinstance(line, list) or not all(isinstance(t, str) and _TILE.match(t) for t in line):
        raise field_error("line", "expected the line of play as tiles 'a-b', left to right")
    state.line = [(int(t[0]), int(t[2])) for t in line]
    for left, right in zip(state.line, state.line[1:]):
        if left[1] != right[0]:
            raise field_error("line", f"{left[0]}-{left[1]} and {right[0]}-{right[1]} do not match where they meet")
    seen += boneyard + [TILE_ID[pair] for pair in state.line]
    if sorted(seen) != list(range(COUNT)):
        raise field_error("hands", "hands, boneyard and line must hold each of the 28 tiles exactly once")
    state.seat = read_int(fields, "seat", 0, n - 1)
    state.deal_index = read_int(fields, "deal_index", 0, n * game.hand_size)
    over = PHASE_NAMES[state.phase] == "over"
    state.passes = read_int(fields, "passes", 0, n if over else n - 1)
    points = fields.get("points")
    if not isinstance(points, list) or len(points) != n or not all(type(p) is int and p >= 0 for p in points):
        raise field_error("points", f"expected {n} non-negative integers")
    state.points = list(points)
    winners = fields.get("winners")
    if not isinstance(winners, list) or not all(type(w) is int and 0 <= w < n for w in winners):
        raise field_error("winners", "expected a list of seats")
    if over != bool(winners):
        raise field_error("winners", "a finished game has winners, and only a finished game")
    state.winners = sorted(set(winners))
    to_move = fields.get("to_move")
    expected = {"play": state.seat, "over": TERMINAL}.get(PHASE_NAMES[state.phase], CHANCE)
    if to_move != expected:
        raise field_error("to_move", f"{to_move!r} does not fit phase {phase!r} with seat {state.seat}")
    state.player = to_move
    read_draws(state, fields, n)
    if not state.is_terminal() and not state.legal_actions():
        raise field_error("phase", f"phase {phase!r} has no legal action in this position")
    return state


def position(game: "DominoesGame", **fields: Any) -> "DominoesState":
    """A position for tests and puzzles: ``state_fields`` with defaults.

    Defaults: P1 to play, no passes, no points, and the boneyard holding
    every tile not in a hand or the line. ``hands`` and ``line`` are required.
    """
    base: dict[str, Any] = {
        "seat": 0,
        "phase": "play",
        "deal_index": game.players * game.hand_size,
        "passes": 0,
        "points": [0] * game.players,
        "winners": [],
        "hand_slots": [[] for _ in range(game.players)],
        "private_to": [],
    }
    base.update(fields)
    base.setdefault("to_move", base["seat"])
    if "boneyard" not in base:
        used = {TILE_ID[int(t[0]), int(t[2])] for t in base["line"]}
        used |= {TILE_ID[int(t[0]), int(t[2])] for hand in base["hands"] for t in hand}
        base["boneyard"] = [tile_name(t) for t in range(COUNT) if t not in used]
    return state_from_fields(game, base)


# -- views --------------------------------------------------------------------------
def view(state: "DominoesState", viewer: int = SPECTATOR) -> dict[str, Any]:
    """What ``viewer`` may see: the line, the hand sizes, the boneyard's
    size, their own hand, and every hand once the game is over."""
    game = state.game()
    check_viewer(viewer, game.players)
    over = PHASE_NAMES[state.phase] == "over"
    ends = state.ends()
    return {
        "game": "dominoes",
        "viewer": viewer,
        "draw": game.draw,
        "line": [list(pair) for pair in state.line],
        "ends": list(ends) if ends else None,
        "hand": _names(state.hands[viewer]) if viewer >= 0 else None,
        "hand_sizes": [hand.bit_count() for hand in state.hands],
        "boneyard": state.boneyard.bit_count(),
        "points": list(state.points),
        "to_move": state.player,
        "seat": state.seat,
        "phase": PHASE_NAMES[state.phase],
        "decision": describe_decision(state),
        "legal": [action_to_string(state, a) for a in state.legal_actions()] if state.player == viewer else [],
        "winners": list(state.winners),
        "blocked": state.is_blocked(),
        # shown at the end, when the hands are counted
        "final_hands": [_names(hand) for hand in state.hands] if over else None,
        "pips": [pip_total(hand) for hand in state.hands] if over else None,
    }


__all__ = ["TILES", "position"]
