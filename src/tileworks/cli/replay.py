"""Stepping through a game record in the terminal."""

from __future__ import annotations

from typing import Callable

from rich.console import Console

from tileworks.core.i18n import N_, _
from tileworks.core.records import GameRecord
from tileworks.core.text import seat_name

HELP = N_("Enter: next move   b: back   N: go to move N   e: end   s: start   q: quit")


def player_steps(record: GameRecord) -> list[int]:
    """Indices (number of actions applied) of the positions worth showing:
    the start of play and the position after every player's move."""
    steps = [i + 1 for i, mover in enumerate(record.movers) if mover >= 0]
    first = next((i for i, mover in enumerate(record.movers) if mover >= 0), len(record.actions))
    return [first] + steps


def print_record(record: GameRecord, console: Console) -> None:
    """The whole game as a numbered move list, then the final table."""
    game = record.game
    players = [player if not shown else _("{name} (guest)", name=shown["name"]) if shown["guest"] else shown["name"]
               for player, shown in zip(record.players, record.names or [None] * len(record.players), strict=True)]
    console.print(
        f"[bold]{game.name}[/bold] {game.json_options()}  " + _("players: {players}", players=", ".join(players))
        + (f"  ({record.created})" if record.created else "")
    )
    number = 0
    for mover, move in zip(record.movers, record.moves, strict=True):
        if mover >= 0:
            number += 1
            console.print(f"{number:4d}. {seat_name(mover)} {move}")
    final = record.final_state()
    console.print(final.rich_text())
    if final.is_terminal():
        console.print(_("Scores: {scores}  returns: {returns}", scores=final.scores(), returns=final.returns()))
    elif not record.outcome:
        console.print(_("The record ends before the game did."))
    if record.outcome:
        print_outcome(record, console)


def print_outcome(record: GameRecord, console: Console) -> None:
    """How a served game ended: its places, and who ran out of time or that it was abandoned."""
    outcome = record.outcome or {}
    late = ", ".join(seat_name(s) for s in outcome.get("out_of_time", []))
    if outcome.get("ended") == "abandoned":
        console.print(_("The game was abandoned: nobody moved for too long, and nobody won."))
    elif outcome.get("ended") == "time":
        console.print(_("The game ended when the clocks ran out: {seats} out of time.", seats=late))
    elif late:
        console.print(_("Out of time, and so placed last: {seats}.", seats=late))
    if outcome.get("ranks"):
        places = ", ".join(f"{seat_name(s)} {rank}" for s, rank in enumerate(outcome["ranks"]))
        console.print(_("Places: {places}", places=places))


def step_through(record: GameRecord, console: Console, ask: Callable[[str], str] = input) -> None:
    """Interactive replay: one player's move at a time, back and forth."""
    states = record.states()
    steps = player_steps(record)
    at = 0
    console.print(_(HELP))
    while True:
        index = steps[at]
        if index > 0 and record.movers[index - 1] >= 0:
            console.print(_("Move {number}: {who} played {move}", number=at, who=seat_name(record.movers[index - 1]),
                            move=record.moves[index - 1]))
        console.print(states[index].rich_text())
        try:
            word = ask(f"[{at}/{len(steps) - 1}] > ").strip().lower()
        except EOFError:
            return
        if word in ("q", "quit"):
            return
        if word == "b":
            at = max(0, at - 1)
        elif word == "s":
            at = 0
        elif word == "e":
            at = len(steps) - 1
        elif word.isdigit():
            at = min(int(word), len(steps) - 1)
        elif word in ("", "n"):
            if at == len(steps) - 1:
                console.print(_("That was the last move."))
            at = min(at + 1, len(steps) - 1)
        else:
            console.print(_(HELP))
