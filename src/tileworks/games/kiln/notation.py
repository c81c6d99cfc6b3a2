"""KILN notation, serialisation and views.

One notation, used everywhere (typed moves, records, logs):

=============  ===========================================================
``c8``         push: move the outer tile to border cell c8 and push it in
``d4``         group: copy the largest group that contains kiln cell d4
``p23``        place: the shape's first tile (top row, leftmost) goes on
               warehouse row 2, column 3
``x23``        erase (erase rule): erase warehouse row 2, column 3
``keep``       decline the erase
``$r35``       sell rows 3 and 5; ``$c5`` sells column 5
``pass``       sell nothing
=============  ===========================================================

Warehouse rows are numbered 1-5 from the top and columns 1-5 from the left.
Chance outcomes read ``red`` (the colour of the next kiln tile during
setup), ``c8`` (the black tile's border cell) and ``P2`` (a tied first
player).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tileworks.core import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.i18n import N_, _, gettext
from tileworks.core.text import check_viewer, field_error, read_int, read_move, seat_name
from tileworks.games.kiln import board
from tileworks.games.kiln import constants as k
from tileworks.games.kiln.board import (
    BORDER_INDEX,
    BORDER_NAMES,
    KILN_CELL_INDEX,
    KILN_CELL_NAMES,
)

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.kiln.rules import KilnGame, KilnState


def seat_label(game: "KilnGame", seat: int) -> str:
    """``P1 (red)`` or, in the advanced variant, ``P1 (red+green)``."""
    colours = "+".join(gettext(k.COLOUR_NAMES[c]) for c in game.colours[seat])
    return f"{seat_name(seat)} ({colours})"


def _cell(index: int) -> str:
    return f"{index // 5 + 1}{index % 5 + 1}"


def describe_decision(state: "KilnState") -> str:
    """A sentence naming the decision of ``state``."""
    game = state._game
    phase = state.phase
    if phase == k.FILL:
        filled = sum(m.bit_count() for m in state.masks)
        return _("chance fills {cell} of the kiln", cell=KILN_CELL_NAMES[filled])
    if phase == k.BLACK_TILE:
        return _("chance places the black tile on a border cell")
    if phase == k.FIRST_PLAYER:
        seats = ", ".join(seat_name(s) for s in state._tied_starters())
        return _("chance picks the first player among {seats}", seats=seats)
    if phase == k.OVER:
        return _("the game is over")
    who = seat_label(game, state.player)
    colour = gettext(k.COLOUR_NAMES[state.mover_colour()])
    if phase == k.PUSHING:
        tile = k.TILE_LETTERS[state.outer_tile]
        return _("{who} pushes the outer tile ({tile} on {cell})", who=who, tile=tile, cell=BORDER_NAMES[state.outer_cell])
    if phase == k.CHOOSING:
        return _("{who} chooses one of the largest {colour} groups", who=who, colour=colour)
    if phase == k.PLACING:
        return _("{who} chooses where to paint the {colour} shape", who=who, colour=colour)
    if phase == k.ERASING:
        later = _later_erase_colour(state)
        if later is not None:
            return _("{who} may erase one painted {colour} cell, or keep and look at {other} (no largest group fits)",
                     who=who, colour=colour, other=gettext(k.COLOUR_NAMES[later]))
        return _("{who} may erase one painted {colour} cell (no largest group fits)", who=who, colour=colour)
    return _("{who} may sell complete rows or columns of the {colour} warehouse", who=who, colour=colour)


def _later_erase_colour(state: "KilnState") -> int | None:
    """In the advanced variant's erase step: the other warehouse that keep
    moves on to, if there is one."""
    index = state.erasable_step(state.step + 1)
    return None if index is None else state._game.colours[state.player][index]


def action_to_string(state: "KilnState", action: int) -> str:
    """The notation of ``action`` in ``state``'s current decision."""
    if state.player == CHANCE:
        if state.phase == k.FILL:
            return k.COLOUR_NAMES[action] if 0 <= action < 4 else str(action)
        if state.phase == k.BLACK_TILE:
            return BORDER_NAMES[action] if 0 <= action < 24 else str(action)
        return seat_name(action)
    return player_action_to_string(action)


