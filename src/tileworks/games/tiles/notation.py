"""Tiles notation, serialisation and views.

A placement names the tile as it will lie (its north, east, south and west
triangles) and the cell: ``wgbw@1,0`` puts a tile with white north, grey east,
black south and white west on the cell one step east of the first tile (x
grows east, y grows north; the first tile is at 0,0). Typing the tile as it
will lie chooses both the tile and its turn.

``discard gbbw`` discards a tile of that kind (any rotation may be typed);
``pass`` passes with an empty hand. Chance outcomes read ``grey,black`` (the
colours of P1, P2, …), ``P2`` (the first player) and a tile kind such as
``bgww`` (a tile drawn from the deck).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tileworks.core import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.i18n import N_, _, gettext
from tileworks.core.text import check_viewer, field_error, read_draws, read_int, read_move, seat_name
from tileworks.games.tiles import constants as const
from tileworks.games.tiles.tileset import COLOUR_NAMES, COLOURS, canonical

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tiles.rules import TilesGame, TilesState

_PLACE = re.compile(r"^([wgb]{4})@(-?\d+),(-?\d+)$")
_DISCARD = re.compile(r"^(?:discard|d|x)([wgb]{4})$")


def describe_decision(state: "TilesState") -> str:
    phase = state.phase
    if phase == const.COLOURS_PHASE:
        return _("chance assigns the colours")
    if phase == const.FIRST_PHASE:
        return _("chance picks the first player")
    if phase == const.DEAL:
        return _("chance deals a tile to {who}", who=seat_name(state.deal_index // state._game.hand_size))
    if phase == const.ORIGIN_PHASE:
        return _("chance turns up the first tile")
    if phase == const.DRAW:
        return _("{who} draws a tile", who=seat_name(state.seat))
    if phase == const.OVER:
        return _("the game is over")
    return _("{who} ({colour}) places a tile, or discards if none fits",
             who=seat_name(state.seat), colour=gettext(COLOUR_NAMES[state.colour[state.seat]]))


def action_to_string(state: "TilesState", action: int) -> str:
    game = state._game
    if state.player == CHANCE:
        if state.phase == const.COLOURS_PHASE:
            return ",".join(COLOUR_NAMES[c] for c in game.colourings[action]) if 0 <= action < len(game.colourings) else str(action)
        if state.phase == const.FIRST_PHASE:
            return seat_name(action)
        return game.tileset.kinds[action] if 0 <= action < game.kinds else str(action)
    if action == game.pass_action:
        return "pass"
    if game.discard_base <= action < game.pass_action:
        return "discard " + game.tileset.kinds[action - game.discard_base]
    if 0 <= action < game.discard_base:
        kind, turn, key = state.placement(action)
        x, y = const.cell_xy(key)
        return f"{game.tileset.oriented(kind, turn)}@{x},{y}"
    return str(action)


def describe_move(state: "TilesState", action: int) -> str:
    """A player's words for a move with no click (a button's label)."""
    if action == state._game.pass_action:
        return _("pass (no tile fits)")
    return action_to_string(state, action)


def describe_action(state: "TilesState", action: int) -> str:
    """A move in words, for the game log (a draw names no tile: only its holder sees it)."""
    game = state._game
    if state.player == CHANCE:
        if state.phase == const.COLOURS_PHASE:
            colours = ", ".join(_("{who} {colour}", who=seat_name(seat), colour=gettext(COLOUR_NAMES[c]))
                                for seat, c in enumerate(game.colourings[action]))
            return _("chance assigns the colours: {colours}", colours=colours)
        if state.phase == const.FIRST_PHASE:
            return _("chance picks {who} to start", who=seat_name(action))
        return describe_decision(state)
    who = seat_name(state.seat)
    if action == game.pass_action:
        return _("{who} passes with an empty hand", who=who)
    if action >= game.discard_base:
        return _("{who} discards {tile}: no tile of the hand fits", who=who, tile=game.tileset.kinds[action - game.discard_base])
    kind, turn, key = state.placement(action)
    x, y = const.cell_xy(key)
    return _("{who} places {tile} at {x},{y}", who=who, tile=game.tileset.oriented(kind, turn), x=x, y=y)


def reason_illegal(state: "TilesState", action: int) -> str | None:
    """Why a placement, discard or pass is refused, in a player's terms."""
    game = state._game
    if state.phase != const.DECIDE or not 0 <= action <= game.pass_action:
        return None
    who = seat_name(state.seat)
    hand = state.hand(state.seat)
    if action == game.pass_action:
        return _("{who} still holds tiles: a pass is only for an empty hand", who=who)
    if action >= game.discard_base:
        if not hand[action - game.discard_base]:
            return _("{who} holds no {tile}", who=who, tile=game.tileset.kinds[action - game.discard_base])
        return _("a tile of {who}'s hand fits: place one instead of discarding", who=who)
    kind, turn, key = state.placement(action)
    x, y = const.cell_xy(key)
    if not hand[kind]:
        return _("{who} holds no {tile}", who=who, tile=game.tileset.kinds[kind])
    if key in state.board:
        return _("{x},{y} already holds a tile", x=x, y=y)
    if key not in state.frontier:
        return _("{x},{y} is not an empty cell beside the tiles down", x=x, y=y)
    return _("{tile} does not match the colours beside {x},{y}", tile=game.tileset.oriented(kind, turn), x=x, y=y)


