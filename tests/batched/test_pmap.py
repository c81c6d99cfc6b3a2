"""Every engine runs under ``pmap``: on two CPU devices, each playing two
games, the games come out exactly as the same four games played under
``vmap`` on one device.

JAX fixes its device count when it starts, so the two devices live in a
child process (``--xla_force_host_platform_device_count=2``), which
writes its states to a file that this process compares with its own."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tileworks.jax

GAMES = ["azul", "kiln", "tiles", "tuileries"]
#: four games, as every batched test plays, so that the vmap side reuses
#: the programs the cross-check compiled (make test caches them on disk)
BATCH = 4
STEPS = 2


def fixed_keys():
    """The keys of both sides: init's, and each step's."""
    return jax.random.split(jax.random.PRNGKey(0), BATCH), jax.random.split(jax.random.PRNGKey(1), (STEPS, BATCH))


def play(init, step, keys, step_keys):
    """The same play on both sides: the first legal action of every game,
    keys fixed; every state, after init and after each step."""
    states = [init(keys)]
    for n in range(STEPS):
        action = jnp.argmax(states[-1].legal_action_mask, axis=-1)
        states.append(step(states[-1], action, step_keys[n]))
    return states


CHILD = f"""
import sys
import jax, jax.numpy as jnp, numpy as np
import tileworks.jax
assert jax.local_device_count() == 2, jax.devices()
BATCH, STEPS = {BATCH}, {STEPS}
{inspect.getsource(fixed_keys)}
{inspect.getsource(play)}
def on_devices(batch):
    return batch.reshape(2, BATCH // 2, *batch.shape[1:])
arrays = {{}}
for game in {GAMES!r}:
    env = tileworks.jax.make(game)
    keys, step_keys = fixed_keys()
    states = play(jax.pmap(jax.vmap(env.init)), jax.pmap(jax.vmap(env.step)),
                  on_devices(keys), [on_devices(k) for k in step_keys])
    for n, state in enumerate(states):
        assert len(state.current_player.devices()) == 2
        for path, leaf in jax.tree_util.tree_leaves_with_path(state):
            arrays[f"{{game}}/{{n}}/{{jax.tree_util.keystr(path)}}"] = np.asarray(leaf).reshape(BATCH, *leaf.shape[2:])
np.savez(sys.argv[1], **arrays)
"""


@pytest.fixture(scope="module")
def played_on_two_devices(tmp_path_factory):
    out = tmp_path_factory.mktemp("pmap") / "states.npz"
    environment = dict(os.environ, JAX_PLATFORMS="cpu",
                       XLA_FLAGS=os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2")
    done = subprocess.run([sys.executable, "-c", CHILD, str(out)], env=environment, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as arrays:
        return dict(arrays)


@pytest.mark.parametrize("game", GAMES)
def test_games_played_under_pmap_on_two_devices_equal_the_same_games_under_vmap(game, played_on_two_devices):
    env = tileworks.jax.make(game)
    keys, step_keys = fixed_keys()
    states = play(jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step)), keys, step_keys)
    assert not bool(states[-1].terminated.any())     # two decisions into every game, none over
    for n, state in enumerate(states):
        leaves = jax.tree_util.tree_leaves_with_path(state)
        assert len([key for key in played_on_two_devices if key.startswith(f"{game}/{n}/")]) == len(leaves)
        for path, leaf in leaves:
            field = jax.tree_util.keystr(path)
            np.testing.assert_array_equal(played_on_two_devices[f"{game}/{n}/{field}"], np.asarray(leaf),
                                          err_msg=f"{game}, state {n}, {field}")
