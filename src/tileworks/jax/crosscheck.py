"""Drive a JAX environment and the Python engine through the same games
and compare them at every step.

The JAX engine plays a batch of random games, drawing chance from its keys;
each Python game takes the same actions and, at its chance nodes, the
outcomes the JAX state recorded. After every step both must agree on the
seat to move, the legal actions, the mover's observation, the scores, the
end and the returns.

>>> import tileworks.jax
>>> env = tileworks.jax.make("tuileries", players=3, bonus_tile=True)
>>> report = cross_check(env, games=6, seed=0, batch=4)  # two batches of four, two games unchecked
>>> report.games, report.disagreements
(6, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from tileworks.core import TERMINAL


@dataclass
class Report:
    games: int = 0
    steps: int = 0
    disagreements: list[str] = field(default_factory=list)


def _take_chance(state: Any, outcomes: np.ndarray) -> int:
    """Apply the recorded outcomes at the Python state's chance nodes; how many it took."""
    used = 0
    while state.is_chance_node():
        if used >= len(outcomes) or outcomes[used] < 0:
            raise AssertionError(f"the Python engine wants chance outcome {used + 1}, the JAX step drew {used}")
        state.apply_action(int(outcomes[used]))
        used += 1
    return used


def _compare(python: Any, jax_state: dict[str, np.ndarray], i: int) -> list[str]:
    """How Python state ``python`` and element ``i`` of the fetched JAX batch differ."""
    out = []
    terminated = bool(jax_state["terminated"][i])
    if python.is_terminal() != terminated:
        out.append(f"terminal: python {python.is_terminal()}, jax {terminated}")
        return out
    if terminated:
        returns = np.asarray(python.returns(), dtype=np.float32)
        if not np.allclose(returns, jax_state["rewards"][i]):
            out.append(f"returns: python {returns.tolist()}, jax {jax_state['rewards'][i].tolist()}")
    else:
        if python.current_player() != int(jax_state["current_player"][i]):
            out.append(f"to move: python {python.current_player()}, jax {int(jax_state['current_player'][i])}")
        legal = sorted(python.legal_actions())
        mask = np.flatnonzero(jax_state["legal_action_mask"][i]).tolist()
        if legal != mask:
            out.append(f"legal: python {legal}, jax {mask}")
    seat = int(jax_state["current_player"][i])
    seen = np.asarray(python.observation_tensor(seat), dtype=np.float32)
    if not np.allclose(seen, jax_state["observation"][i], atol=1e-6):
        where = np.flatnonzero(~np.isclose(seen, jax_state["observation"][i], atol=1e-6)).tolist()
        out.append(f"observation of seat {seat} differs at {where[:10]}")
    scores = list(python.scores())
    if scores != jax_state["scores"][i].tolist():
        out.append(f"scores: python {scores}, jax {jax_state['scores'][i].tolist()}")
    return out


def cross_check(env: Any, games: int = 64, seed: int = 0, batch: int | None = None, max_report: int = 20) -> Report:
    """Play ``games`` random games in both engines, ``batch`` at a time, and compare.

    Every batch the JAX engine plays is ``batch`` games, the last one too
    (its games past ``games`` are played but not checked), so the engine
    compiles for one batch size only."""
    batch = batch or games
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    report = Report()
    key = jax.random.PRNGKey(seed)
    rng = np.random.default_rng(seed)
    while report.games < games:
        checked = min(batch, games - report.games)
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))
        pythons = [env.game.new_initial_state() for _ in range(checked)]
        fetched = _fetch(env, state)
        for i, python in enumerate(pythons):
            _take_chance(python, fetched["chance"][i])
        done = np.arange(batch) >= checked
        while True:
            for i in np.flatnonzero(~done):
                problems = _compare(pythons[i], fetched, i)
                if problems:
                    report.disagreements += [f"game {report.games + i}, ply {len(pythons[i].history())}: {p}"
                                             for p in problems]
                    done[i] = True
                elif pythons[i].is_terminal():
                    done[i] = True
            if done.all() or len(report.disagreements) >= max_report:
                break
            actions = np.array([rng.choice(np.flatnonzero(fetched["legal_action_mask"][i])) for i in range(batch)])
            key, sub = jax.random.split(key)
            state = step(state, jnp.asarray(actions, dtype=jnp.int32), jax.random.split(sub, batch))
            fetched = _fetch(env, state)
            for i in np.flatnonzero(~done):
                pythons[i].apply_action(int(actions[i]))
                _take_chance(pythons[i], fetched["chance"][i])
                report.steps += 1
        report.games += checked
        if len(report.disagreements) >= max_report:
            break
    return report


def _fetch(env: Any, state: Any) -> dict[str, np.ndarray]:
    return {name: np.asarray(value) for name, value in jax.device_get({
        "terminated": state.terminated, "rewards": state.rewards, "current_player": state.current_player,
        "legal_action_mask": state.legal_action_mask, "observation": state.observation, "scores": env.scores(state), "chance": state._chance,
    }).items()}
