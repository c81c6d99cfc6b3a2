"""``Game`` and ``State``: the protocol every tileworks game implements.

The method names are OpenSpiel's. A game subclasses both and supplies the
rules through a handful of underscore hooks; the base classes supply the
checks every game shares (an illegal action raises and changes nothing,
legal actions are cached between moves, JSON round-trips, equality).
"""

from __future__ import annotations

import array
import functools
import json
import operator
import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from tileworks.core import jsontext
from tileworks.core.i18n import _
from tileworks.core.constants import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.errors import IllegalActionError, RecordError
from tileworks.core.text import check_viewer, seat_name


class Game(ABC):
    """A game with fixed options: the factory of its states."""

    #: the registry name, set by each subclass
    name: str = ""
    #: how the winner is found, for measures that read the scores: ``"score"``
    #: (the highest score wins, tied leaders share), ``"score+tiebreak"`` (the
    #: highest score, then a tie-break rule) or ``"other"`` (a race, or going
    #: out: the scores do not decide who wins)
    winner_rule: ClassVar[str] = "score"

    def __init__(self, options: dict[str, Any]):
        self._options = dict(options)

    # -- OpenSpiel's Game API -------------------------------------------------
    def num_players(self) -> int:
        return self._options["players"]

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the player action space (actions are ``0..n-1``)."""

    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """Size of the chance outcome space (outcomes are ``0..n-1``)."""

    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of player decisions in one game."""

    @abstractmethod
    def max_chance_nodes(self) -> int:
        """An upper bound on the number of chance outcomes in one game."""

    #: the game's State class; with it the two methods below need no code
    state_class: ClassVar[type["State"] | None] = None

    def new_initial_state(self) -> "State":
        """The state before the first action (usually a chance node: the setup)."""
        if self.state_class is None:  # pragma: no cover - a game must set one or override
            raise TypeError(f"{type(self).__name__} sets no state_class")
        return self.state_class(self)

    def observation_tensor_size(self) -> int:
        """Length of every ``State.observation_tensor`` (laid out in the game's rules document)."""
        return _observation_module(self.state_class, self.name).tensor_size(self)

    def observation_tensor_shape(self) -> list[int]:
        """Shape of ``State.observation_tensor``: flat, one dimension."""
        return [self.observation_tensor_size()]

    def board_layout(self) -> dict[str, Any] | None:
        """Where the observation is a board and the actions place on it, for
        networks that read it as one (convolutions); ``None`` where it is not.

        A layout ``{"planes": P, "height": H, "width": W, "channels": C}``
        says that the observation starts with ``P`` planes of ``H x W`` cells
        (plane by plane, each row by row; the rest holds whatever is not on
        the board), and that the actions start with ``C`` for each of those
        cells (cell by cell: cell ``i``'s are ``i * C .. i * C + C - 1``; any
        actions after them are not tied to a cell). With ``"order":
        "channel"`` they run channel by channel instead: channel ``c`` of
        cell ``i`` is action ``c * H * W + i`` (Tuileries: a tile on a square).
        With ``"corner": K`` the marked cells (any plane not zero) start at
        the board's top-left cell and seldom pass its first ``K`` rows and
        columns, so training may compute only that corner while they do
        (Tiles: a 47 x 47 frame whose layouts seldom pass 16 x 16); it
        changes what is computed, never the outputs.

        A game of several boards, or whose board is not where its
        observation starts, gives a *canvas* layout instead: its boards
        side by side on one grid, each cell read from wherever the
        observation holds it, and each action's logit read at the cells it
        names (KILN: the kiln in its rack, and the warehouse in play; the
        fields in :func:`tileworks.agents.network.check_canvas`)."""
        return None

    def options(self) -> dict[str, Any]:
        """The resolved options, defaults included (a copy)."""
        return dict(self._options)

    def json_options(self) -> dict[str, Any]:
        """The options as plain JSON types (tuples become lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._options.items()}

    def state_from_json(self, data: str | dict[str, Any]) -> "State":
        """Rebuild a state written by :meth:`State.to_json`.

        Raises :class:`RecordError` naming the first problem; nothing is
        half-built.
        """
        if isinstance(data, str):
            try:
                data = jsontext.loads(data)
            except json.JSONDecodeError as exc:
                raise RecordError(f"state is not valid JSON: {exc}") from None
            except jsontext.TooDeepError as exc:
                raise RecordError(f"state: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError("state must be a JSON object")
        if data.get("game") != self.name:
            raise RecordError(f"state is for game {data.get('game')!r}, not {self.name!r}")
        if data.get("options") != self.json_options():
            raise RecordError(
                f"state options {data.get('options')!r} differ from this game's {self.json_options()!r}"
            )
        history = data.get("history")
        if not isinstance(history, list) or not all(
            type(a) is int and a >= 0 for a in history
        ):
            raise RecordError("state 'history' must be a list of non-negative integers")
        fields = data.get("state")
        if not isinstance(fields, dict):
            raise RecordError("state 'state' must be a JSON object")
        state = self._state_from_fields(fields)
        state._history = list(history)
        state._check_history()
        return state

    def _state_from_fields(self, fields: dict[str, Any]) -> "State":
        """Rebuild a position from ``State._fields()`` output, checking every
        field (by default through the state class's notation module)."""
        return self.state_class.notation.state_from_fields(self, fields)  # type: ignore[union-attr]

    def __deepcopy__(self, memo: dict[int, Any]) -> "Game":
        # a game never changes after it is made, so copies share it
        return self

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(self._options.items()))
        return f"load_game({self.name!r}, {opts})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self._options) == (other.name, other._options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self._options.items()))))


