"""Every JAX engine the shipped games declare, against its Python engine:
the checks every batched engine passes (:mod:`tileworks.testing.batched`:
random games compared step for step, Pgx's own API test, an illegal action,
a Python game replayed with its chance imposed, states passed between the
engines, a game that loads without JAX), on each game's declared option
sets; and what the shipped games refuse. Small sizes; bench/bench_jax.py
runs the full cross-check."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

import tileworks.jax
from tileworks.testing.batched import *  # noqa: F403

#: the games tileworks ships (a plugin's engine runs the same checks in its own tests)
TILEWORKS_GAMES = ["azul", "kiln", "tiles", "tuileries"]


def test_the_generic_package_finds_every_engine_through_the_registry():
    assert set(TILEWORKS_GAMES) <= set(tileworks.jax.batched_games())
    for game in TILEWORKS_GAMES:
        assert type(tileworks.jax.make(game)).__module__ == f"tileworks.games.{game}.batched"


def test_step_without_a_key_unknown_games_and_options_are_refused_by_name():
    env = tileworks.jax.make("azul")
    with pytest.raises(ValueError, match="PRNG key"):
        env.step(jax.eval_shape(env.init, jax.random.PRNGKey(0)), jnp.int32(0))  # (refused before the state is read)
    with pytest.raises(ValueError, match="no JAX engine for 'chess' \\(no such game\\); the games with one: azul, "):
        tileworks.jax.make("chess")
    with pytest.raises(ValueError, match="unknown option 'colour' for azul"):
        tileworks.jax.make("azul", colour="red")
    with pytest.raises(ValueError, match="players"):
        tileworks.jax.make("azul", players=5)
    with pytest.raises(ValueError, match="share a side"):
        tileworks.jax.make("tuileries", circles="c3,d3,c6,f6")
    with pytest.raises(ValueError, match="too small"):
        tileworks.jax.make("tiles", tile_set="wwww,gggg")
    with pytest.raises(ValueError, match="the advanced variant is for 2 players"):
        tileworks.jax.make("kiln", players=3, variant="advanced")