def clicks(state: "TilesState", action: int) -> list[dict[str, str]]:
    """The clicks on the SVG picture that make a player action: the hand
    tile, the cell, then the rotation as a button (a client skips it when
    only one rotation fits there); a discard is the hand tile alone, and a
    pass has no click."""
    game = state._game
    if action == game.pass_action:
        return []
    if game.discard_base <= action < game.pass_action:
        return [{"tile": game.tileset.kinds[action - game.discard_base]}]
    kind, turn, key = state.placement(action)
    x, y = const.cell_xy(key)
    return [{"tile": game.tileset.kinds[kind]}, {"cell": f"{x},{y}"}, {"button": game.tileset.oriented(kind, turn)}]


def string_to_action(state: "TilesState", text: str) -> int:
    """Read a move typed in notation; it must be legal in ``state``."""
    return read_move(
        state, text, _parse, "Tiles",
        N_("placements look like wgbw@1,0 (north east south west @ x,y), discards like discard gbbw, or pass"),
    )


def _parse(state: "TilesState", word: str) -> int | None:
    game = state._game
    ts = game.tileset
    phase = state.phase
    if phase == const.COLOURS_PHASE:
        names = word.split(",")
        colours = tuple(COLOUR_NAMES.index(n) for n in names if n in COLOUR_NAMES)
        if len(colours) != len(names):
            return None
        return game.colourings.index(colours) if colours in game.colourings else None
    if phase == const.FIRST_PHASE:
        match = re.fullmatch(r"p([1-3])", word)
        return int(match.group(1)) - 1 if match else None
    if phase in (const.DEAL, const.ORIGIN_PHASE, const.DRAW):
        if len(word) == 4 and not set(word) - set(COLOURS) and canonical(word) in ts.index:
            return ts.index[canonical(word)]
        return None
    if word == "pass":
        return game.pass_action
    match = _DISCARD.match(word)
    if match:
        name = canonical(match.group(1))
        return game.discard_base + ts.index[name] if name in ts.index else None
    match = _PLACE.match(word)
    if not match:
        return None
    code, x, y = match.group(1), int(match.group(2)), int(match.group(3))
    name = canonical(code)
    if name not in ts.index:
        return None
    kind = ts.index[name]
    turn = next(t for t, c in ts.orientations[kind] if c == code)
    px, py = x - state.bounds[0] + 1, y - state.bounds[2] + 1
    if not (0 <= px < game.width and 0 <= py < game.width):
        return None
    return (((py * game.width + px) * game.kinds + kind) << 2) | turn


# -- serialisation ------------------------------------------------------------------
def _layout(state: "TilesState") -> list[list[Any]]:
    return [[*const.cell_xy(key), code] for key, code in zip(state.tile_cell, state.tile_code)]


def _hand_names(state: "TilesState", seat: int) -> list[str]:
    kinds = state._game.tileset.kinds
    return [kinds[k] for k, n in enumerate(state.hand(seat)) for _ in range(n)]