def player_action_to_string(action: int) -> str:
    """The notation of a player action (player action ids are unique per kind).

    >>> [player_action_to_string(a) for a in (0, 24, 72, 110, 114, 145, 173)]
    ['b8', 'b7', 'p33', 'keep', '$r3', '$c3', 'pass']
    """
    if k.PUSH <= action < k.GROUP:
        return BORDER_NAMES[action]
    if k.GROUP <= action < k.PLACE:
        return KILN_CELL_NAMES[action - k.GROUP]
    if k.PLACE <= action < k.ERASE:
        return "p" + _cell(action - k.PLACE)
    if k.ERASE <= action < k.KEEP:
        return "x" + _cell(action - k.ERASE)
    if action == k.KEEP:
        return "keep"
    if k.SELL_ROWS <= action < k.NO_SALE:
        kind, lines = _sale(action)
        return f"${kind}" + "".join(map(str, lines))
    if action == k.NO_SALE:
        return "pass"
    return str(action)


def describe_move(state: "KilnState", action: int) -> str:
    """A player's words for a move made by a button.

    >>> describe_move(None, k.SELL_ROWS + 0b10100 - 1)
    'sell rows 3, 5 (3 points)'
    """
    if action == k.KEEP:
        later = _later_erase_colour(state) if state is not None else None
        if later is not None:
            return _("erase in {colour} instead", colour=gettext(k.COLOUR_NAMES[later]))
        return _("erase nothing")
    if action == k.NO_SALE:
        return _("sell nothing")
    if k.SELL_ROWS <= action < k.NO_SALE:
        kind, lines = _sale(action)
        listed, points = ", ".join(map(str, lines)), board.price(len(lines))
        if kind == "c":
            return _("sell columns {lines} ({points} points)", lines=listed, points=points)
        return _("sell rows {lines} ({points} points)", lines=listed, points=points)
    return player_action_to_string(action)


def describe_action(state: "KilnState", action: int) -> str:
    """A move in words, for the game log.

    >>> import tileworks
    >>> from tileworks.games.kiln import position
    >>> state = position(tileworks.load_game("kiln"), kiln=["RBGYRB", "GYRBGY"] * 3)
    >>> describe_action(state, state.string_to_action("c8"))
    'P1 (red) pushes the outer tile in at c8'
    """
    phase = state.phase
    if state.player == CHANCE:
        if phase == k.FILL:
            filled = sum(m.bit_count() for m in state.masks)
            return _("chance puts a {colour} tile on {cell} of the kiln", colour=gettext(k.COLOUR_NAMES[action]),
                     cell=KILN_CELL_NAMES[filled])
        if phase == k.BLACK_TILE:
            return _("chance puts the black tile on border cell {cell}", cell=BORDER_NAMES[action])
        return _("chance picks {who} to start", who=seat_name(action))
    who = seat_label(state._game, state.player)
    colour = gettext(k.COLOUR_NAMES[state.mover_colour()])
    if k.PUSH <= action < k.GROUP:
        return _("{who} pushes the outer tile in at {cell}", who=who, cell=BORDER_NAMES[action])
    if k.GROUP <= action < k.PLACE:
        return _("{who} copies the largest {colour} group at {cell}", who=who, colour=colour,
                 cell=KILN_CELL_NAMES[action - k.GROUP])
    if k.PLACE <= action < k.ERASE:
        row, column = divmod(action - k.PLACE, 5)
        return _("{who} paints the shape in the {colour} warehouse from row {row}, column {column}",
                 who=who, colour=colour, row=row + 1, column=column + 1)
    if k.ERASE <= action < k.KEEP:
        row, column = divmod(action - k.ERASE, 5)
        return _("{who} erases row {row}, column {column} of the {colour} warehouse",
                 who=who, colour=colour, row=row + 1, column=column + 1)
    if action == k.KEEP:
        later = _later_erase_colour(state)
        if later is not None:
            return _("{who} erases nothing in {colour} and looks at {other}", who=who, colour=colour,
                     other=gettext(k.COLOUR_NAMES[later]))
        return _("{who} erases nothing", who=who)
    if action == k.NO_SALE:
        return _("{who} sells nothing", who=who)
    kind, lines = _sale(action)
    listed, points = ", ".join(map(str, lines)), board.price(len(lines))
    if len(lines) == 1:  # one line sells for one point
        if kind == "c":
            return _("{who} sells column {line} of the {colour} warehouse for 1 point", who=who, line=listed, colour=colour)
        return _("{who} sells row {line} of the {colour} warehouse for 1 point", who=who, line=listed, colour=colour)
    if kind == "c":
        return _("{who} sells columns {lines} of the {colour} warehouse for {points} points",
                 who=who, lines=listed, colour=colour, points=points)
    return _("{who} sells rows {lines} of the {colour} warehouse for {points} points",
             who=who, lines=listed, colour=colour, points=points)


