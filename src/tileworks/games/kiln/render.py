"""Drawing a KILN view: plain text, Rich colour text, and SVG.

Renderers take a *view* (``state.view(viewer)``), never a state, so they can
only show what that viewer may see.

>>> import tileworks
>>> from tileworks.games.kiln import position
>>> game = tileworks.load_game("kiln")
>>> state = position(game, kiln=["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"],
...                  warehouses={"red": ["##...", ".....", ".....", ".....", "....."]})
>>> print(render_text(state.view()))  # doctest: +NORMALIZE_WHITESPACE
KILN  goal 17  turn 1/300
    a b c d e f g h
 8    K . . . . .
 7  . R B G Y R B .
 6  . G Y R B G Y .
 5  . R B G Y R B .
 4  . G Y R B G Y .
 3  . R B G Y R B .
 2  . G Y R B G Y .
 1    . . . . . .
P1 red 0/17      P2 blue 0/17
   1 2 3 4 5        1 2 3 4 5
 1 # # . . .      1 . . . . .
 2 . . . . .      2 . . . . .
 3 . . . . .      3 . . . . .
 4 . . . . .      4 . . . . .
 5 . . . . .      5 . . . . .
> P1 (red) pushes the outer tile (K on b8)
"""

from __future__ import annotations

from typing import Any

from tileworks.core.i18n import _, gettext
from tileworks.core.text import Segment, plain, rich

#: every seat sees the whole table: one picture serves every viewer
PICTURE_FOR_EVERY_VIEWER = True

STYLES = {
    "R": "bold red",
    "B": "bold blue",
    "G": "bold green",
    "Y": "bold yellow",
    "K": "bold white on black",
}
COLOUR_STYLE = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow"}
SVG_FILL = {"R": "#d33", "B": "#36c", "G": "#2a2", "Y": "#eb2", "K": "#111", ".": "#eee"}
FILES = "abcdefgh"
#: the sale handles beside complete rows and below complete columns
HANDLE, HANDLE_FILL = 10, "#c9b48c"



def _border_cell(view: dict[str, Any], name: str) -> Segment:
    outer = view["outer"]
    if outer["cell"] == name:
        return outer["tile"], STYLES[outer["tile"]]
    return ".", "dim"


def _kiln_lines(view: dict[str, Any]) -> list[list[Segment]]:
    lines: list[list[Segment]] = [[("    " + " ".join(FILES), "dim")]]
    for rank in range(8, 0, -1):
        line: list[Segment] = [(f" {rank} ", "dim")]
        for f, file in enumerate(FILES):
            edge_file = f in (0, 7)
            edge_rank = rank in (1, 8)
            if edge_file and edge_rank:
                line.append(("  ", None))
                continue
            if edge_file or edge_rank:
                line.append((" ", None))
                line.append(_border_cell(view, f"{file}{rank}"))
                continue
            letter = view["kiln"][7 - rank][f - 1]
            line.append((" ", None))
            line.append((letter, STYLES.get(letter, "dim")))
        lines.append(line)
    return lines


def _warehouse_block(title: str, style: str, rows: list[str]) -> list[list[Segment]]:
    block: list[list[Segment]] = [[(title, f"bold {style}")], [("   1 2 3 4 5", "dim")]]
    for r, row in enumerate(rows):
        line: list[Segment] = [(f" {r + 1}", "dim")]
        for ch in row:
            line.append((" ", None))
            line.append(("#", f"bold {style}") if ch == "#" else (".", "dim"))
        block.append(line)
    return block


def _width(line: list[Segment]) -> int:
    return sum(len(text) for text, _ in line)