class State(ABC):
    """One position of a game, including whose decision it is.

    Subclasses implement the rules through ``_legal_actions``, ``_apply``,
    ``_fields`` and the notation hooks; they must keep ``_history`` and reset
    ``_legal`` (the cached legal actions) whenever the position changes.
    """

    __slots__ = ("_game", "_history", "_legal")

    def __init__(self, game: Game):
        self._game = game
        self._history: list[int] = []
        self._legal: list[int] | None = None

    # -- hooks for subclasses -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Sorted legal actions (or chance outcomes) of the current node;
        empty at a terminal state."""

    def _is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now. By default a look-up in the (cached)
        legal actions; games with long action lists may answer directly, but
        the answer must equal ``action in self.legal_actions()``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return action in legal

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def _fields(self) -> dict[str, Any]:
        """The whole position as plain JSON types (history excluded)."""

    @abstractmethod
    def decision(self) -> str:
        """A sentence naming the decision being made now."""

    # -- the protocol ---------------------------------------------------------
    def game(self) -> Game:
        return self._game

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions; empty at terminal states and for other seats."""
        if player is not None and player != self.current_player():
            return []
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs of a chance node, summing to 1."""

    def _sample_chance(self, rng: random.Random) -> int:
        """A chance outcome drawn with its probability. Games may override it
        with an exact faster sampler of the same distribution."""
        outcomes = self.chance_outcomes()
        pick = rng.random()
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if pick < total:
                return action
        return outcomes[-1][0]

    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises and changes nothing."""
        if type(action) is not int:
            action = _as_action(action, self)
        if not self._is_legal(action):
            raise IllegalActionError(self.why_illegal(action))
        self._apply_known_legal(action)

    def _apply_known_legal(self, action: int) -> None:
        """:meth:`apply_action` without its check, for an action known to be
        legal: one just taken from this state's legal actions or chance
        outcomes. Searches and replays apply hundreds of thousands of
        these, and checking each again was a tenth of Tiles' search time
        (docs/performance.md, "Actions known to be legal")."""
        self._legal = None
        self._history.append(action)
        self._apply(action)

    @abstractmethod
    def returns(self) -> list[float]:
        """1 for a sole winner and 0 for the others; k tied winners get 1/k each; all 0 before the end."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Points of each seat, in game units."""

    def history(self) -> list[int]:
        """Every action so far, chance outcomes included."""
        return list(self._history)

    def visible_history(self, player: int = SPECTATOR) -> list[int | None]:
        """The history as ``player`` saw it: ``None`` where an action (another
        seat's draw) was hidden from them."""
        return list(self._history)

    def history_str(self) -> str:
        return " ".join(map(str, self._history))

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy (cheap: no deep copies)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        # ``copy.deepcopy`` (OpenSpiel clones Python states with it) is ``clone``
        return self.clone()

    def child(self, action: int) -> "State":
        """A clone with ``action`` applied."""
        state = self.clone()
        state.apply_action(action)
        return state

    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """The notation of ``action`` in the current decision."""

    @abstractmethod
    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Read notation typed for the current decision; ``IllegalActionError`` says why it is not a legal move."""

    @abstractmethod
    def view(self, viewer: int = SPECTATOR) -> dict[str, Any]:
        """What ``viewer`` (a seat, or ``SPECTATOR``) may see, as JSON types."""

    @abstractmethod
    def observation_string(self, player: int = SPECTATOR) -> str:
        """Text of what ``player`` sees now (the rendering of their view)."""

    @abstractmethod
    def information_state_string(self, player: int = SPECTATOR) -> str:
        """Text of everything ``player`` has observed so far; equal for states they cannot tell apart."""

    @abstractmethod
    def observation_tensor(self, player: int = SPECTATOR) -> list[float]:
        """What ``player`` sees now as ``game().observation_tensor_size()``
        floats in [0, 1], for learning agents; built only from what that
        seat may see (the spectator's tensor shows the public table)."""

    def observation_floats(self, player: int = SPECTATOR) -> array.array:
        """:meth:`observation_tensor` as 32-bit floats in one buffer
        (``array.array("f")``), which NumPy reads without a conversion a
        float (``np.frombuffer(..., np.float32)``). A game whose tensor is
        long and mostly zeros may build it directly (Tiles' is 26,580
        floats: converting them one by one from the list took a quarter of
        ``alpha``'s time a move)."""
        return array.array("f", self.observation_tensor(player))

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal action, 0 elsewhere: ``num_distinct_actions()``
        entries at a decision, ``max_chance_outcomes()`` at a chance node,
        all zeros for a seat not to move and at the end."""
        game = self._game
        size = game.max_chance_outcomes() if self.is_chance_node() else game.num_distinct_actions()
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def resample_hidden(self, player: int, rng: random.Random) -> "State":
        """A state consistent with what ``player`` knows (a clone if nothing is hidden)."""
        return self.clone()

    def _check_history(self) -> None:
        """Raise :class:`RecordError` if a state just read from JSON and its
        ``history`` contradict each other (games whose history carries what
        resampling needs check it; others trust the fields)."""

    def evaluate(self, player: int) -> float:
        """A heuristic value of the position for ``player``, in points: the
        score now plus what the game's heuristics see in the position. It
        reads only what ``player`` may see, so agents built on it never cheat."""
        return float(self.scores()[player])

    def rollout_depth(self) -> int:
        """Random decisions a search plays past its tree before it trusts
        ``evaluate`` (0: evaluate the new leaf itself). A game whose
        evaluation reads the middle of a turn poorly asks for more."""
        return 2

    def value_scale(self) -> float:
        """Points of ``evaluate`` lead over the best rival that a search reads
        as a win chance of about 0.73 (the scale of a logistic)."""
        return 4.0

    def exploration(self) -> float:
        """The UCT exploration constant that suits the spread of the values
        ``value_scale`` gives (a search spec's ``c`` overrides it)."""
        return 1.4

    def evaluate_after(self, actions: list[int], player: int) -> list[float]:
        """``player``'s ``evaluate`` of the position after each of ``actions``
        (legal here): the one-step look greedy plays by and MCTS orders its
        expansion by. Games may supply a faster equal computation
        (:meth:`_evaluate_after`). An action not legal here is refused, named."""
        legal = set(self.legal_actions())
        for action in actions:
            if action not in legal:  # checked once against the listed moves, not again in each child
                raise IllegalActionError(self.why_illegal(action))
        return self._evaluate_after(actions, player)

    def _evaluate_after(self, actions: list[int], player: int) -> list[float]:
        """:meth:`evaluate_after` for ``actions`` known to be legal here."""
        values = []
        for action in actions:
            child = self.clone()
            child._apply_known_legal(action)
            values.append(child.evaluate(player))
        return values

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON types; ``Game.state_from_json`` inverts it."""
        return {
            "game": self._game.name,
            "options": self._game.json_options(),
            "state": self._fields(),
            "history": list(self._history),
        }

    def describe(self, action: int) -> str:
        """What the legal ``action`` does here, as a sentence of a game log in
        the current language: who moves and what, in a player's words.
        Games say it their way (``P1 takes 3 red from factory 2 to line 4
        (1 to the floor)``); by default it is the mover and the notation. It
        tells only what everyone sees the move do.

        >>> import tileworks
        >>> state = tileworks.load_game("azul").new_initial_state()
        >>> state.describe(0)
        'chance picks P1 to start'
        """
        move = self.action_to_string(action)
        if self.is_chance_node():
            return _("chance: {outcome}", outcome=move)
        return _("{who} plays {move}", who=seat_name(self.current_player()), move=move)

    def _reason_illegal(self, action: int) -> str | None:
        """Why a player's action id, not legal now, is refused, in the
        game's terms (``factory 1 has no blue``); None where the game says
        no more than that it is not one of the legal moves."""
        return None

    # -- helpers --------------------------------------------------------------
    def why_illegal(self, action: Any, typed: str | None = None) -> str:
        """The message an illegal ``action`` gets: the game's reason where it
        gives one, else the decision and the legal moves. ``typed``: the
        notation a player typed for it."""
        if self.is_terminal():
            return _("action {action} is not legal: the game is over", action=repr(action))
        if type(action) is int and not self.is_chance_node():
            reason = self._reason_illegal(action)
            if reason:
                shown = repr(typed) if typed is not None else f"{action} ({self.action_to_string(action)})"
                return _("{move} is not legal: {reason}", move=shown, reason=reason)
        if typed is not None:
            action = typed
        legal = self.legal_actions()
        shown = ", ".join(self.action_to_string(a) for a in legal[:12])
        if len(legal) > 12:
            shown = _("{moves} and {count} more", moves=shown, count=len(legal) - 12)
        return _("action {action} is not legal while {decision}; legal: {moves}", action=repr(action),
                 decision=self.decision(), moves=shown)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or other._game != self._game:
            return False
        return self._history == other._history and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def rich_text(self, viewer: int = SPECTATOR) -> Any:
        """A Rich renderable of what ``viewer`` sees (games add colour)."""
        from rich.text import Text

        return Text(self.observation_string(viewer))

    def svg(self, viewer: int = SPECTATOR, narrow: bool = False) -> str:
        """The table as an SVG picture, as ``viewer`` sees it; by default the
        text rendering drawn in monospace (games draw their own). ``narrow``
        asks for a phone's layout, where the game draws one."""
        from tileworks.core.svg import text_picture

        return text_picture(self.observation_string(viewer), self.decision())

    def picture_viewer(self, viewer: int) -> int:
        """The viewer whose picture ``viewer`` is shown: ``viewer`` itself,
        or, in a game whose pictures are the same for every viewer, the
        spectator, so that a server draws one picture a position for all.

        >>> import tileworks
        >>> from tileworks.core.constants import SPECTATOR
        >>> tileworks.load_game("azul").new_initial_state().picture_viewer(1) == SPECTATOR
        True
        >>> tileworks.load_game("tiles").new_initial_state().picture_viewer(1)
        1
        """
        return viewer

    def svg_after(self, action: int, viewer: int, narrow: bool = False) -> str:
        """The picture once ``action`` is made, as ``viewer`` sees it (for a
        preview, ``core.svg.preview_overlay``); games drawn from views keep
        this picture's frame (``DelegatingState.svg_after``)."""
        return self.child(action).svg(viewer, narrow)

    def view_as(self, viewer: int) -> "Picture":
        """What ``viewer`` sees, to show in a notebook: a seat's own hand
        appears only here, never in the state's own picture.

        >>> import tileworks
        >>> state = tileworks.load_game("kiln").new_initial_state()
        >>> state.view_as(0)._repr_svg_().startswith("<svg")
        True
        """
        check_viewer(viewer, self._game.num_players())
        return Picture(self.svg(viewer), self.observation_string(viewer))

    def _repr_svg_(self) -> str:
        # Jupyter shows a state as the spectator's picture: no hidden hand
        return self.svg(SPECTATOR)

    def __rich__(self) -> Any:
        return self.rich_text(SPECTATOR)

    def __str__(self) -> str:
        return self.observation_string(SPECTATOR)


def _as_action(action: Any, state: State) -> int:
    """Accept int-like values (e.g. NumPy integers) but not bools or strings."""
    if isinstance(action, (bool, str, bytes, float)):
        raise IllegalActionError(
            _("malformed action {action}: actions are integers (use string_to_action for notation)", action=repr(action))
        )
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(_("malformed action {action}: actions are integers", action=repr(action))) from None


class DelegatingState(State):
    """A State that keeps the player to move in ``player`` and finds the rest
    of a game in modules named by class attributes (docs/writing-a-game.md):

    - ``notation`` (required): ``describe_decision``, ``action_to_string``,
      ``string_to_action``, ``state_fields``, ``state_from_fields``,
      ``view``; optionally ``clicks`` and ``describe_move`` for the browser,
      ``describe_action`` (a move in words, for the game log) and
      ``reason_illegal`` (why a move is refused, in the game's terms);
    - ``render`` (required): ``render_text``; optionally ``render_rich``
      (else plain text), ``render_svg`` (else the text drawn as SVG) and
      ``render_svg_narrow`` (a phone's layout; else ``render_svg``);
    - ``heuristics`` (optional): ``evaluate`` and search settings (else the
      score, and searches roll out to the end of the game);
    - ``observation`` (optional): ``tensor_size`` and ``observation_tensor``
      for learning agents (else the research adapters say it is missing).
    """

    __slots__ = ("player",)
    notation: ClassVar[Any]
    render: ClassVar[Any]
    heuristics: ClassVar[Any] = None
    observation: ClassVar[Any] = None

    def current_player(self) -> int:
        return self.player

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def decision(self) -> str:
        return self.notation.describe_decision(self)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self.notation.action_to_string(self, action)

    def describe(self, action: int) -> str:
        describe = getattr(self.notation, "describe_action", None)
        return describe(self, action) if describe else super().describe(action)

    def _reason_illegal(self, action: int) -> str | None:
        reason = getattr(self.notation, "reason_illegal", None)
        return reason(self, action) if reason else None

    def string_to_action(self, text: str, player: int | None = None) -> int:
        return self.notation.string_to_action(self, text)

    def _fields(self) -> dict[str, Any]:
        return self.notation.state_fields(self)

    def view(self, viewer: int = SPECTATOR) -> dict[str, Any]:
        return self.notation.view(self, viewer)

    def observation_string(self, player: int = SPECTATOR) -> str:
        return self.render.render_text(self.view(player))

    def observation_tensor(self, player: int = SPECTATOR) -> list[float]:
        check_viewer(player, self._game.num_players())
        return _observation_module(type(self), self._game.name).observation_tensor(self, player)

    def observation_floats(self, player: int = SPECTATOR) -> array.array:
        build = getattr(_observation_module(type(self), self._game.name), "observation_floats", None)
        if build is None:
            return super().observation_floats(player)
        check_viewer(player, self._game.num_players())
        return build(self, player)

    def rich_text(self, viewer: int = SPECTATOR) -> Any:
        render_rich = getattr(self.render, "render_rich", None)
        return render_rich(self.view(viewer)) if render_rich else super().rich_text(viewer)

    def svg(self, viewer: int = SPECTATOR, narrow: bool = False) -> str:
        """The table as an SVG picture, as ``viewer`` sees it (the text
        rendering drawn in monospace when the game draws no SVG). With
        ``narrow``, the render module's ``render_svg_narrow`` where it has
        one: the same shapes laid out for a phone."""
        return self._picture(self.view(viewer), viewer, narrow)

    def picture_viewer(self, viewer: int) -> int:
        # a render module says so with PICTURE_FOR_EVERY_VIEWER = True
        return SPECTATOR if getattr(self.render, "PICTURE_FOR_EVERY_VIEWER", False) else viewer

    def _picture(self, view: dict[str, Any], viewer: int, narrow: bool) -> str:
        render_svg = getattr(self.render, "render_svg", None)
        if narrow:
            render_svg = getattr(self.render, "render_svg_narrow", render_svg)
        return render_svg(view) if render_svg else super().svg(viewer)

    def svg_after(self, action: int, viewer: int, narrow: bool = False) -> str:
        """The picture once ``action`` is made, as ``viewer`` sees it, drawn
        in this picture's frame: the view after the move, with this view's
        choices (``legal``), ``hand`` and seat to move (``to_move``) kept
        where the view has them, so that what the move changes on the table
        is all that moves (for a preview, ``core.svg.preview_overlay``)."""
        now, after = self.view(viewer), self.child(action).view(viewer)
        for kept in ("legal", "hand", "to_move"):
            if kept in now and kept in after:
                after[kept] = now[kept]
        return self._picture(after, viewer, narrow)

    def choices(self) -> list[dict[str, Any]]:
        """The mover's legal moves, each with the clicks on the SVG picture
        that make it: ``{"move": "3r2", "clicks": [{"source": "3", "colour":
        "r"}, {"seat": "0", "line": "2"}]}``. A click names the ``data-*``
        attributes of the shape to click, or is ``{"button": label}``: a
        choice the client offers as a button once the clicks before it are
        made. A move with no clicks at all is offered as a button, labelled
        with ``label`` (the game's words for it in the current language, or
        its notation)."""
        if self.is_chance_node() or self.is_terminal():
            return []
        clicks = getattr(self.notation, "clicks", None)
        describe = getattr(self.notation, "describe_move", None)
        out = []
        for a in self.legal_actions():
            made = clicks(self, a) if clicks else []
            move = self.action_to_string(a)
            out.append({"move": move, "clicks": made, "label": describe(self, a) if describe and not made else move})
        return out

    def evaluate(self, player: int) -> float:
        heuristics = getattr(self, "heuristics", None)
        return heuristics.evaluate(self, player) if heuristics else super().evaluate(player)

    # search settings: the game's heuristics module may set its own
    def rollout_depth(self) -> int:
        if getattr(self, "heuristics", None) is None:
            # no evaluation beyond the score: searches play rollouts to the end
            return self._game.max_game_length()
        return self._search_setting("ROLLOUT_DEPTH", super().rollout_depth())

    def value_scale(self) -> float:
        return self._search_setting("VALUE_SCALE", super().value_scale())

    def exploration(self) -> float:
        return self._search_setting("EXPLORATION", super().exploration())

    def _search_setting(self, name: str, default: Any) -> Any:
        return getattr(getattr(self, "heuristics", None), name, default)

    def _evaluate_after(self, actions: list[int], player: int) -> list[float]:
        # a game's heuristics may value a move without playing it (None: not here)
        fast = getattr(getattr(self, "heuristics", None), "evaluate_after", None)
        values = fast(self, actions, player) if fast else None
        return super()._evaluate_after(actions, player) if values is None else values

    def information_state_string(self, player: int = SPECTATOR) -> str:
        # Perfect information (chance aside): every seat has seen the whole
        # history. Games with hidden hands override this.
        return self.history_str()


class HiddenHandState(DelegatingState):
    """A DelegatingState whose seats hold private hands filled by chance draws.

    It keeps, per seat, the history indices of the draws still in hand
    (``hand_slots``) and, per history entry, the seat that alone saw it
    (``private_to``, -1 when public). From these it masks the information
    state and resamples hidden hands with a history that really leads there.
    A game supplies ``_hand_tiles``, ``_undrawn`` and ``_with_hidden``.
    """

    __slots__ = ("hand_slots", "private_to", "evidence")

    def __init__(self, game: Game):
        super().__init__(game)
        #: what play revealed about hands: ``(seat, history index, tiles)``
        #: says the seat held none of ``tiles`` (a bitmask of draw outcomes)
        #: at that point, as a forced discard does; a tuple, so copies share it
        self.evidence: tuple[tuple[int, int, int], ...] = ()

    @abstractmethod
    def _hand_tiles(self, seat: int) -> list[int]:
        """The draw outcomes (tile ids) in ``seat``'s hand, with repeats."""

    @abstractmethod
    def _undrawn(self) -> list[int]:
        """The draw outcomes still in the deck or draw pile, with repeats."""

    @abstractmethod
    def _with_hidden(self, hands: dict[int, list[int]], undrawn: list[int]) -> "State":
        """A copy of this state with ``hands`` for those seats and ``undrawn`` left to draw."""

    def _forget_draw(self, seat: int, tile: int) -> None:
        """A tile left ``seat``'s hand: drop the draw slot it came from."""
        slots = self.hand_slots[seat]
        history = self._history
        for i, index in enumerate(slots):
            if history[index] == tile:
                del slots[i]
                return

    def visible_history(self, player: int = SPECTATOR) -> list[int | None]:
        return [a if owner < 0 or owner == player else None for a, owner in zip(self._history, self.private_to)]

    def information_state_string(self, player: int = SPECTATOR) -> str:
        """The history as ``player`` saw it: other seats' draws are ``?``."""
        return " ".join(
            str(a) if owner < 0 or owner == player else "?" for a, owner in zip(self._history, self.private_to)
        )

    def resample_hidden(self, player: int, rng: random.Random) -> "State":
        """A state ``player`` cannot tell from this one: the tiles they have not
        seen (other hands and the undrawn tiles) dealt anew, each other seat
        keeping its hand size, and each hand consistent with what play
        revealed (``evidence``: a tile drawn before a forced discard and
        still held is one that fitted nowhere then).

        The unseen draws still in hand are rewritten in the history, so the
        result's ``history()`` leads exactly to it and every move in it stays
        legal. The result is this state with other hands and undrawn tiles,
        made from a copy, unless a replay of the rewritten history would
        forget other draws (:meth:`_copy_reaches`); then it is that replay.
        With one hidden hand (two players) every consistent deal is equally
        likely; with two, every consistent deal can come out. A state
        without a history gets the new hands directly.
        """
        game = self._game
        others = [q for q in range(game.num_players()) if q != player]
        if not self._history:
            # sorted, so that two states the player cannot tell apart deal alike from one seed
            pool = sorted(self._undrawn() + [t for q in others for t in self._hand_tiles(q)])
            rng.shuffle(pool)
            rest = iter(pool)
            deal = {q: [next(rest) for _ in self._hand_tiles(q)] for q in others}
            return self._with_hidden(deal, list(rest))
        # the draws still in other hands that only their holder saw (a game
        # may reveal hands, as at the end of a dominoes game)
        slots = [(q, index) for q in others for index in self.hand_slots[q] if self.private_to[index] == q]
        pool = sorted(self._undrawn() + [self._history[index] for _q, index in slots])
        rng.shuffle(pool)
        # a slot drawn before some evidence about its seat cannot hold those tiles
        forbidden = [
            functools.reduce(operator.or_, (tiles for seat, when, tiles in self.evidence
                                            if seat == q and when > index), 0)
            for q, index in slots
        ]
        history = list(self._history)
        chosen = deal_respecting(pool, forbidden, rng)
        for (_q, index), item in zip(slots, chosen, strict=True):
            history[index] = pool[item]
        if not self._copy_reaches(history, slots):
            return self._replayed(history)
        # what a replay would reach (the conformance suite replays it to check)
        dealt = set(chosen)
        state = self._with_hidden({q: [history[index] for index in self.hand_slots[q]] for q in others},
                                  [tile for item, tile in enumerate(pool) if item not in dealt])
        state._history = history
        return state

    def _copy_reaches(self, history: list[int], slots: list[tuple[int, int]]) -> bool:
        """Whether ``history``, this state's with the draws at ``slots``
        (seat, index) rewritten, leads to this state with only the hands and
        the undrawn tiles changed. A tile played from a hand is forgotten
        from the first draw of its kind there (:meth:`_forget_draw`), so a
        replay forgets the same draws unless a rewritten draw took the kind
        of a tile its seat drew later and has since played: never so where
        every tile is one of a kind, now and then where a game has copies of
        a tile. (It takes a draw into a hand to stay private to its seat
        while there, or a tile made public in a hand to be one of a kind.)"""
        first_of_kind: dict[int, dict[int, int]] = {}  # seat -> kind -> its earliest rewritten draw
        for seat, index in slots:
            kinds = first_of_kind.setdefault(seat, {})
            kinds[history[index]] = min(index, kinds.get(history[index], index))
        held = {index for seat in first_of_kind for index in self.hand_slots[seat]}
        return not any(owner in first_of_kind and index not in held
                       and first_of_kind[owner].get(self._history[index], index) < index
                       for index, owner in enumerate(self.private_to))

    def _replayed(self, history: list[int]) -> "State":
        """The state ``history`` leads to, its moves known to be legal."""
        state = self._game.new_initial_state()
        for action in history:  # legal by construction (the conformance suite replays it checked)
            state._apply_known_legal(action)
        return state

    def _check_history(self) -> None:
        """The history must lead to this state: replay it and compare every
        field (hands, draw slots, who saw what); it also yields the evidence."""
        if not self._history:
            if any(self.hand_slots) or self.private_to:
                raise RecordError(
                    "state field 'hand_slots': with an empty history no draw is in hand "
                    "(hand_slots must hold empty lists and private_to be empty)"
                )
            return
        replay = self._game.new_initial_state()
        for i, action in enumerate(self._history):
            if action not in replay.legal_actions():
                raise RecordError(f"state 'history': action {i + 1} ({action}) is not legal there")
            replay.apply_action(action)
        mine, theirs = self._fields(), replay._fields()
        for name, value in mine.items():
            if theirs.get(name) != value:
                raise RecordError(
                    f"state field {name!r} contradicts the history: replaying it gives {theirs.get(name)!r}"
                )
        self.evidence = replay.evidence


def _observation_module(state_class: Any, game: str) -> Any:
    """The game's ``observation`` module, or a clear error for a game that
    has none (the research adapters need it; play does not)."""
    module = getattr(state_class, "observation", None)
    if module is None:
        raise NotImplementedError(
            f"game {game!r} has no observation tensor: its state class names no 'observation' module "
            "(see docs/writing-a-game.md)"
        )
    return module


class Picture:
    """One viewer's picture of a state, for notebooks (``State.view_as``):
    Jupyter shows the SVG, ``str()`` gives the text rendering."""

    def __init__(self, svg: str, text: str):
        self.svg, self.text = svg, text

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def deal_respecting(pool: list[int], forbidden: list[int], rng: random.Random) -> list[int]:
    """Positions in ``pool`` for each slot, no two alike, slot ``i`` never
    getting a tile in the bitmask ``forbidden[i]``.

    ``pool`` comes shuffled. Constrained slots are filled first, the most
    constrained first, each with a tile drawn uniformly from those still
    allowed; when none is left, an augmenting path (Kuhn's matching) moves
    earlier choices, so a deal is found whenever one exists. The rest of the
    slots take the rest of the pool in its shuffled order. When the
    constraints are nested (one seat's discards), the result is uniform
    over all consistent deals.

    >>> deal_respecting([3, 1, 2], [0b1110, 0, 0], random.Random(1))  # slot 0 takes only tile 0: none here
    Traceback (most recent call last):
    ...
    ValueError: no deal fits the evidence: slot 0 can take no tile of the pool
    >>> deal_respecting([3, 1, 2], [0b0110, 0, 0b1100], random.Random(1))
    [0, 2, 1]
    """
    owner: dict[int, int] = {}  # pool position -> slot
    chosen = [-1] * len(forbidden)

    def allowed(slot: int) -> list[int]:
        return [i for i, tile in enumerate(pool) if not forbidden[slot] >> tile & 1]

    def augment(slot: int, seen: set[int]) -> bool:
        for item in allowed(slot):
            if item not in seen:
                seen.add(item)
                if item not in owner or augment(owner[item], seen):
                    owner[item], chosen[slot] = slot, item
                    return True
        return False

    constrained = sorted((len(allowed(s)), s) for s, mask in enumerate(forbidden) if mask)
    for _count, slot in constrained:
        free = [i for i in allowed(slot) if i not in owner]
        if free:
            item = rng.choice(free)
            owner[item], chosen[slot] = slot, item
        elif not augment(slot, set()):
            raise ValueError(f"no deal fits the evidence: slot {slot} can take no tile of the pool")
    rest = iter(i for i in range(len(pool)) if i not in owner)
    return [item if item >= 0 else next(rest) for item in chosen]


def shared_win(points: list[int]) -> list[float]:
    """Returns when the highest score wins and tied leaders share the win.

    >>> shared_win([3, 5, 5])
    [0.0, 0.5, 0.5]
    """
    best = max(points)
    winners = sum(1 for p in points if p == best)
    return [1.0 / winners if p == best else 0.0 for p in points]


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome of ``state`` with its probability."""
    return state._sample_chance(rng)