def reason_illegal(state: "KilnState", action: int) -> str | None:
    """Why a move of the right kind is refused, in a player's terms.

    >>> import tileworks
    >>> from tileworks.games.kiln import position
    >>> state = position(tileworks.load_game("kiln"), kiln=["RBGYRB", "GYRBGY"] * 3)
    >>> reason_illegal(state, k.PUSH + BORDER_INDEX["b8"])
    'the outer tile is on b8 already: push it in from another border cell'
    """
    phase = state.phase
    colour = gettext(k.COLOUR_NAMES[state.mover_colour()]) if state.player >= 0 else ""
    if phase == k.PUSHING and action == k.PUSH + state.outer_cell:
        return _("the outer tile is on {cell} already: push it in from another border cell", cell=BORDER_NAMES[action])
    if phase == k.CHOOSING and k.GROUP <= action < k.PLACE:
        return _("{cell} is not in one of the largest {colour} groups", cell=KILN_CELL_NAMES[action - k.GROUP],
                 colour=colour)
    if phase == k.PLACING and k.PLACE <= action < k.ERASE:
        row, column = divmod(action - k.PLACE, 5)
        return _("the shape does not fit in the {colour} warehouse with its first tile on row {row}, column {column}",
                 colour=colour, row=row + 1, column=column + 1)
    if phase == k.ERASING and k.ERASE <= action < k.KEEP:
        row, column = divmod(action - k.ERASE, 5)
        return _("row {row}, column {column} of the {colour} warehouse is not painted", row=row + 1,
                 column=column + 1, colour=colour)
    if phase == k.SELLING and k.SELL_ROWS <= action < k.NO_SALE:
        kind, lines = _sale(action)
        listed = ", ".join(map(str, lines))
        if kind == "c":
            return _("columns {lines} of the {colour} warehouse are not all complete", lines=listed, colour=colour)
        return _("rows {lines} of the {colour} warehouse are not all complete", lines=listed, colour=colour)
    return None


def clicks(state: "KilnState", action: int) -> list[dict[str, str]]:
    """The clicks on the SVG picture that make a player action: a border
    cell to push from, a kiln cell of the group to take, a cell of the
    mover's warehouse. A sale clicks the handles of its complete rows (or
    columns) in order, then the button naming the sale, so that every sale
    ends in its own click. Keep and pass have no click (a client shows them
    as buttons).

    >>> import tileworks
    >>> from tileworks.games.kiln import position
    >>> state = position(tileworks.load_game("kiln"), kiln=["RBGYRB", "GYRBGY"] * 3)
    >>> clicks(state, k.SELL_ROWS + 0b10100 - 1)
    [{'warehouse': 'red', 'sale': 'r3'}, {'warehouse': 'red', 'sale': 'r5'}, {'button': 'sell rows 3, 5 (3 points)'}]
    """
    if k.PUSH <= action < k.GROUP:
        return [{"border": BORDER_NAMES[action]}]
    if k.GROUP <= action < k.PLACE:
        return [{"kiln": KILN_CELL_NAMES[action - k.GROUP]}]
    colour = k.COLOUR_NAMES[state.mover_colour()]
    if k.PLACE <= action < k.KEEP:
        index = (action - k.PLACE) % (k.ERASE - k.PLACE)
        return [{"warehouse": colour, "cell": _cell(index)}]
    if k.SELL_ROWS <= action < k.NO_SALE:
        kind, lines = _sale(action)
        handles = [{"warehouse": colour, "sale": f"{kind}{line}"} for line in lines]
        return [*handles, {"button": describe_move(state, action)}]
    return []


def _sale(action: int) -> tuple[str, list[int]]:
    """A sale's kind (``r`` rows or ``c`` columns) and its lines, numbered from 1.

    >>> _sale(k.SELL_COLUMNS + 0b101 - 1)
    ('c', [1, 3])
    """
    columns = action >= k.SELL_COLUMNS
    subset = action - (k.SELL_COLUMNS if columns else k.SELL_ROWS) + 1
    return ("c" if columns else "r"), [i + 1 for i in range(5) if subset >> i & 1]


_WAREHOUSE_CELL = re.compile(r"^([px])([1-5])([1-5])$")
_SALE = re.compile(r"^(?:\$|sell)?([rc])([1-5]+)$")


