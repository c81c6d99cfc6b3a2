"""The conformance suite: the checks every tileworks game passes, for any
game, shipped or plugin.

Every configuration a game declares (``GameInfo.test_configs``) is played
out at random from several seeds, and the protocol's invariants are checked
at every state (in the spirit of OpenSpiel's random-simulation tests):
legal actions and chance outcomes, illegal actions refused without a trace,
JSON round trips and history replays, notation that reads back, observation
tensors and masks, pictures and views that hide what they must, resampled
hidden hands that agree with their history, moves told in words that tell
no seat what is hidden from it, refusals that name the move and give the
game's reason, and a game that plays within a
fixed stack.

Use it from a game's own tests with one line (pytest finds the tests)::

    from tileworks.testing.conformance import *  # noqa: F403

and choose the games with ``TILEWORKS_GAMES = ["dominoes"]`` in that module,
or on the command line with ``pytest --tileworks-game=dominoes`` (the
pytest plugin ``tileworks.testing.plugin``, installed with tileworks). By
default every registered game is checked.
"""

from __future__ import annotations

import array
import json
import math
import random
import subprocess
import sys
from xml.etree import ElementTree

import pytest

import tileworks
from tileworks import CHANCE, SPECTATOR, TERMINAL, IllegalActionError
from tileworks.core import sample_chance
from tileworks.core.game import DelegatingState

__all__ = [
    "test_engines_use_only_the_standard_library",
    "test_game_api",
    "test_no_agent_sees_hidden_information",
    "test_no_rule_step_nests_a_call_per_turn_or_round",
    "test_random_playouts",
]

#: seeded random playouts per configuration
PLAYOUTS = 8


def snapshot(state):
    return json.dumps(state.to_json(), sort_keys=True)


def check_illegal_actions_rejected(state, game):
    before = snapshot(state)
    legal = set(state.legal_actions())
    space = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    not_legal = next((a for a in range(space) if a not in legal), None)
    candidates = [-1, space + 7, True, "c8", 1.5, None]
    if not_legal is not None:
        candidates.append(not_legal)
    for bad in candidates:
        with pytest.raises(IllegalActionError) as raised:
            state.apply_action(bad)
        assert repr(bad) in str(raised.value) or str(bad) in str(raised.value)
    # (one snapshot after them all: a state is rarely changed and then changed back)
    assert snapshot(state) == before, f"rejecting one of {candidates!r} changed the state"


def check_exactly_the_legal_actions_apply(state, game):
    """An action applies iff it is listed as legal, checked on a copy whose
    legal actions are not cached, so the game's own fast check runs. Small
    action spaces are tried whole; large ones (Tiles has 200,000 ids) with
    every legal id, both ends of the space and a seeded sample of the rest."""
    legal = set(state.legal_actions())
    space = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    if space <= 400:
        candidates = range(space)
    else:
        sample = random.Random(len(state.history())).sample(range(space), 300)
        candidates = sorted(legal | set(sample) | set(range(50)) | set(range(space - 50, space)))
    for action in candidates:
        copy = state.clone()
        copy._legal = None  # make apply_action ask the game's own legality check
        try:
            copy.apply_action(action)
            applied = True
        except IllegalActionError:
            applied = False
        assert applied == (action in legal), f"action {action}: applied={applied}, listed={action in legal}"


def check_evaluate_after_matches_playing_out(state, game):
    """A game's fast one-step evaluation equals cloning, applying and
    evaluating, for the mover and for every other seat, and changes nothing.
    Up to 24 legal actions, spread over the list: a Tuileries turn may have
    600, and playing out each was two fifths of its conformance time."""
    legal = state.legal_actions()
    actions = legal[:: math.ceil(len(legal) / 24)]
    before = snapshot(state)
    for player in range(game.num_players()):
        expected = []
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            expected.append(child.evaluate(player))
        assert state.evaluate_after(actions, player) == expected
    assert snapshot(state) == before


