"""A game in the terminal: humans type moves in notation, agents answer.

The loop knows no game by name: it renders ``state.rich_text(seat)``, reads
notation through ``state.string_to_action`` and draws chance outcomes itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape

from tileworks.agents import Agent, make, split_specs
from tileworks.core import SPECTATOR, Game, IllegalActionError, State, sample_chance
from tileworks.core.i18n import N_, _
from tileworks.core.records import save_record
from tileworks.core.scoring import announce, recording
from tileworks.core.text import seat_name

HUMAN = "human"
HELP = N_(
    "Type a move in notation (the legal ones are listed with ?).\n"
    "  ?      list the legal moves\n"
    "  board  show the table again\n"
    "  help   this help\n"
    "  quit   stop the game (the record is still saved with --record)"
)


LEVELS = {"beginner": N_("beginner"), "easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}


def agent_name(spec: str) -> str:
    """A computer seat as players know it, as the web pages name it.

    >>> agent_name("mcts:hard"), agent_name("alpha"), agent_name("mcts:iterations=50")
    ('computer (hard)', 'computer (trained network and search)', 'computer (mcts:iterations=50)')
    """
    name, _colon, params = spec.partition(":")
    if name == "mcts" and params in LEVELS:
        return _("computer ({level})", level=_(LEVELS[params]))
    named = {"greedy": N_("computer (greedy)"), "net": N_("computer (trained network)"),
             "alpha": N_("computer (trained network and search)"), "random": N_("computer (random moves)")}
    return _(named[spec]) if spec in named else _("computer ({spec})", spec=spec)


def parse_seats(spec: str) -> list[str]:
    """``"human,random"`` -> ``["human", "random"]``, checking each agent spec."""
    seats = [s.lower() for s in split_specs(spec)]
    if not seats:
        raise ValueError(_("--players needs at least one seat, e.g. human,random"))
    for seat in seats:
        if seat != HUMAN:
            make(seat)  # raises ValueError listing the valid specs
    return seats


@dataclass
class TerminalGame:
    """One game between the given seats, driven through ``ask`` and ``console``."""

    game: Game
    seats: list[str]
    seed: int | None = None
    console: Console = field(default_factory=Console)
    ask: Callable[[str], str] = input
    record: Path | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.agents: dict[int, Agent] = {
            i: make(s, seed=None if self.seed is None else self.seed + 1 + i)
            for i, s in enumerate(self.seats)
            if s != HUMAN
        }
        self.humans = [i for i, s in enumerate(self.seats) if s == HUMAN]

    def viewer(self, state: State) -> int:
        """Whose eyes the table is drawn for: the human to move, or the only human."""
        if state.current_player() in self.humans:
            return state.current_player()
        return self.humans[0] if len(self.humans) == 1 else SPECTATOR

    def play(self) -> State:
        state = self.game.new_initial_state()
        shown_for = None
        you = _("you")
        seats = ", ".join(f"{seat_name(i)} {you if s == HUMAN else agent_name(s)}" for i, s in enumerate(self.seats))
        self.console.print(_("Seats: {seats}", seats=seats), highlight=False)
        try:
            while not state.is_terminal():
                player = state.current_player()
                if state.is_chance_node():
                    self._make(state, sample_chance(state, self.rng), said=False)
                    continue
                if player in self.agents:
                    self._make(state, self.agents[player].step(state))
                    continue
                if shown_for != len(state.history()):
                    self.console.print(state.rich_text(self.viewer(state)))
                    shown_for = len(state.history())
                if not self._human_turn(state):
                    self.console.print(_("Game stopped."))
                    break
            else:
                self.console.print(state.rich_text(self.viewer(state)))
                self.console.print(_("Scores: {scores}  returns: {returns}", scores=state.scores(), returns=state.returns()))
        finally:
            if self.record is not None:
                save_record(state, self.record, self.seats)
                self.console.print(_("Record saved to {path}", path=self.record))
        return state

    def _human_turn(self, state: State) -> bool:
        """Read one command; apply a legal move. False when the player quits."""
        try:
            line = self.ask(f"{state.decision()} > ").strip()
        except EOFError:
            return False
        word = line.lower()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("?", "moves"):
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            self.console.print(_("Legal moves: {moves}", moves=" ".join(moves)))
            return True
        if word in ("help", "h"):
            self.console.print(_(HELP))
            return True
        if word in ("board", "b", ""):
            self.console.print(state.rich_text(self.viewer(state)))
            return True
        try:
            self._make(state, state.string_to_action(line))
        except IllegalActionError as exc:
            refused = _("Not a legal move:")
            self.console.print(f"[red]{refused}[/red] {exc}", highlight=False, soft_wrap=True)
        return True

    def _make(self, state: State, action: int, said: bool = True) -> None:
        """Apply a legal ``action``; say it in words (a player's move), with
        its notation, and announce what it scored."""
        if said:
            self.console.print(f"{escape(state.describe(action))} [dim]· {escape(state.action_to_string(action))}[/dim]",
                               highlight=False)
        before = state.clone()
        with recording() as parts:
            state.apply_action(action)
        heading, lines = announce(before, state, parts)
        if heading and lines:
            self.console.print(f"[bold]{escape(heading)}[/bold]", highlight=False)
        for line in lines:
            self.console.print(f"  {escape(line)}", highlight=False)