def string_to_action(state: "KilnState", text: str) -> int:
    """Read a move typed in notation; it must be legal in ``state``.

    Raises :class:`IllegalActionError` saying why the text is not a legal move.
    """
    return read_move(
        state, text, _parse, "KILN",
        N_("moves look like c8 (push), d4 (group), p23 (place), x23 (erase), keep, $r35 / $c5 (sell), pass"),
    )


def _parse(state: "KilnState", word: str) -> int | None:
    phase = state.phase
    if phase == k.FILL:
        return k.COLOUR_NAMES.index(word) if word in k.COLOUR_NAMES[:4] else None
    if phase == k.BLACK_TILE:
        return BORDER_INDEX.get(word)
    if phase == k.FIRST_PLAYER:
        match = re.fullmatch(r"p([1-4])", word)
        return int(match.group(1)) - 1 if match else None
    if phase == k.SELLING:
        if word in ("pass", "-", "none"):
            return k.NO_SALE
        match = _SALE.match(word)
        if not match or len(set(match.group(2))) != len(match.group(2)):
            return None
        subset = sum(1 << (int(d) - 1) for d in match.group(2))
        base = k.SELL_ROWS if match.group(1) == "r" else k.SELL_COLUMNS
        return base + subset - 1
    if word in BORDER_INDEX:
        return k.PUSH + BORDER_INDEX[word]
    if word in KILN_CELL_INDEX:
        return _group_action(state, KILN_CELL_INDEX[word])
    if word == "keep":
        return k.KEEP
    match = _WAREHOUSE_CELL.match(word)
    if match:
        index = 5 * (int(match.group(2)) - 1) + int(match.group(3)) - 1
        return (k.PLACE if match.group(1) == "p" else k.ERASE) + index
    return None


def _group_action(state: "KilnState", cell: int) -> int:
    """Any cell of a group names the choice that group stands for."""
    if state.phase != k.CHOOSING:
        return k.GROUP + cell
    colour = state.mover_colour()
    mask = state.masks[colour]
    group = board.grow(1 << cell, mask)
    if not mask >> cell & 1 or group not in board.largest_groups(mask):
        return k.GROUP + cell
    warehouse = state.warehouses[colour]

    def result(g: int) -> int:
        key, shape = board.shape_of(g)
        return key if shape and board.placements(shape, warehouse) else -1

    wanted = result(group)
    return next(k.GROUP + board.first_cell(c) for c in state._group_choices() if result(c) == wanted)


# -- serialisation ------------------------------------------------------------
def _mask_rows(mask: int, width: int, rows: int, mark: str = "#") -> list[str]:
    return [
        "".join(mark if mask >> (width * y + x) & 1 else "." for x in range(width))
        for y in range(rows)
    ]


def kiln_rows(state: "KilnState") -> list[str]:
    cells = "".join(k.TILE_LETTERS[tile] if tile >= 0 else "." for tile in state.kiln_tiles())
    return [cells[6 * y: 6 * y + 6] for y in range(6)]


def state_fields(state: "KilnState") -> dict[str, Any]:
    game = state._game
    return {
        "kiln": kiln_rows(state),
        "outer": {
            "tile": k.TILE_LETTERS[state.outer_tile] if state.outer_tile >= 0 else None,
            "cell": BORDER_NAMES[state.outer_cell] if state.outer_cell >= 0 else None,
        },
        "warehouses": {
            k.COLOUR_NAMES[c]: _mask_rows(state.warehouses[c], 5, 5) for c in game.owned
        },
        "points": list(state.points),
        "to_move": state.player,
        "phase": k.PHASE_NAMES[state.phase],
        "step": state.step,
        "pending": _mask_rows(state.pending, 5, 5) if state.pending else None,
        "heated": state.heated,
        "skipped": [k.COLOUR_NAMES[c] for c in game.owned if state.skipped >> c & 1],
        "turns": state.turns,
        "winner": state.winner,
    }


def _read_rows(value: Any, field: str, width: int, alphabet: str) -> list[str]:
    if (
        not isinstance(value, list)
        or len(value) != width
        or not all(isinstance(row, str) and len(row) == width for row in value)
    ):
        raise field_error(field, f"expected {width} strings of {width} characters")
    for row in value:
        bad = set(row) - set(alphabet)
        if bad:
            raise field_error(field, f"unexpected character {sorted(bad)[0]!r}; allowed: {alphabet}")
    return value