def _side_by_side(blocks: list[list[list[Segment]]], gap: int = 6) -> list[list[Segment]]:
    widths = [max(_width(line) for line in block) for block in blocks]
    height = max(len(block) for block in blocks)
    out = []
    for y in range(height):
        line: list[Segment] = []
        for b, block in enumerate(blocks):
            part = block[y] if y < len(block) else []
            line.extend(part)
            if b < len(blocks) - 1:
                line.append((" " * (widths[b] - _width(part) + gap), None))
        out.append(line)
    return out


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    """The view as lines of ``(text, rich style)`` segments."""
    header = _("KILN  goal {goal}  turn {turn}/{limit}", goal=view["goal"], turn=view["turn"], limit=view["turn_limit"])
    if view["heat_tokens"]:
        header += "  " + _("heat {cells}", cells=" ".join(map(str, view["heat_tokens"])))
    if view["variant"] == "advanced":
        header += "  " + _("advanced")
        if view["advanced_scoring"] == "combined":
            header += "  " + _("one score a player")
    if view["erase_rule"]:
        header += "  " + _("erase rule")
    lines: list[list[Segment]] = [[(header, "bold")]]
    lines += _kiln_lines(view)
    blocks = []
    for seat in view["seats"]:
        for colour, disc, rows in zip(seat["colours"], seat["discs"], seat["warehouses"], strict=True):
            title = f"{seat['name']} {gettext(colour)} {disc}/{view['goal']}"
            blocks.append(_warehouse_block(title, COLOUR_STYLE[colour], rows))
    for start in range(0, len(blocks), 4):
        lines += _side_by_side(blocks[start : start + 4])
    if view["pending"]:
        lines.append([(_("shape to place ({colour}):", colour=gettext(view["colour"])), None)])
        for row in view["pending"]:
            if "#" in row:
                lines.append([("   " + " ".join(row).rstrip(" ."), f"bold {COLOUR_STYLE[view['colour']]}")])
    if view["phase"] == "over":
        if view["draw"]:
            result = _("Game over: the turn limit was reached, a draw")
        else:
            winner = view["seats"][view["winner"]]["name"]
            result = _("Game over: {winner} reaches the goal and wins", winner=winner)
        lines.append([(result, "bold")])
    else:
        lines.append([("> " + view["decision"], "bold")])
        if view["legal"] and view["phase"] != "push":
            lines.append([("  " + _("choices: {moves}", moves=" ".join(view["legal"])), None)])
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the tiles in colour."""
    return rich(layout(view))


def render_svg(view: dict[str, Any], cell: int = 28, narrow: bool = False) -> str:
    """An SVG picture of the kiln, its border and the warehouses (Jupyter
    shows it). Shapes carry ``data-border``, ``data-kiln`` and
    ``data-warehouse``/``data-cell``, so that a client can make the legal
    choices clickable. ``narrow``: laid out for a phone (see
    :func:`render_svg_narrow`)."""
    from tileworks.core.svg import Svg

    svg = Svg()
    pad, head = 4, 18
    svg.text(pad, 13, _("KILN — turn {turn} — goal {goal}", turn=view["turn"], goal=view["goal"]), size=12, anchor="start")

    def square(x: float, y: float, letter: str, size: int = cell, **data: Any) -> None:
        if letter in "RBGYK":  # a tile, glazed, lying on the board
            svg.tile(x, y, size - 2, size - 2, SVG_FILL[letter], stroke="#999", **data)
        else:
            svg.rect(x, y, size - 2, size - 2, rx=3, fill=SVG_FILL.get(letter, "#eee"), stroke="#999", **data)
        if letter in "RBGYK" and size >= 12:
            svg.cue(x, y, size - 2, letter, dark=letter == "Y")

    for rank in range(8, 0, -1):
        for f, file in enumerate(FILES):
            edge_file, edge_rank = f in (0, 7), rank in (1, 8)
            if edge_file and edge_rank:
                continue
            x, y = pad + f * cell, head + (8 - rank) * cell
            name = f"{file}{rank}"
            if edge_file or edge_rank:
                letter = view["outer"]["tile"] if view["outer"]["cell"] == name else "."
                if letter == ".":
                    svg.rect(x, y, cell - 2, cell - 2, fill="none", stroke="#ccc", data_border=name)
                    continue
                square(x, y, letter, data_border=name)
            else:
                square(x, y, view["kiln"][7 - rank][f - 1], data_kiln=name)
    small = cell // 2
    # on a phone the warehouses' cells and sale handles are as large as the kiln's
    spot, handle = (cell, cell - 4) if narrow else (small, HANDLE)
    top = head + 8 * cell + 10
    if view["pending"]:  # the group taken, waiting to be placed: beside the kiln, or below it on a phone
        px, py = (pad, top) if narrow else (pad + 8 * cell + 10, head)
        svg.text(px, py + 10, _("to place"), size=10, anchor="start")
        letter = view["colour"][0].upper() if view["colour"] else "."
        for r, row in enumerate(view["pending"]):
            for c, ch in enumerate(row):
                if ch == "#":
                    square(px + c * small, py + 16 + r * small, letter, small)
        if narrow:
            top += 16 + sum("#" in row for row in view["pending"]) * small + 8
    left = pad
    right = left
    for seat_index, seat in enumerate(view["seats"]):
        mover = view["to_move"] == seat_index
        for colour, disc, rows in zip(seat["colours"], seat["discs"], seat["warehouses"], strict=True):
            svg.text(left, top + 10, f'{seat["name"]} {gettext(colour)} {disc}', anchor="start",
                     font_weight="bold" if mover else None)
            for r, row in enumerate(rows):
                for c, ch in enumerate(row):
                    letter = colour[0].upper() if ch == "#" else "."
                    square(left + c * spot, top + 14 + r * spot, letter, spot,
                           data_warehouse=colour, data_cell=f"{r + 1}{c + 1}")
            # a handle beside each complete row and below each complete column: what a sale clicks
            for r, row in enumerate(rows):
                if "." not in row:
                    svg.rect(left + 5 * spot + 1, top + 15 + r * spot, handle, spot - 4, rx=2, fill=HANDLE_FILL,
                             data_warehouse=colour, data_sale=f"r{r + 1}")
            for c in range(5):
                if all(row[c] == "#" for row in rows):
                    svg.rect(left + c * spot + 1, top + 14 + 5 * spot + 1, spot - 4, handle, rx=2, fill=HANDLE_FILL,
                             data_warehouse=colour, data_sale=f"c{c + 1}")
            right = max(right, left + 5 * spot + handle + 4)
            if narrow:  # one warehouse under another
                top += 14 + 5 * spot + handle + 16
            else:
                left += 5 * spot + 20
    if narrow:
        width = max(pad * 2 + 8 * cell, right + pad)
        height = top + 8
    else:
        width = max(pad * 2 + 8 * cell + (5 * small + 20 if view["pending"] else 0), left, 260)
        height = top + 14 + 5 * small + HANDLE + 24
    svg.text(pad, height - 6, view["decision"], size=11, anchor="start")
    return svg.render(width, height, _("KILN: {decision}", decision=view["decision"]))


def render_svg_narrow(view: dict[str, Any]) -> str:
    """The picture of :func:`render_svg` laid out for a narrow screen: the
    group to place below the kiln, then the warehouses one under another
    with cells and sale handles as large as the kiln's, so that on a 390 px
    phone every one is at least 40 px across."""
    return render_svg(view, narrow=True)


def render_card(view: dict[str, Any]) -> str:
    """The lobby card's picture: the filled kiln of the opening position, its
    cells large enough to read, no words."""
    from tileworks.core.svg import Svg

    svg, cell = Svg(), 26
    for r, row in enumerate(view["kiln"]):
        for c, letter in enumerate(row):
            x, y = 8 + c * cell, 8 + r * cell
            svg.tile(x, y, cell - 3, cell - 3, SVG_FILL.get(letter, "#eee"), rx=4, stroke="#777")
            svg.cue(x, y, cell - 3, letter, dark=letter == "Y")
    width = 16 + 6 * cell
    return svg.render(width, width, "KILN")