def check_pictures_hide_what_they_must(state, rng):
    """Each viewer's SVG, wide and narrow, is well-formed and the same for
    any deal of what that viewer cannot see; viewers shown one picture draw
    the same one (:func:`check_shared_pictures_are_the_same`)."""
    pictures = {}
    for viewer in viewers_of(state):
        other = state.resample_hidden(viewer, rng)
        for narrow in (False, True):
            picture = pictures[viewer, narrow] = state.svg(viewer, narrow)
            if other != state:  # (an equal state draws the same picture: no need to draw it again)
                assert other.svg(viewer, narrow) == picture
    for picture in set(pictures.values()):
        ElementTree.fromstring(picture)
    check_shared_pictures_are_the_same(state, pictures)


def check_shared_pictures_are_the_same(state, pictures):
    """Viewers that ``picture_viewer`` says are shown one picture each draw
    that picture themselves. ``pictures``: each (viewer, narrow)'s SVG."""
    viewers = viewers_of(state)
    for viewer in viewers:
        shown = state.picture_viewer(viewer)
        assert shown in viewers
        if shown != viewer:
            for narrow in (False, True):
                assert pictures[viewer, narrow] == pictures[shown, narrow], f"P{viewer + 1} draws another picture"


def viewers_of(state):
    """Every seat, and the spectator."""
    return list(range(state.game().num_players())) + [SPECTATOR]


def check_every_choice_can_be_clicked(state):
    """Each legal move's clicks name shapes in the mover's picture, wide and
    narrow (or are buttons), and no two moves share their clicks."""
    mover = state.current_player()
    choices = state.choices()
    assert [c["move"] for c in choices] == [state.action_to_string(a) for a in state.legal_actions()]
    sequences = [json.dumps(c["clicks"], sort_keys=True) for c in choices if c["clicks"]]
    assert len(sequences) == len(set(sequences)), "two moves share their clicks"
    wanted = {json.dumps(click, sort_keys=True) for c in choices for click in c["clicks"] if "button" not in click}
    for narrow in (False, True):
        shapes = [{key[5:]: value for key, value in e.attrib.items() if key.startswith("data-")}
                  for e in ElementTree.fromstring(state.svg(mover, narrow)).iter()]
        for text in wanted:
            click = json.loads(text)
            assert any(click.items() <= shape.items() for shape in shapes), f"nothing to click for {click} ({narrow=})"


def check_observation_tensors(state, game):
    """Every seat's tensor (and the spectator's) has the declared size, stays
    in [0, 1], tells the viewer apart and is what ``observation_floats``
    packs as 32-bit floats; the mask marks exactly the legal actions."""
    size = game.observation_tensor_size()
    assert game.observation_tensor_shape() == [size]
    tensors = []
    for seat in viewers_of(state):
        tensor = state.observation_tensor(seat)
        assert len(tensor) == size
        assert all(isinstance(x, float) and 0.0 <= x <= 1.0 for x in tensor)
        floats = state.observation_floats(seat)
        assert floats.typecode == "f" and floats == array.array("f", tensor), f"seat {seat}'s observation_floats"
        tensors.append(tensor)
    assert len({tuple(t) for t in tensors}) == len(tensors), "two viewers got the same tensor"
    mask = state.legal_actions_mask()
    space = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    assert len(mask) == space
    assert [a for a, bit in enumerate(mask) if bit] == state.legal_actions()
    for observe in (state.observation_tensor, state.observation_floats):
        with pytest.raises(ValueError):
            observe(game.num_players())


def check_views_hide_what_they_must(state, rng):
    """Each viewer's view, observation and history are the same for any deal
    of what that viewer cannot see."""
    # a game whose text observation is drawn from its view says no more in it
    # than its view does: equal views draw equal text, so it is not drawn again
    text_of_view = type(state).observation_string is DelegatingState.observation_string
    for seat in viewers_of(state):
        view = state.view(seat)
        json.dumps(view)  # plain JSON types
        seen = state.visible_history(seat)
        assert len(seen) == len(state.history())
        assert all(a is None or a == b for a, b in zip(seen, state.history()))
        other = state.resample_hidden(seat, rng)
        assert other.visible_history(seat) == seen  # what the viewer saw does not depend on the deal
        if seat == SPECTATOR:
            assert other.view(seat) == view
            continue
        assert other.view(seat) == view
        if len(state.history()) % 7 == 0:  # (tensors are long: Tiles has 26,580 entries)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)  # nothing hidden leaks in
        if not text_of_view:
            assert other.observation_string(seat) == state.observation_string(seat)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.current_player() == state.current_player()
        if state.current_player() == seat:
            assert other.legal_actions() == state.legal_actions()