def _rows_to_mask(rows: list[str], width: int, mark: str = "#") -> int:
    return sum(1 << (width * y + x) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == mark)


def state_from_fields(game: "KilnGame", fields: dict[str, Any]) -> "KilnState":
    """Build a state from :func:`state_fields` output, checking every field."""
    state = game.new_initial_state()
    rows = _read_rows(fields.get("kiln"), "kiln", 6, k.TILE_LETTERS + ".")
    for tile, letter in enumerate(k.TILE_LETTERS):
        state.masks[tile] = _rows_to_mask(rows, 6, letter)
    phase_name = fields.get("phase")
    if phase_name not in k.PHASE_NAMES:
        raise field_error("phase", f"expected one of {', '.join(k.PHASE_NAMES)}, got {phase_name!r}")
    state.phase = k.PHASE_NAMES.index(phase_name)
    outer = fields.get("outer")
    if not isinstance(outer, dict):
        raise field_error("outer", "expected an object with 'tile' and 'cell'")
    in_setup = state.phase in (k.FILL, k.BLACK_TILE)
    filled = sum(m.bit_count() for m in state.masks)
    if in_setup:
        if state.masks[k.BLACK] or _rows_to_mask(rows, 6, ".") != ((1 << 36) - 1) ^ ((1 << filled) - 1):
            raise field_error("kiln", "during setup the kiln fills in reading order with coloured tiles only")
        if state.phase == k.BLACK_TILE and filled != 36:
            raise field_error("kiln", "the black tile is placed only once the kiln is full")
        if state.phase == k.FILL and filled == 36:
            raise field_error("phase", "the kiln is full, so setup is past the fill")
        if outer != {"tile": "K", "cell": None}:
            raise field_error("outer", "during setup the outer tile is the black tile, not yet placed")
        state.outer_tile, state.outer_cell = k.BLACK, -1
    else:
        if filled != 36:
            raise field_error("kiln", "every kiln cell must hold a tile once setup is over")
        if outer.get("tile") not in tuple(k.TILE_LETTERS) or outer.get("cell") not in BORDER_INDEX:
            raise field_error("outer", "expected a tile letter (RBGYK) and a border cell name")
        state.outer_tile = k.TILE_LETTERS.index(outer["tile"])
        state.outer_cell = BORDER_INDEX[outer["cell"]]
    counts = [m.bit_count() for m in state.masks]
    if not in_setup:
        counts[state.outer_tile] += 1
        if counts != [9, 9, 9, 9, 1]:
            raise field_error("kiln", f"tile counts (with the outer tile) must be 9 of each colour and 1 black, got {counts}")
    elif max(counts) > 9:
        raise field_error("kiln", "a colour has more than 9 tiles")

    houses = fields.get("warehouses")
    names = [k.COLOUR_NAMES[c] for c in game.owned]
    if not isinstance(houses, dict) or sorted(houses) != sorted(names):
        raise field_error("warehouses", f"expected one warehouse for each of {', '.join(names)}")
    for colour in game.owned:
        name = k.COLOUR_NAMES[colour]
        state.warehouses[colour] = _rows_to_mask(_read_rows(houses[name], f"warehouses.{name}", 5, "#."), 5)

    points = fields.get("points")
    if not isinstance(points, list) or len(points) != game.num_discs or not all(
        type(p) is int and p >= 0 for p in points
    ):
        discs = "one per colour: red, blue, green, yellow" if game.per_colour else "one per seat"
        raise field_error("points", f"expected {game.num_discs} non-negative integers ({discs})")
    state.points = list(points)
    state.turns = read_int(fields, "turns", 0, game.turn_limit)
    heated = fields.get("heated", False)
    if type(heated) is not bool:
        raise field_error("heated", "expected true or false")
    state.heated = heated
    skipped = fields.get("skipped", [])
    names = [k.COLOUR_NAMES[c] for c in game.owned]
    if not isinstance(skipped, list) or not all(name in names for name in skipped):
        raise field_error("skipped", f"expected a list of owned colours ({', '.join(names)})")
    state.skipped = sum(1 << k.COLOUR_NAMES.index(name) for name in set(skipped))
    state.winner = read_int(fields, "winner", -1, game.players - 1)
    state.step = read_int(fields, "step", 0, len(game.colours[0]) - 1)
    to_move = fields.get("to_move")
    if state.phase in (k.FILL, k.BLACK_TILE, k.FIRST_PLAYER):
        expected_ok = to_move == CHANCE
    elif state.phase == k.OVER:
        expected_ok = to_move == TERMINAL
    else:
        expected_ok = type(to_move) is int and 0 <= to_move < game.players
    if not expected_ok:
        raise field_error("to_move", f"{to_move!r} does not fit phase {phase_name!r}")
    state.player = to_move
    if state.phase == k.OVER:
        won = state.winner >= 0 and state.scores()[state.winner] >= game.goal
        if not won and state.turns != game.turn_limit:
            raise field_error("winner", "a finished game needs a winner at the goal or the turn limit reached")
    elif state.winner != -1:
        raise field_error("winner", "only a finished game has a winner")
    pending = fields.get("pending")
    if state.phase == k.PLACING:
        state.pending = _rows_to_mask(_read_rows(pending, "pending", 5, "#."), 5)
        if not state.pending & board.ROW_MASKS[0] or not state.pending & board.COLUMN_MASKS[0]:
            raise field_error("pending", "expected a non-empty shape touching the warehouse's top and left edges")
    elif pending is not None:
        raise field_error("pending", "only the place step has a pending shape")
    if state.phase == k.ERASING and not state.skipped >> state.mover_colour() & 1:
        raise field_error("skipped", "the erase step needs the copy of the colour in play to have been skipped")
    if not state.is_terminal() and not state.legal_actions():
        raise field_error("phase", f"phase {phase_name!r} has no legal action in this position")
    return state


