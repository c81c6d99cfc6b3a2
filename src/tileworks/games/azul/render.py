"""Drawing an Azul view as plain text or Rich colour text.

>>> import tileworks
>>> from tileworks.games.azul import position
>>> game = tileworks.load_game("azul")
>>> state = position(game, factories=["bbyr", "kkww", "", "rryw", "bykw"], centre="rr",
...                  lines=[["", "yy", "", "", ""], [""] * 5],
...                  walls=[["b....", ".....", ".....", ".....", "....."], ["....."] * 5],
...                  points=[4, 0])
>>> print(render_text(state.view()))
AZUL  round 1  bag 79  lid 0
factories  1:bbyr  2:kkww  3:-  4:yrrw  5:bykw
centre     rr +marker
P1: 4 points  (starts this round)
  1         . | B y r k w
  2       Y Y | w b y r k
  3     . . . | k w b y r
  4   . . . . | r k w b y
  5 . . . . . | y r k w b
  floor: -
P2: 0 points
  1         . | b y r k w
  2       . . | w b y r k
  3     . . . | k w b y r
  4   . . . . | r k w b y
  5 . . . . . | y r k w b
  floor: -
> P1 takes tiles from a factory or the centre
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tileworks.core.i18n import _
from tileworks.core.svg import Fragment, Svg
from tileworks.core.text import Segment, closing_line, plain, points_of, rich
from tileworks.games.azul.constants import COLOUR_LETTERS, FLOOR_PENALTY, wall_colour

#: every seat sees the whole table (only the bag's order is hidden, and it is never drawn): one picture serves every viewer
PICTURE_FOR_EVERY_VIEWER = True

STYLES = {"b": "bold blue", "y": "bold yellow", "r": "bold red", "k": "bold white on grey23", "w": "bold black on white"}


def _tiles(text: str) -> list[Segment]:
    return [(ch, STYLES[ch]) for ch in text] if text else [("-", "dim")]


def _seat_lines(view: dict[str, Any], seat: dict[str, Any]) -> list[list[Segment]]:
    grey = view["variant"] == "grey"
    title = points_of(seat["name"], seat["points"])
    if seat["starter"] and view["phase"] != "over":
        title += "  " + _("(starts this round)")
    lines: list[list[Segment]] = [[(title, "bold")]]
    for r in range(5):
        line: list[Segment] = [(f"  {r + 1} " + "  " * (4 - r), None)]
        held = seat["lines"][r]
        for slot in range(r + 1):
            # tiles fill a pattern line from the right, as on the board
            filled = slot >= r + 1 - len(held)
            line.append((held[0].upper(), STYLES[held[0]]) if filled else (".", "dim"))
            line.append((" ", None))
        line.append(("| ", "dim"))
        for col in range(5):
            ch = seat["wall"][r][col]
            if ch != ".":
                line.append((ch.upper(), STYLES[ch]))
            elif grey:
                line.append((".", "dim"))
            else:
                line.append((COLOUR_LETTERS[wall_colour(r, col)], "dim"))
            if col < 4:
                line.append((" ", None))
        lines.append(line)
    floor: list[Segment] = [("  " + _("floor:") + " ", None)]
    if seat["floor_spaces"] > len(seat["floor"]):  # the marker takes the first space
        floor.append(("1", "bold"))
    floor += [(ch.upper(), STYLES[ch]) for ch in seat["floor"]]
    if len(floor) == 1:
        floor.append(("-", "dim"))
    if seat["floor_spaces"]:
        floor.append((f"  (-{FLOOR_PENALTY[seat['floor_spaces']]})", "red"))
    if seat["marker"] and view["phase"] != "over":
        floor.append(("  " + _("holds the first-player marker"), None))
    lines.append(floor)
    return lines


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    header = _("AZUL  round {round}  bag {bag}  lid {lid}", round=view["round"], bag=view["bag"], lid=view["lid"])
    if view["variant"] == "grey":
        header += "  " + _("grey wall")
    lines: list[list[Segment]] = [[(header, "bold")]]
    factories: list[Segment] = [(_("factories"), None)]
    for i, tiles in enumerate(view["factories"]):
        factories.append((f"  {i + 1}:", "dim"))
        factories += _tiles(tiles)
    lines.append(factories)
    centre: list[Segment] = [(_("centre").ljust(11), None)] + _tiles(view["centre"])
    if view["marker_in_centre"]:
        centre.append((" +" + _("marker"), "bold"))
    lines.append(centre)
    for seat in view["seats"]:
        lines += _seat_lines(view, seat)
    lines.append(closing_line(view))
    if view["phase"] != "over":
        if view["legal"] and view["phase"] == "place":
            lines.append([("  " + _("choices: {moves}", moves=" ".join(view["legal"])), None)])
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the tiles in colour."""
    return rich(layout(view))