def check_moves_are_told_in_words(state, rng):
    """Every legal move has a sentence for the game log, which changes
    nothing and tells only what every other seat may know: a seat that
    cannot tell two states apart reads the same sentence for a move legal
    in both (a draw never names the tile drawn)."""
    before = snapshot(state)
    legal = state.legal_actions()
    legal = legal[:: max(1, len(legal) // 50)]  # (up to 50 of them: a Tiles turn may have hundreds)
    words = {action: state.describe(action) for action in legal}
    assert all(isinstance(text, str) and text.strip() for text in words.values())
    assert snapshot(state) == before
    mover = state.current_player()
    for seat in range(state.game().num_players()):
        if seat == mover:
            continue
        other = state.resample_hidden(seat, rng)
        if other == state:
            continue
        for action in other.legal_actions():
            if action in words:
                assert other.describe(action) == words[action], f"the words for {action} tell {seat} what is hidden"


def check_refusals_give_reasons(state, game):
    """Each refused player action's message names the move; the game's own
    reason, where it gives one, is a sentence, and the state is unchanged."""
    if state.is_chance_node() or state.is_terminal():
        return
    before = snapshot(state)
    legal = set(state.legal_actions())
    for action in range(0, game.num_distinct_actions(), max(1, game.num_distinct_actions() // 97)):
        if action in legal:
            continue
        reason = state._reason_illegal(action)
        assert reason is None or (isinstance(reason, str) and reason.strip())
        assert str(action) in state.why_illegal(action)
    assert snapshot(state) == before


def check_resampling_agrees_with_history(state, game, rng):
    """A resampled state's history replays, move by move legally, to exactly
    that state: the deal never contradicts what play revealed (a forced
    discard says what the discarder did not hold), and the history never
    carries the true hands behind a resampled deal."""
    for seat in range(game.num_players()):
        other = state.resample_hidden(seat, rng)
        assert len(other.history()) == len(state.history())
        if other == state:  # nothing hidden was dealt anew: the shadow replay already covers it
            continue
        replayed = game.new_initial_state()
        for action in other.history():
            replayed.apply_action(action)  # raises if a resampled hand made a move illegal
        assert replayed == other, "history() does not lead to the resampled state"
        assert getattr(replayed, "evidence", ()) == getattr(other, "evidence", ()), \
            "the resampled state keeps other evidence than its history gives"


def check_state(state, game, shadow, rng):
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players()
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    if state.is_terminal():
        assert legal == []
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert all(0.0 <= r <= 1.0 for r in returns)
        assert math.isclose(sum(returns), 1.0)
        winners = [r for r in returns if r > 0]
        assert all(math.isclose(r, 1 / len(winners)) for r in winners)
    else:
        assert legal, f"no legal action while {state.decision()}"
        assert state.returns() == [0.0] * game.num_players()
    assert len(state.scores()) == game.num_players()

    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
    for action in legal:
        text = state.action_to_string(action)
        assert isinstance(text, str) and text
        assert state.string_to_action(text) == action, f"{text!r} does not read back as {action}"
        assert state.string_to_action(f"  {text.upper()} ") == action

    copy = state.clone()
    assert copy == state
    data = state.to_json()
    restored = game.state_from_json(json.loads(json.dumps(data)))
    assert restored == state
    assert restored.legal_actions() == legal
    if legal:
        copy.apply_action(legal[-1])
        assert copy != state and state.legal_actions() == legal  # independent clone

    # history(): replaying it from the start reproduces the state
    for action in state.history()[len(shadow.history()):]:
        shadow.apply_action(action)
    assert shadow == state

    check_illegal_actions_rejected(state, game)
    if len(state.history()) % 7 == 0:
        check_observation_tensors(state, game)
        check_exactly_the_legal_actions_apply(state, game)
        if not state.is_chance_node() and not state.is_terminal():
            check_evaluate_after_matches_playing_out(state, game)
        check_pictures_hide_what_they_must(state, rng)
        if not state.is_chance_node() and not state.is_terminal():
            check_every_choice_can_be_clicked(state)
        check_moves_are_told_in_words(state, rng)
        check_refusals_give_reasons(state, game)
    check_views_hide_what_they_must(state, rng)
    if len(state.history()) % 3 == 0:
        check_resampling_agrees_with_history(state, game, rng)


def test_random_playouts(tileworks_config, tileworks_seed):
    """Seeded random playouts with every invariant checked at every state."""
    name, config = tileworks_config
    game = tileworks.load_game(name, **config)
    seed = tileworks_seed
    rng = random.Random(seed)
    state = game.new_initial_state()
    shadow = game.new_initial_state()
    decisions = chances = 0
    while True:
        check_state(state, game, shadow, rng)
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state, rng)
            chances += 1
        else:
            action = rng.choice(state.legal_actions())
            decisions += 1
        state.apply_action(action)
        assert decisions <= game.max_game_length()
        assert chances <= game.max_chance_nodes()
    replayed = game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert replayed == state and replayed.returns() == state.returns()


def stack_depth():
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_no_rule_step_nests_a_call_per_turn_or_round(tileworks_config):
    """A whole game plays within a fixed stack: turns and rounds follow one
    another in loops, never one call deeper each. (Azul once started each
    round with nothing to deal inside the last one and failed near round
    250; random play never meets such rounds, so tests/azul has that
    position.)"""
    name, config = tileworks_config
    game = tileworks.load_game(name, **config)
    rng = random.Random(11)
    state = game.new_initial_state()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + 60)
    try:
        while not state.is_terminal():
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    finally:
        sys.setrecursionlimit(limit)


def test_game_api(tileworks_config):
    """The game-level API answers and a new state round-trips through JSON."""
    name, config = tileworks_config
    game = tileworks.load_game(name, **config)
    assert game.num_players() == game.options()["players"]
    assert game.num_distinct_actions() > 0
    assert game.max_chance_outcomes() > 0
    assert game.max_game_length() > 0
    state = game.new_initial_state()
    assert state.history() == []
    assert game.state_from_json(json.dumps(state.to_json())) == state


#: every kind of agent, each at a budget that keeps the check quick
AGENT_SPECS = ("random", "greedy", "mcts:iterations=15,depth=4", "net", "alpha:iterations=15",
               "alpha:iterations=15,batch=4")


def agent_for(spec, game, seed):
    """The agent of ``spec``; a learned one plays the game's own network for
    these options, or an untrained one of the same shape when it ships none
    (what is checked is what the agent reads, not how well it plays)."""
    from tileworks.agents import make

    agent = make(spec, seed=seed)
    if spec.split(":")[0] in ("net", "alpha"):
        from tileworks.agents.learned import shipped_network
        from tileworks.agents.network import Network

        try:
            agent._network = shipped_network(game)
        except ValueError:
            agent._network = Network.untrained(game)
    return agent


def test_no_agent_sees_hidden_information(tileworks_config):
    """At positions through a game, every agent, seeded alike, decides the
    same in two states that differ only in what the mover cannot see
    (``resample_hidden``: another deal of the tiles hidden from it)."""
    name, config = tileworks_config
    game = tileworks.load_game(name, **config)
    rng = random.Random(21)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 4:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        other = state.resample_hidden(seat, random.Random(checked))
        if snapshot(other) == snapshot(state) and checked == 0:
            return  # nothing is hidden from the mover in this game: nothing to check
        for spec in AGENT_SPECS:
            chosen = agent_for(spec, game, checked).step(state)
            assert agent_for(spec, game, checked).step(other) == chosen, f"{spec} chose by what seat {seat} cannot see"
        for _ in range(rng.randrange(1, 12)):  # on through the game
            if state.is_terminal():
                break
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        checked += 1


def test_engines_use_only_the_standard_library(tileworks_game):
    """The rules engine imports and plays with Rich, Typer, NumPy and the
    research libraries unavailable: engines are pure Python."""
    script = (
        "import sys\n"
        "for blocked in ('rich', 'typer', 'pytest', 'hypothesis', 'numpy', 'pyspiel', 'gymnasium', 'pettingzoo'):\n"
        "    sys.modules[blocked] = None\n"
        "import random, tileworks\n"
        "from tileworks.core import sample_chance\n"
        "rng = random.Random(0)\n"
        f"s = tileworks.load_game({tileworks_game!r}).new_initial_state()\n"
        "while not s.is_terminal():\n"
        "    s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))\n"
        "s.observation_string(0); s.to_json()\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "ok", result.stderr