def position(game: "KilnGame", **fields: Any) -> "KilnState":
    """A position for tests and puzzles: ``state_fields`` with defaults.

    Defaults: empty warehouses, zero points, P1 to push, black tile outside
    on b8. ``kiln`` (6 strings of RBGYK) is required. In a position after the
    push (group, place, erase or sale step) the outer tile is the one this
    turn's push released, so a black tile outside there means an extra turn.
    """
    base: dict[str, Any] = {
        "outer": {"tile": "K", "cell": "b8"},
        "warehouses": {k.COLOUR_NAMES[c]: ["....."] * 5 for c in game.owned},
        "points": [0] * game.num_discs,
        "to_move": 0,
        "phase": "push",
        "step": 0,
        "pending": None,
        "heated": False,
        "skipped": [],
        "turns": 0,
        "winner": -1,
    }
    houses = dict(base["warehouses"])
    houses.update(fields.pop("warehouses", {}))
    base.update(fields)
    base["warehouses"] = houses
    return state_from_fields(game, base)


# -- views ----------------------------------------------------------------------
def view(state: "KilnState", viewer: int = SPECTATOR) -> dict[str, Any]:
    """Everything a viewer may see; in KILN that is the whole table."""
    game = state._game
    check_viewer(viewer, game.players)
    moving = state.player >= 0
    scores = state.scores()
    return {
        "game": "kiln",
        "viewer": viewer,
        "goal": game.goal,
        "variant": game.variant,
        "heat_tokens": list(game.heat_tokens),
        "erase_rule": game.erase_rule,
        "advanced_scoring": game.advanced_scoring if game.variant == "advanced" else None,
        "turn": state.turns + (0 if state.phase == k.OVER else 1),
        "turn_limit": game.turn_limit,
        "kiln": kiln_rows(state),
        "outer": {
            "tile": k.TILE_LETTERS[state.outer_tile],
            "cell": BORDER_NAMES[state.outer_cell] if state.outer_cell >= 0 else None,
        },
        "seats": [
            {
                "name": seat_name(seat),
                "colours": [k.COLOUR_NAMES[c] for c in game.colours[seat]],
                "points": scores[seat],
                # the score disc that each colour's sales move, in the order of "colours"
                "discs": [state.points[game.disc_of[c]] for c in game.colours[seat]],
                "warehouses": [_mask_rows(state.warehouses[c], 5, 5) for c in game.colours[seat]],
            }
            for seat in range(game.players)
        ],
        "to_move": state.player,
        "phase": k.PHASE_NAMES[state.phase],
        "decision": describe_decision(state),
        "colour": k.COLOUR_NAMES[state.mover_colour()] if moving else None,
        "pending": _mask_rows(state.pending, 5, 5) if state.pending else None,
        "legal": [action_to_string(state, a) for a in state.legal_actions()] if moving else [],
        "winner": state.winner,
        "draw": state.is_draw(),
    }