def state_fields(state: "TilesState") -> dict[str, Any]:
    game = state._game
    kinds = game.tileset.kinds
    return {
        "colours": [COLOUR_NAMES[c] for c in state.colour] if state.colour[0] >= 0 else [],
        "first": state.first,
        "seat": state.seat,
        "to_move": state.player,
        "phase": const.PHASE_NAMES[state.phase],
        "deal_index": state.deal_index,
        "hands": [_hand_names(state, s) for s in range(game.players)],
        "hand_slots": [list(slots) for slots in state.hand_slots],
        "deck": {kinds[k]: n for k, n in enumerate(state.deck) if n},
        "discards": [kinds[k] for k in state.discards],
        "points": list(state.points),
        "layout": _layout(state),
        "private_to": list(state.private_to),
    }


def _int_list(value: Any, name: str, lo: int, hi: int) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int and lo <= v <= hi for v in value):
        raise field_error(name, f"expected a list of integers from {lo} to {hi}")
    return list(value)


def _kind(game: "TilesGame", name: Any, field: str) -> int:
    if not isinstance(name, str) or len(name) != 4:
        raise field_error(field, f"{name!r} is not a tile code: four letters w, g or b (north, east, south, west)")
    if canonical(name) not in game.tileset.index:
        raise field_error(field, f"{name!r} is not a tile of this set")
    return game.tileset.index[canonical(name)]


def state_from_fields(game: "TilesGame", fields: dict[str, Any]) -> "TilesState":
    """Build a state from :func:`state_fields` output, checking every field."""
    state = game.new_initial_state()
    n, k = game.players, game.kinds
    phase_name = fields.get("phase")
    if phase_name not in const.PHASE_NAMES:
        raise field_error("phase", f"expected one of {', '.join(const.PHASE_NAMES)}, got {phase_name!r}")
    state.phase = const.PHASE_NAMES.index(phase_name)
    colours = fields.get("colours")
    if colours == []:
        if state.phase != const.COLOURS_PHASE:
            raise field_error("colours", "every seat has a colour once chance has assigned them")
    else:
        if not isinstance(colours, list) or len(colours) != n or not all(c in COLOUR_NAMES for c in colours):
            raise field_error("colours", f"expected {n} of {', '.join(COLOUR_NAMES)}")
        state.colour = [COLOUR_NAMES.index(c) for c in colours]
        if len(set(state.colour)) != n:
            raise field_error("colours", "each seat plays a different colour")
    state.first = read_int(fields, "first", -1, n - 1)
    state.seat = read_int(fields, "seat", 0, n - 1)
    state.deal_index = read_int(fields, "deal_index", 0, n * game.hand_size)
    to_move = fields.get("to_move")
    ok = to_move == (CHANCE if state.phase < const.DECIDE else TERMINAL if state.phase == const.OVER else state.seat)
    if not ok:
        raise field_error("to_move", f"{to_move!r} does not fit phase {phase_name!r} with seat {state.seat}")
    state.player = to_move

    counts = [0] * k
    hands = fields.get("hands")
    if not isinstance(hands, list) or len(hands) != n or not all(isinstance(h, list) for h in hands):
        raise field_error("hands", f"expected {n} lists of tiles")
    for seat, hand in enumerate(hands):
        for name in hand:
            kind = _kind(game, name, f"hands[{seat}]")
            state.hands[seat * k + kind] += 1
            counts[kind] += 1
    deck = fields.get("deck")
    if not isinstance(deck, dict):
        raise field_error("deck", "expected an object of tile kind -> count")
    state.deck = [0] * k
    for name, count in deck.items():
        if type(count) is not int or count < 1:
            raise field_error("deck", f"count of {name!r} must be a positive integer")
        state.deck[_kind(game, name, "deck")] += count
    state.deck_total = sum(state.deck)
    counts = [a + b for a, b in zip(counts, state.deck)]
    discards = fields.get("discards")
    if not isinstance(discards, list):
        raise field_error("discards", "expected a list of tiles")
    state.discards = [_kind(game, name, "discards") for name in discards]
    for kind in state.discards:
        counts[kind] += 1
    state.points = _int_list(fields.get("points"), "points", 0, 100_000)
    if len(state.points) != n:
        raise field_error("points", f"expected {n} scores")

    layout = fields.get("layout")
    if not isinstance(layout, list):
        raise field_error("layout", "expected a list of [x, y, code]")
    for i, item in enumerate(layout):
        if (
            not isinstance(item, list) or len(item) != 3 or type(item[0]) is not int
            or type(item[1]) is not int or not isinstance(item[2], str)
        ):
            raise field_error("layout", f"tile {i + 1}: expected [x, y, code]")
        x, y, code = item
        kind = _kind(game, code, "layout")
        counts[kind] += 1
        key = const.cell_key(x, y)
        if not (-100 <= x <= 100 and -100 <= y <= 100) or key in state.board:
            raise field_error("layout", f"tile {i + 1} at {x},{y}: off the grid or on a taken cell")
        if i == 0:
            if (x, y) != (0, 0):
                raise field_error("layout", "the first tile lies at 0,0")
        else:
            pattern = state.frontier.get(key)
            if pattern is None:
                raise field_error("layout", f"tile {i + 1} at {x},{y} touches no earlier tile")
            turn = next(t for t, c in game.tileset.orientations[kind] if c == code.lower())
            if turn not in game.tileset.fits[pattern][kind]:
                raise field_error("layout", f"tile {i + 1} {code} at {x},{y} does not match its neighbours")
        state._place(key, code.lower(), -1)
    if counts != game.tileset.count:
        raise field_error("hands", "hands, deck, discards and layout must hold exactly the tile set")
    if state.phase >= const.DECIDE and state.phase != const.OVER and not state.tile_cell:
        raise field_error("layout", "play starts once the first tile is down")
    if state.phase == const.OVER and (state.deck_total or any(state.hands)):
        raise field_error("phase", "the game ends only when every tile is played or discarded")

    read_draws(state, fields, n)
    if not state.is_terminal() and not state.legal_actions():
        raise field_error("phase", f"phase {phase_name!r} has no legal action in this position")
    return state