#: tile colours for pictures
SVG_FILL = {"b": "#2f6fd0", "y": "#f2c230", "r": "#d8443c", "k": "#2b2b2b", "w": "#f4f1ea"}
SVG_PALE = {"b": "#c9daf5", "y": "#fbeec2", "r": "#f3cfcc", "k": "#c8c8c8", "w": "#fbfaf7"}
TILE = 22


def _svg_tile(svg: Any, x: float, y: float, letter: str, size: float = TILE, **data: Any) -> None:
    """A tile with its colour's letter, one group so that they move together."""
    svg.open_group(**data)
    svg.tile(x, y, size - 2, size - 2, SVG_FILL[letter], stroke="#555")
    svg.cue(x, y, size - 2, letter.upper(), dark=letter in "yw")
    svg.close_group()


def _svg_factories(svg: Any, view: dict[str, Any], left: float, top: float, per_row: int, tile: float) -> tuple[float, float]:
    """The factories, ``per_row`` to a row, then the centre: the right and bottom edges drawn."""
    radius = tile * 1.55
    x, y, right = left, top, left
    for number, tiles in enumerate(view["factories"], start=1):
        cx, cy = x + radius, y + radius
        svg.circle(cx, cy, radius, fill=svg.paint("ceramic"), stroke="#b9a27a", data_source=str(number))
        for i, letter in enumerate(tiles):
            _svg_tile(svg, cx - tile + (i % 2) * tile + 1, cy - tile + (i // 2) * tile + 1, letter, tile,
                      data_source=str(number), data_colour=letter)
        svg.text(cx, cy + radius + 12, str(number), size=10)
        right = max(right, x + 2 * radius)
        x += 2 * radius + 8
        if number % per_row == 0 and number < len(view["factories"]):
            x, y = left, y + 2 * radius + 18
    factories_bottom = y + 2 * radius + 14
    centre_per_row = 8 if per_row > 2 else 7
    if per_row > 2:  # beside the factories
        centre_x, centre_y = x + 4, top
    else:  # below them
        centre_x, centre_y = left, factories_bottom + 4
    count = len(view["centre"]) + (1 if view["marker_in_centre"] else 0)
    rows = max(1, -(-count // centre_per_row))
    height = max(2 * radius if per_row > 2 else tile + 8, rows * tile + 8)
    svg.rect(centre_x, centre_y, centre_per_row * tile + 8, height, rx=8, fill="#efe7d6", stroke="#b9a27a", data_source="c")
    cells = (["1"] if view["marker_in_centre"] else []) + list(view["centre"])
    for i, letter in enumerate(cells):
        tx, ty = centre_x + 4 + (i % centre_per_row) * tile, centre_y + 4 + (i // centre_per_row) * tile
        if letter == "1":
            svg.rect(tx, ty, tile - 2, tile - 2, rx=3, fill="#fff", stroke="#555")
            svg.text(tx + tile / 2 - 1, ty + tile * 0.68, "1", size=12, aria_label=_("first-player marker"))
        else:
            _svg_tile(svg, tx, ty, letter, tile, data_source="c", data_colour=letter)
    svg.text(centre_x + 4, centre_y + height + 12, _("centre"), size=10, anchor="start")
    return max(right, centre_x + centre_per_row * tile + 8), max(factories_bottom, centre_y + height + 14)


def _svg_board(svg: Any, view: dict[str, Any], seat_index: int, bx: float, by: float, tile: float,
               wall_tile: float) -> tuple[float, float]:
    """One seat's pattern lines, wall and floor at ``bx, by``: its width and height."""
    seat = view["seats"][seat_index]
    gap = 12 if wall_tile == tile else 4  # between the lines and the wall
    width, height = 5 * tile + gap + 5 * wall_tile + 16, 24 + 6 * tile + 10
    mover = view["to_move"] == seat_index
    svg.open_group(data_seat=str(seat_index))
    svg.rect(bx, by, width, height, rx=8, fill=svg.paint("paper"), stroke="#d08a2a" if mover else "#b9a27a",
             stroke_width=3 if mover else 1)
    label = points_of(seat["name"], seat["points"])
    if seat.get("starter"):
        label += "  " + _("(starts)")
    svg.text(bx + 8, by + 16, label, size=12, anchor="start", font_weight="bold" if mover else None)
    svg.include(_board_spaces(seat_index, tuple(seat["lines"]), tuple(seat["wall"]), seat["floor"],
                              bool(seat.get("marker")), view["variant"] == "grey", bx, by, tile, wall_tile, gap))
    svg.close_group()
    return width, height


@lru_cache(maxsize=4096)
def _board_spaces(seat_index: int, lines: tuple[str, ...], wall: tuple[str, ...], floor_tiles: str, marker: bool,
                  grey: bool, bx: float, by: float, tile: float, wall_tile: float, gap: float) -> Fragment:
    """The spaces of a board and the tiles on them, drawn once for each
    content and place: a move changes one board, so the other players'
    boards are reused from the picture before (no words: the same in every
    language)."""
    svg = Svg()
    for line, content in enumerate(lines):
        y = by + 24 + line * tile
        for slot in range(line + 1):
            x0 = bx + 8 + (4 - slot) * tile
            if slot < len(content):
                _svg_tile(svg, x0, y, content[slot], tile, data_seat=str(seat_index), data_line=str(line + 1))
            else:
                svg.rect(x0, y, tile - 2, tile - 2, rx=3, fill="#fff", stroke="#c9b48c",
                         data_seat=str(seat_index), data_line=str(line + 1))
        wall_y = y + (tile - wall_tile) / 2
        for column, letter in enumerate(wall[line]):
            x0 = bx + 8 + 5 * tile + gap + column * wall_tile
            data = {"data_seat": str(seat_index), "data_row": str(line + 1), "data_column": str(column + 1)}
            if letter != ".":
                _svg_tile(svg, x0, wall_y, letter, wall_tile, **data)
            else:
                pattern = COLOUR_LETTERS[wall_colour(line, column)]
                pale = "#e6e6e6" if grey else SVG_PALE[pattern]
                svg.rect(x0, wall_y, wall_tile - 2, wall_tile - 2, rx=3, fill=pale, stroke="#c9b48c", **data)
                if not grey:  # the wall's pattern: which colour goes here
                    svg.cue(x0, wall_y, wall_tile - 2, pattern.upper(), dark=True, faint=True)
    floor_y = by + 24 + 5 * tile + 6
    floor = ("1" if marker else "") + floor_tiles
    for space in range(7):
        x0 = bx + 8 + space * tile
        penalty = FLOOR_PENALTY[space + 1] - FLOOR_PENALTY[space]
        if space < len(floor) and floor[space] != "1":
            _svg_tile(svg, x0, floor_y, floor[space], tile, data_seat=str(seat_index), data_line="f")
        else:
            svg.rect(x0, floor_y, tile - 2, tile - 2, rx=3, fill="#fff", stroke="#c9b48c",
                     data_seat=str(seat_index), data_line="f")
            svg.text(x0 + tile / 2 - 1, floor_y + tile * 0.64, "1" if space < len(floor) else f"-{penalty}",
                     size=9 if space >= len(floor) else 12, fill="#999" if space >= len(floor) else "#000")
    return svg.fragment()


def _header(view: dict[str, Any]) -> str:
    return _("Azul — round {round} — bag {bag}, lid {lid}", round=view["round"], bag=view["bag"], lid=view["lid"])


def _title(view: dict[str, Any]) -> str:
    return _("Azul, round {round}: {decision}", round=view["round"], decision=view["decision"])


def render_svg(view: dict[str, Any]) -> str:
    """The table as SVG: factories, the centre, and each seat's pattern
    lines, wall and floor. Shapes carry ``data-source``/``data-colour``
    (tiles to take), ``data-line`` (1-5, f) and ``data-row``/``data-column``
    (wall spaces) so that a client can make the legal choices clickable."""
    svg = Svg()
    pad = 8
    svg.text(pad, 16, _header(view), size=13, anchor="start")
    right, top = _svg_factories(svg, view, pad, 28, per_row=len(view["factories"]), tile=TILE)
    top += 10
    board_w = board_h = 0.0
    for seat_index in range(len(view["seats"])):
        board_w, board_h = _svg_board(svg, view, seat_index, pad + (seat_index % 2) * (board_w + 10),
                                      top + (seat_index // 2) * (board_h + 10), TILE, TILE)
    width = max(right + pad, 2 * (board_w + 10) + pad)
    height = top + -(-len(view["seats"]) // 2) * (board_h + 10) + 24
    svg.text(pad, height - 8, view["decision"], size=12, anchor="start")
    return svg.render(width, height, _title(view))


#: a phone's layout: the pieces a player clicks are drawn large, the walls
#: (never clicked) smaller beside the lines, everything in one column
NARROW_TILE, NARROW_WALL_TILE = 24, 11


def render_svg_narrow(view: dict[str, Any]) -> str:
    """The table as :func:`render_svg` draws it, laid out for a narrow
    screen: two factories to a row, the centre below them, then the seats'
    boards one under another. About 200 units wide, so that on a 390 px
    phone every factory tile, pattern line and floor space is at least
    40 px across."""
    svg = Svg()
    pad = 4
    svg.text(pad, 14, _header(view), size=11, anchor="start")
    right, top = _svg_factories(svg, view, pad, 24, per_row=2, tile=NARROW_TILE)
    board_w = 0.0
    for seat_index in range(len(view["seats"])):
        board_w, board_h = _svg_board(svg, view, seat_index, pad, top, NARROW_TILE, NARROW_WALL_TILE)
        top += board_h + 8
    height = top + 18
    svg.text(pad, height - 6, view["decision"], size=11, anchor="start")
    return svg.render(max(right, pad + board_w) + pad, height, _title(view))


def render_card(view: dict[str, Any]) -> str:
    """The lobby card's picture, legible at card size: a factory of the
    opening deal and a corner of a wall with its pattern, no words."""
    svg, tile = Svg(), 34
    radius = tile * 1.55
    cx, cy = 12 + radius, 12 + radius
    svg.circle(cx, cy, radius, fill="#f7efe0", stroke="#b9a27a", stroke_width=2)
    for j, letter in enumerate(view["factories"][0]):
        _svg_tile(svg, cx - tile + (j % 2) * tile + 1, cy - tile + (j // 2) * tile + 1, letter, tile)
    left = 12 + 2 * radius + 26
    for row in range(3):
        for column in range(3):
            x, y = left + column * tile, 14 + row * tile
            pattern = COLOUR_LETTERS[wall_colour(row, column)]
            if (row + column) % 2 == 0:
                _svg_tile(svg, x, y, pattern, tile)
            else:
                svg.rect(x, y, tile - 2, tile - 2, rx=3, fill=SVG_PALE[pattern], stroke="#c9b48c")
    return svg.render(left + 3 * tile + 10, 2 * radius + 24, "Azul")
