"""Azul notation, serialisation and views.

Drafting reads *source, colour, destination*:

===========  ============================================================
``3r2``      from factory 3 take the red tiles to pattern line 2
``cbf``      from the centre take the blue tiles to the floor line
===========  ============================================================

Sources are factories ``1``-``9`` and ``c`` (the centre); colours ``b`` blue,
``y`` yellow, ``r`` red, ``k`` black, ``w`` white; destinations pattern
lines ``1``-``5`` (line 1 holds one tile) and ``f`` (the floor).

Grey wall placements read ``r3c4``: the tile of pattern line 3 goes on wall
row 3, column 4 (``c4`` or ``4`` are accepted when typing). Chance outcomes
read ``red`` (the colour of the next tile drawn from the bag) and ``P2`` (the
first player of round one).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tileworks.core import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.bitboards import cell_labels
from tileworks.core.i18n import N_, _, gettext
from tileworks.core.text import check_viewer, field_error, read_int, read_move, seat_name
from tileworks.games.azul import constants as k

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.azul.rules import AzulGame, AzulState

_DRAFT = re.compile(r"^([1-9c])([byrkw])([1-5f])$")
_PLACE = re.compile(r"^(?:r([1-5]))?c?([1-5])$")


def source_name(game: "AzulGame", source: int) -> str:
    return "c" if source == game.centre else str(source + 1)


def describe_decision(state: "AzulState") -> str:
    phase = state.phase
    if phase == k.FIRST_PLAYER:
        return _("chance picks the first player")
    if phase == k.FILL:
        return _("chance draws a tile from the bag for factory {factory}", factory=(state.fill_slot >> 2) + 1)
    if phase == k.OVER:
        return _("the game is over")
    who = seat_name(state.player)
    if phase == k.DRAFT:
        return _("{who} takes tiles from a factory or the centre", who=who)
    colour = gettext(k.COLOUR_NAMES[state.line_colour[5 * state.player + state.place_line]])
    return _("{who} chooses the wall column for the {colour} tile of pattern line {line}",
             who=who, colour=colour, line=state.place_line + 1)


def action_to_string(state: "AzulState", action: int) -> str:
    game = state._game
    if state.player == CHANCE:
        if state.phase == k.FILL:
            return k.COLOUR_NAMES[action] if 0 <= action < 5 else str(action)
        return seat_name(action)
    if action >= game.place_base:
        column = action - game.place_base + 1
        return f"r{state.place_line + 1}c{column}" if state.phase == k.PLACE else f"c{column}"
    return draft_to_string(game, action)


def describe_action(state: "AzulState", action: int) -> str:
    """A move in words, for the game log: what is taken from where, and where it goes.

    >>> import tileworks
    >>> from tileworks.games.azul import position
    >>> state = position(tileworks.load_game("azul"), factories=["rrrb", "yykk", "", "", ""], lines=[["", "", "", "r", ""], [""] * 5])
    >>> describe_action(state, state.string_to_action("1r3"))
    'P1 takes 3 red from factory 1 to line 3'
    >>> describe_action(state, state.string_to_action("1r2"))
    'P1 takes 3 red from factory 1 to line 2 (1 to the floor)'
    >>> describe_action(state, state.string_to_action("2kf"))
    'P1 takes 2 black from factory 2 to the floor'
    """
    if state.player == CHANCE:
        if state.phase == k.FILL:
            return _("chance draws a {colour} tile for factory {factory}", colour=gettext(k.COLOUR_NAMES[action]),
                     factory=(state.fill_slot >> 2) + 1)
        return _("chance picks {who} to start", who=seat_name(action))
    game, seat = state._game, state.player
    if action >= game.place_base:
        line = state.place_line
        return _("{who} places the {colour} tile of line {line} in column {column}", who=seat_name(seat),
                 colour=gettext(k.COLOUR_NAMES[state.line_colour[5 * seat + line]]), line=line + 1,
                 column=action - game.place_base + 1)
    source, colour, dest = game.decode[action]
    colour_name = gettext(k.COLOUR_NAMES[colour])
    if source == game.centre:
        count = state.centre[colour]
        where = _("the centre (with the first-player marker)") if state.marker_in_centre else _("the centre")
    else:
        count = state.factory[5 * source + colour]
        where = _("factory {number}", number=source + 1)
    if dest == k.FLOOR:
        to = _("the floor")
    else:
        room = dest + 1 - state.line_count[5 * seat + dest]
        to = _("line {line}", line=dest + 1)
        if count > room:
            to = _("line {line} ({over} to the floor)", line=dest + 1, over=count - room)
    return _("{who} takes {count} {colour} from {source} to {destination}", who=seat_name(seat), count=count,
             colour=colour_name, source=where, destination=to)


def reason_illegal(state: "AzulState", action: int) -> str | None:
    """Why a draft or a grey-wall placement is refused, in a player's terms.

    >>> import tileworks
    >>> from tileworks.games.azul import position
    >>> state = position(tileworks.load_game("azul"), factories=["rrrb", "yykk", "", "", ""], lines=[["", "b", "", "", ""], [""] * 5])
    >>> reason_illegal(state, (0 * 5 + 1) * 6 + 0)  # factory 1, yellow, line 1
    'factory 1 has no yellow'
    >>> reason_illegal(state, (0 * 5 + 2) * 6 + 1)  # factory 1, red, line 2
    'line 2 already holds blue'
    """
    game, seat = state._game, state.player
    if state.phase == k.PLACE and action >= game.place_base:
        line, column = state.place_line, action - game.place_base
        if column >= 5:
            return None
        if state.wall_all[seat] >> (5 * line + column) & 1:
            return _("row {row}, column {column} of the wall is already tiled", row=line + 1, column=column + 1)
        colour = state.line_colour[5 * seat + line]
        return _("column {column} of the wall already holds {colour}", column=column + 1,
                 colour=gettext(k.COLOUR_NAMES[colour]))
    if state.phase != k.DRAFT or not 0 <= action < game.place_base:
        return None
    source, colour, dest = game.decode[action]
    colour_name = gettext(k.COLOUR_NAMES[colour])
    if source == game.centre and not state.centre[colour]:
        return _("the centre has no {colour}", colour=colour_name)
    if source != game.centre and not state.factory[5 * source + colour]:
        return _("factory {number} has no {colour}", number=source + 1, colour=colour_name)
    if dest == k.FLOOR:
        return None
    i = 5 * seat + dest
    held = state.line_colour[i]
    if state.line_count[i] == dest + 1:
        return _("line {line} is full", line=dest + 1)
    if state.line_count[i] and held != colour:
        return _("line {line} already holds {colour}", line=dest + 1, colour=gettext(k.COLOUR_NAMES[held]))
    return _("row {row} of {who}'s wall already has {colour}", row=dest + 1, who=seat_name(seat), colour=colour_name)


def scoring_heading(before: "AzulState", after: "AzulState") -> str | None:
    """What a move's scoring is called: the wall-tiling of a round, and the
    bonuses when the game ends with it."""
    if after.phase == k.OVER:
        return _("Wall-tiling of round {round}, and the bonuses of the game's end", round=before.round)
    return _("Wall-tiling of round {round}", round=before.round)


def clicks(state: "AzulState", action: int) -> list[dict[str, str]]:
    """The clicks on the SVG picture that make a player action: the tiles
    (source and colour) then the pattern line or floor of the mover's board;
    on the grey wall, the wall space.

    >>> import tileworks
    >>> game = tileworks.load_game("azul")
    >>> state = game.new_initial_state()
    >>> clicks(state, (2 * 5 + 2) * 6 + 1)
    [{'source': '3', 'colour': 'r'}, {'seat': '-1', 'line': '2'}]
    """
    seat = str(state.player)
    if action >= state._game.place_base:
        return [{"seat": seat, "row": str(state.place_line + 1), "column": str(action - state._game.place_base + 1)}]
    source, rest = divmod(action, 5 * k.DESTINATIONS)
    colour, dest = divmod(rest, k.DESTINATIONS)
    return [
        {"source": source_name(state._game, source), "colour": k.COLOUR_LETTERS[colour]},
        {"seat": seat, "line": "f" if dest == k.FLOOR else str(dest + 1)},
    ]


def draft_to_string(game: "AzulGame", action: int) -> str:
    """>>> import tileworks
    >>> game = tileworks.load_game("azul")
    >>> draft_to_string(game, (2 * 5 + 2) * 6 + 1), draft_to_string(game, (5 * 5 + 0) * 6 + 5)
    ('3r2', 'cbf')
    """
    source, rest = divmod(action, 5 * k.DESTINATIONS)
    colour, dest = divmod(rest, k.DESTINATIONS)
    return source_name(game, source) + k.COLOUR_LETTERS[colour] + ("f" if dest == k.FLOOR else str(dest + 1))


def string_to_action(state: "AzulState", text: str) -> int:
    """Read a move typed in notation; it must be legal in ``state``."""
    return read_move(
        state, text, _parse, "Azul",
        N_("drafts look like 3r2 (factory 3, red, line 2) or cbf (centre, blue, floor); grey-wall placements like r3c4"),
    )


def _parse(state: "AzulState", word: str) -> int | None:
    game = state._game
    phase = state.phase
    if phase == k.FILL:
        return k.COLOUR_NAMES.index(word) if word in k.COLOUR_NAMES else None
    if phase == k.FIRST_PLAYER:
        match = re.fullmatch(r"p([1-4])", word)
        return int(match.group(1)) - 1 if match else None
    if phase == k.PLACE:
        match = _PLACE.match(word)
        if not match or (match.group(1) and int(match.group(1)) != state.place_line + 1):
            return None
        return game.place_base + int(match.group(2)) - 1
    match = _DRAFT.match(word)
    if not match:
        return None
    source = game.centre if match.group(1) == "c" else int(match.group(1)) - 1
    if source >= game.sources:
        return None
    colour = k.COLOUR_LETTERS.index(match.group(2))
    dest = k.FLOOR if match.group(3) == "f" else int(match.group(3)) - 1
    return (source * 5 + colour) * k.DESTINATIONS + dest


# -- serialisation ------------------------------------------------------------
# Equality, views and records all go through state_fields, and most of a
# position's factories, floors and walls are as they were a move before:
# their text is kept, not written again.
@lru_cache(maxsize=4096)
def _letters_of(counts: tuple[int, ...]) -> str:
    return "".join(k.COLOUR_LETTERS[c] * n for c, n in enumerate(counts))


def _letters(counts: list[int]) -> str:
    return _letters_of(tuple(counts))


@lru_cache(maxsize=8192)
def _wall_text(colour_masks: tuple[int, ...]) -> tuple[str, ...]:
    cells = "".join(k.COLOUR_LETTERS[colour] if colour >= 0 else "." for colour in cell_labels(colour_masks, 25))
    return tuple(cells[5 * row: 5 * row + 5] for row in range(5))


def _wall_rows(state: "AzulState", seat: int) -> list[str]:
    return list(_wall_text(tuple(state.walls[5 * seat: 5 * seat + 5])))


def _lines(state: "AzulState", seat: int) -> list[str]:
    out = []
    for line in range(5):
        i = 5 * seat + line
        colour = state.line_colour[i]
        out.append(k.COLOUR_LETTERS[colour] * state.line_count[i] if colour >= 0 else "")
    return out


def state_fields(state: "AzulState") -> dict[str, Any]:
    game = state._game
    seats = range(game.players)
    return {
        "bag": list(state.bag),
        "lid": list(state.lid),
        "factories": [_letters(state.factory[5 * f : 5 * f + 5]) for f in range(game.factories)],
        "centre": _letters(state.centre),
        "marker_in_centre": state.marker_in_centre,
        "marker_holder": state.marker_holder,
        "lines": [_lines(state, s) for s in seats],
        "walls": [_wall_rows(state, s) for s in seats],
        "floors": [_letters(state.floor_tiles[5 * s : 5 * s + 5]) for s in seats],
        "floor_spaces": list(state.floor_spaces),
        "points": list(state.points),
        "starter": state.starter,
        "to_move": state.player,
        "phase": k.PHASE_NAMES[state.phase],
        "fill_slot": state.fill_slot,
        "place_line": state.place_line,
        "round": state.round,
        "last_floor": list(state.last_floor),
    }


def _counts(text: Any, field: str) -> list[int]:
    if not isinstance(text, str) or set(text) - set(k.COLOUR_LETTERS):
        raise field_error(field, f"expected colour letters ({k.COLOUR_LETTERS}), got {text!r}")
    return [text.count(letter) for letter in k.COLOUR_LETTERS]


def _int_list(fields: dict[str, Any], name: str, length: int, lo: int, hi: int) -> list[int]:
    value = fields.get(name)
    if not isinstance(value, list) or len(value) != length or not all(
        type(v) is int and lo <= v <= hi for v in value
    ):
        raise field_error(name, f"expected {length} integers from {lo} to {hi}")
    return list(value)


def _per_seat(fields: dict[str, Any], name: str, players: int) -> list[Any]:
    value = fields.get(name)
    if not isinstance(value, list) or len(value) != players:
        raise field_error(name, f"expected one entry per seat ({players})")
    return value


def state_from_fields(game: "AzulGame", fields: dict[str, Any]) -> "AzulState":
    """Build a state from :func:`state_fields` output, checking every field."""
    state = game.new_initial_state()
    n = game.players
    state.bag = _int_list(fields, "bag", 5, 0, k.TILES_PER_COLOUR)
    state.lid = _int_list(fields, "lid", 5, 0, k.TILES_PER_COLOUR)
    factories = fields.get("factories")
    if not isinstance(factories, list) or len(factories) != game.factories:
        raise field_error("factories", f"expected {game.factories} factories")
    for f, text in enumerate(factories):
        counts = _counts(text, f"factories[{f}]")
        if sum(counts) > 4:
            raise field_error(f"factories[{f}]", "a factory holds at most 4 tiles")
        state.factory[5 * f : 5 * f + 5] = counts
    state.centre = _counts(fields.get("centre"), "centre")
    for source in range(game.sources):
        counts = state.centre if source == game.centre else state.factory[5 * source : 5 * source + 5]
        state.present[source] = sum(1 << c for c in range(5) if counts[c])
    state.table_tiles = sum(state.factory) + sum(state.centre)
    marker = fields.get("marker_in_centre")
    if type(marker) is not bool:
        raise field_error("marker_in_centre", "expected true or false")
    state.marker_in_centre = marker
    state.marker_holder = read_int(fields, "marker_holder", -1, n - 1)
    if marker == (state.marker_holder >= 0):
        raise field_error("marker_holder", "the marker is either in the centre or held by one seat")

    for seat, rows in enumerate(_per_seat(fields, "walls", n)):
        if not isinstance(rows, list) or len(rows) != 5 or not all(isinstance(r, str) and len(r) == 5 for r in rows):
            raise field_error(f"walls[{seat}]", "expected 5 rows of 5 characters")
        for r, row in enumerate(rows):
            for col, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch not in k.COLOUR_LETTERS:
                    raise field_error(f"walls[{seat}]", f"unexpected character {ch!r}")
                colour = k.COLOUR_LETTERS.index(ch)
                if not game.grey and k.wall_column(colour, r) != col:
                    raise field_error(f"walls[{seat}]", f"{k.COLOUR_NAMES[colour]} cannot be in row {r + 1}, column {col + 1}")
                mask = state.walls[5 * seat + colour]
                if mask & (k.ROW_MASKS[r] | k.COLUMN_MASKS[col]):
                    raise field_error(f"walls[{seat}]", f"{k.COLOUR_NAMES[colour]} twice in row {r + 1} or column {col + 1}")
                state.walls[5 * seat + colour] = mask | 1 << (5 * r + col)
                state.wall_all[seat] |= 1 << (5 * r + col)
    for seat, lines in enumerate(_per_seat(fields, "lines", n)):
        if not isinstance(lines, list) or len(lines) != 5:
            raise field_error(f"lines[{seat}]", "expected 5 pattern lines")
        for line, text in enumerate(lines):
            counts = _counts(text, f"lines[{seat}][{line}]")
            used = [c for c in range(5) if counts[c]]
            if len(used) > 1 or sum(counts) > line + 1:
                raise field_error(f"lines[{seat}][{line}]", f"one colour, at most {line + 1} tiles")
            if used and state.walls[5 * seat + used[0]] & k.ROW_MASKS[line]:
                raise field_error(f"lines[{seat}][{line}]", "that colour is already in the wall row")
            state.line_colour[5 * seat + line] = used[0] if used else -1
            state.line_count[5 * seat + line] = sum(counts)
    for seat, text in enumerate(_per_seat(fields, "floors", n)):
        state.floor_tiles[5 * seat : 5 * seat + 5] = _counts(text, f"floors[{seat}]")
    state.floor_spaces = _int_list(fields, "floor_spaces", n, 0, k.FLOOR_SPACES)
    for seat in range(n):
        extra = state.floor_spaces[seat] - sum(state.floor_tiles[5 * seat : 5 * seat + 5])
        if extra not in (0, 1) or (extra == 1 and state.marker_holder != seat):
            raise field_error("floor_spaces", f"seat {seat + 1}: spaces are the floor tiles plus the marker")
    for seat in range(n):
        for line in range(5):
            state._refresh_line(seat, line)
    state.points = _int_list(fields, "points", n, 0, 10_000)
    state.last_floor = _int_list(fields, "last_floor", n, 0, k.FLOOR_SPACES)
    state.round = read_int(fields, "round", 0, game.round_limit)
    state.fill_slot = read_int(fields, "fill_slot", 0, 4 * game.factories)
    state.place_line = read_int(fields, "place_line", 0, 4)
    state.starter = read_int(fields, "starter", -1, n - 1)

    phase_name = fields.get("phase")
    if phase_name not in k.PHASE_NAMES:
        raise field_error("phase", f"expected one of {', '.join(k.PHASE_NAMES)}, got {phase_name!r}")
    state.phase = k.PHASE_NAMES.index(phase_name)
    to_move = fields.get("to_move")
    if state.phase in (k.FIRST_PLAYER, k.FILL):
        ok = to_move == CHANCE
    elif state.phase == k.OVER:
        ok = to_move == TERMINAL
    else:
        ok = type(to_move) is int and 0 <= to_move < n
    if not ok:
        raise field_error("to_move", f"{to_move!r} does not fit phase {phase_name!r}")
    state.player = to_move
    if (state.phase == k.FIRST_PLAYER) != (state.starter < 0):
        raise field_error("starter", "only the first chance node has no starting player")
    if state.phase == k.FILL and not sum(state.bag):
        raise field_error("bag", "chance draws from an empty bag")
    for colour in range(5):
        total = (
            state.bag[colour] + state.lid[colour] + state.centre[colour]
            + sum(state.factory[5 * f + colour] for f in range(game.factories))
            + sum(state.line_count[5 * s + l] for s in range(n) for l in range(5) if state.line_colour[5 * s + l] == colour)
            + sum(state.walls[5 * s + colour].bit_count() for s in range(n))
            + sum(state.floor_tiles[5 * s + colour] for s in range(n))
        )
        if total != k.TILES_PER_COLOUR:
            raise field_error("bag", f"{total} {k.COLOUR_NAMES[colour]} tiles are accounted for, not {k.TILES_PER_COLOUR}")
    if state.phase == k.DRAFT and not state.table_tiles:
        raise field_error("phase", "drafting with no tile on the factories or in the centre")
    if not state.is_terminal() and not state.legal_actions():
        raise field_error("phase", f"phase {phase_name!r} has no legal action in this position")
    return state


def position(game: "AzulGame", **fields: Any) -> "AzulState":
    """A position for tests and puzzles: ``state_fields`` with defaults.

    Defaults: round 1, P1 to draft and starting, empty factories, centre,
    lines, walls and floors, the marker in the centre, an empty lid, and the
    bag holding every tile not placed elsewhere.
    """
    n = game.players
    base: dict[str, Any] = {
        "lid": [0] * 5,
        "factories": [""] * game.factories,
        "centre": "",
        "marker_in_centre": True,
        "marker_holder": -1,
        "lines": [[""] * 5 for _ in range(n)],
        "walls": [["....."] * 5 for _ in range(n)],
        "floors": [""] * n,
        "floor_spaces": None,
        "points": [0] * n,
        "starter": 0,
        "to_move": 0,
        "phase": "draft",
        "fill_slot": 4 * game.factories,
        "place_line": 0,
        "round": 1,
        "last_floor": [0] * n,
    }
    base.update(fields)
    if base["floor_spaces"] is None:
        base["floor_spaces"] = [
            len(base["floors"][s]) + (1 if base["marker_holder"] == s and len(base["floors"][s]) < 7 else 0)
            for s in range(n)
        ]
    if "bag" not in base:
        used = [0] * 5
        texts = list(base["factories"]) + [base["centre"]] + list(base["floors"])
        texts += [t for seat in base["lines"] for t in seat] + [r for seat in base["walls"] for r in seat]
        for text in texts:
            for c, letter in enumerate(k.COLOUR_LETTERS):
                used[c] += text.count(letter)
        base["bag"] = [k.TILES_PER_COLOUR - used[c] - base["lid"][c] for c in range(5)]
    return state_from_fields(game, base)


# -- views ----------------------------------------------------------------------
def view(state: "AzulState", viewer: int = SPECTATOR) -> dict[str, Any]:
    """Everything a viewer may see. Azul hides only the order of the bag, and
    that belongs to chance: the bag's contents are public (they follow from
    the lid and the boards)."""
    game = state._game
    check_viewer(viewer, game.players)
    fields = state_fields(state)
    moving = state.player >= 0
    return {
        "game": "azul",
        "viewer": viewer,
        "variant": "grey" if game.grey else "standard",
        "round": state.round,
        "bag": sum(state.bag),
        "bag_colours": fields["bag"],
        "lid": sum(state.lid),
        "factories": fields["factories"],
        "centre": fields["centre"],
        "marker_in_centre": state.marker_in_centre,
        "seats": [
            {
                "name": seat_name(s),
                "points": state.points[s],
                "lines": fields["lines"][s],
                "wall": fields["walls"][s],
                "floor": fields["floors"][s],
                "floor_spaces": state.floor_spaces[s],
                "marker": state.marker_holder == s,
                "starter": state.starter == s,
            }
            for s in range(game.players)
        ],
        "to_move": state.player,
        "phase": k.PHASE_NAMES[state.phase],
        "decision": describe_decision(state),
        "place_line": state.place_line if state.phase == k.PLACE else None,
        "legal": [action_to_string(state, a) for a in state.legal_actions()] if moving else [],
        "winners": state.winners() if state.phase == k.OVER else [],
    }
