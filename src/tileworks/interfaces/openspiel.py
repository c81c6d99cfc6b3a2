"""Every tileworks game as an OpenSpiel game.

>>> import pyspiel
>>> from tileworks.interfaces import openspiel
>>> names = openspiel.register()
>>> game = pyspiel.load_game("tileworks_azul(players=3)")
>>> game.num_players(), game.num_distinct_actions()
(3, 245)

The games are sequential with explicit chance (setups, deals and draws are
chance nodes with their probabilities), constant-sum (returns are 1 for a
win, shared equally on a tie, so they always add up to 1) and rewarded at
the end. KILN and Azul have perfect information; Tiles and Tuileries hide
the hands, so their information state masks other seats' draws and
``resample_from_infostate`` deals the unseen tiles anew (what OpenSpiel's
``ISMCTSBot`` asks for). Options are game parameters with the same names;
a set-valued option (KILN's ``heat_tokens``, Tuileries' ``circles``) is a
string of its members separated by spaces:
``tileworks_tuileries(circles=a1 h1 a8 h8)``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from tileworks.core import HiddenHandState, SPECTATOR
from tileworks.core.registry import game_info, load_game, registered_games

PREFIX = "tileworks_"


def short_name(game: str) -> str:
    """OpenSpiel's name for a tileworks game: ``tileworks_kiln``."""
    return PREFIX + game


def _parameter(value: Any) -> Any:
    """An option's default as an OpenSpiel parameter (int, bool or str); a
    set is its members separated by spaces, since commas separate parameters
    in OpenSpiel's game strings."""
    if isinstance(value, tuple):
        return " ".join(map(str, value))
    return value


def _options(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters as tileworks options (sets: spaces or commas)."""
    sets = {o.name for o in game_info(name).options.options if isinstance(o.default, tuple)}
    return {k: ",".join(v.replace(",", " ").split()) if k in sets and isinstance(v, str) else v
            for k, v in params.items()}


def _game_type(name: str) -> pyspiel.GameType:
    info = game_info(name)
    hidden = issubclass(load_game(name).state_class, HiddenHandState)
    Info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"tileworks {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=Info.IMPERFECT_INFORMATION if hidden else Info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={o.name: _parameter(o.default) for o in info.options.options},
    )


class SpielGame(pyspiel.Game):
    """A tileworks game behind OpenSpiel's ``Game`` API (one subclass per game)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        self.tileworks_game = load_game(self.game_name, **_options(self.game_name, params))
        game = self.tileworks_game
        players = game.num_players()
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions(),
            max_chance_outcomes=game.max_chance_outcomes(),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=game.max_game_length(),
        )
        super().__init__(_TYPES[self.game_name], info, params)

    def new_initial_state(self) -> "SpielState":
        return SpielState(self)

    def observation_tensor_shape(self) -> list[int]:
        return self.tileworks_game.observation_tensor_shape()

    def observation_tensor_size(self) -> int:
        return self.tileworks_game.observation_tensor_size()

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return Observer(self, iig_obs_type)


class SpielState(pyspiel.State):
    """A tileworks state behind OpenSpiel's ``State`` API."""

    def __init__(self, game: SpielGame, state: Any = None):
        super().__init__(game)
        self.tileworks_state = game.tileworks_game.new_initial_state() if state is None else state

    # -- the API OpenSpiel calls --------------------------------------------------
    def current_player(self) -> int:
        # tileworks uses OpenSpiel's ids: CHANCE -1, TERMINAL -4
        return self.tileworks_state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.tileworks_state.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.tileworks_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.tileworks_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.tileworks_state
        if player >= 0 and player == state.current_player():
            return state.action_to_string(action)
        # action ids are read against the decision they belong to: without it, only the id
        who = "chance" if player == pyspiel.PlayerId.CHANCE else f"P{player + 1}"
        return f"{who}:{action}"

    def is_terminal(self) -> bool:
        return self.tileworks_state.is_terminal()

    def returns(self) -> list[float]:
        return self.tileworks_state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "SpielState":
        """A state ``player_id`` cannot tell from this one, drawn with a seed
        taken from OpenSpiel's sampler."""
        rng = random.Random(probability_sampler())
        resampled = self.tileworks_state.resample_hidden(player_id, rng)
        if not resampled.history():
            # a state built without a history (a position read from JSON):
            # the resampled deal itself, as the core returns it
            return SpielState(self.get_game(), resampled)
        out = SpielState(self.get_game())
        for action in resampled.history():
            out.apply_action(action)
        return out

    def __str__(self) -> str:
        return self.tileworks_state.observation_string(SPECTATOR) + "\n" + self.tileworks_state.history_str()


class Observer:
    """OpenSpiel's observer protocol: the observation tensor and string of
    a seat (or of the public, when no private information is asked for), or
    the information-state string (perfect recall; no tensor)."""

    def __init__(self, game: SpielGame, iig_obs_type: Any):
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.public_only = bool(iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE)
        if iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("tileworks observers show one seat's view (or the public one), not every seat's")
        size = 0 if self.perfect_recall else game.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def _seat(self, player: int) -> int:
        return SPECTATOR if self.public_only else player

    def set_from(self, state: SpielState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = state.tileworks_state.observation_tensor(self._seat(player))

    def string_from(self, state: SpielState, player: int) -> str:
        tw = state.tileworks_state
        if self.perfect_recall:
            return tw.information_state_string(self._seat(player))
        return tw.observation_string(self._seat(player))


_TYPES: dict[str, pyspiel.GameType] = {}


def register() -> list[str]:
    """Register every tileworks game with OpenSpiel (again is harmless);
    returns their OpenSpiel names."""
    registered = set(pyspiel.registered_names())
    out = []
    for name in [info.name for info in registered_games()]:
        if short_name(name) not in registered:
            _TYPES[name] = _game_type(name)
            pyspiel.register_game(_TYPES[name], type(f"SpielGame_{name}", (SpielGame,), {"game_name": name}))
        out.append(short_name(name))
    return out