def position(game: "TilesGame", **fields: Any) -> "TilesState":
    """A position for tests and puzzles: ``state_fields`` with defaults.

    Defaults: P1 to play with the colours white, grey (and black) in seat
    order, no points, no discards, and the deck holding every tile not in
    the layout, the hands or the discards. ``layout`` and ``hands`` are
    required.
    """
    n = game.players
    base: dict[str, Any] = {
        "colours": list(COLOUR_NAMES[:n]),
        "first": 0,
        "seat": fields.get("to_move", 0) if fields.get("to_move", 0) >= 0 else 0,
        "to_move": 0,
        "phase": "decide",
        "deal_index": n * game.hand_size,
        "discards": [],
        "points": [0] * n,
        "hand_slots": [[] for _ in range(n)],
        "private_to": [],
    }
    base.update(fields)
    if "deck" not in base:
        ts = game.tileset
        left = list(ts.count)
        used = [code for _, _, code in base["layout"]] + list(base["discards"])
        used += [code for hand in base["hands"] for code in hand]
        for code in used:
            left[ts.kind_of(code)] -= 1
        base["deck"] = {ts.kinds[i]: c for i, c in enumerate(left) if c > 0}
    return state_from_fields(game, base)


# -- views ----------------------------------------------------------------------------
def view(state: "TilesState", viewer: int = SPECTATOR) -> dict[str, Any]:
    """What ``viewer`` may see: the layout, the discards, the scores, hand
    sizes, the deck's size, and only their own hand."""
    game = state._game
    check_viewer(viewer, game.players)
    mine = viewer >= 0
    return {
        "game": "tiles",
        "viewer": viewer,
        "colours": [COLOUR_NAMES[c] for c in state.colour] if state.colour[0] >= 0 else [],
        "layout": _layout(state),
        "bounds": list(state.bounds),
        "hand": _hand_names(state, viewer) if mine else None,
        "hand_sizes": [state.hand_count(s) for s in range(game.players)],
        "deck": state.deck_total,
        "discards": [game.tileset.kinds[k] for k in state.discards],
        "points": list(state.points),
        "to_move": state.player,
        "seat": state.seat,
        "phase": const.PHASE_NAMES[state.phase],
        "decision": describe_decision(state),
        "legal": [action_to_string(state, a) for a in state.legal_actions()] if state.player == viewer else [],
        "winners": [s for s, v in enumerate(state.returns()) if v > 0] if state.phase == const.OVER else [],
    }
