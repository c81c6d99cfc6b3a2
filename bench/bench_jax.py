"""Batched random play on JAX: steps/s for tileworks' JAX engines at several
batch sizes, beside the Python engine and Pgx's own backgammon on the same
device in the same run; compile time and memory per environment; and, with
--check N, the full cross-check against the Python engine.

Usage:
  python bench/bench_jax.py [GAME ...] [--batches 1 64 1024 16384 65536] [--seconds S] [-o KEY=VALUE ...]
  python bench/bench_jax.py azul --check 10000       # 0 disagreements expected
  python bench/bench_jax.py tuileries --api-test -o players=5   # Pgx's own API test

A step is one decision of a seat, with the chance that follows it (the
bag's draws) done inside the step. Finished games restart at once
(pgx.experimental.auto_reset). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import random
import sys
import time

import jax
import jax.numpy as jnp
import pgx
from pgx.experimental import auto_reset

sys.path.insert(0, os.path.dirname(__file__))
from bench_random_play import cpu_model  # noqa: E402

import tileworks  # noqa: E402
import tileworks.jax  # noqa: E402
from tileworks.jax.core import running_total  # noqa: E402
from tileworks.jax.crosscheck import cross_check  # noqa: E402


def device_name() -> str:
    device = jax.devices()[0]
    return f"{device.platform.upper()} {getattr(device, 'device_kind', '')} ({cpu_model()})" \
        if device.platform == "cpu" else f"{device.platform.upper()} {device.device_kind}"


def state_bytes(state) -> int:
    """Bytes of a state, or of its shapes (``jax.eval_shape``)."""
    return sum(math.prod(leaf.shape) * leaf.dtype.itemsize for leaf in jax.tree_util.tree_leaves(state))


def uniform_legal(key, mask):
    """A uniformly random legal action per game, from one random number each:
    the k-th legal action, found block by block (``jax.random.categorical``
    draws a number per action: with Tuileries' 4,096 actions, on a CPU,
    that costs twenty times the step itself)."""
    actions = mask.shape[-1]
    block = 64
    # whole blocks read in place, the short last block padded on its own:
    # padding the whole mask would copy it (Tiles: 212,089 actions a game)
    whole = actions // block
    blocks = mask[..., :whole * block].reshape(mask.shape[:-1] + (whole, block))
    last = jnp.pad(mask[..., whole * block:], [(0, 0)] * (mask.ndim - 1) + [(0, block - actions % block)])[..., None, :]
    # a block's 64 flags read as 16 words of four bytes: the words' sum holds
    # four byte counts (each at most 16), and one multiply adds them up; XLA's
    # CPU backend sums 64 booleans several times slower
    words = jax.lax.bitcast_convert_type(blocks.view(jnp.uint8).reshape(blocks.shape[:-1] + (16, 4)), jnp.uint32)
    counts = (words.sum(axis=-1, dtype=jnp.uint32) * jnp.uint32(0x01010101)) >> 24
    per_block = jnp.concatenate([counts.astype(jnp.int32), last.astype(jnp.int32).sum(axis=-1)], axis=-1)
    count = per_block.sum(axis=-1)
    k = jax.random.randint(key, count.shape, 0, jnp.maximum(count, 1))
    before = running_total(per_block)
    which = jnp.argmax(before > k[..., None], axis=-1)
    rest = k - jnp.take_along_axis(before - per_block, which[..., None], axis=-1)[..., 0]
    inside = last[..., 0, :]
    if whole:
        chosen = jnp.take_along_axis(blocks, jnp.minimum(which, whole - 1)[..., None, None], axis=-2)[..., 0, :]
        inside = jnp.where((which == whole)[..., None], inside, chosen)
    return which * block + jnp.argmax(running_total(inside.astype(jnp.int32)) > rest[..., None], axis=-1)


def batched_random_play(env, batch: int, seconds: float):
    """(steps/s, compile seconds, bytes per environment) of random play at ``batch``."""
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    def one(carry, _):
        state, key = carry
        key, pick, chance = jax.random.split(key, 3)
        state = step(state, uniform_legal(pick, state.legal_action_mask), jax.random.split(chance, batch))
        return (state, key), None

    chunk = max(4, min(256, 2_000_000 // (batch * 64)))

    @jax.jit
    def run(state, key):
        (state, key), _ = jax.lax.scan(one, (state, key), None, length=chunk)
        return state, key

    started = time.perf_counter()
    state = init(jax.random.split(jax.random.PRNGKey(0), batch))
    state, key = run(state, jax.random.PRNGKey(1))
    jax.block_until_ready(state)
    compiled = time.perf_counter() - started
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        state, key = run(state, key)
        jax.block_until_ready(state)
        steps += chunk * batch
    return steps / (time.perf_counter() - started), compiled, state_bytes(state) // batch


#: copies of the batch a scanned, auto-reset step may hold at once (the
#: state, its reset, its successor and their temporaries), with a margin:
#: Tiles at batch 1,024 (411 MB of states) peaked at 2.5 GB resident
LIVE_COPIES = 8


def memory_available() -> int:
    """Bytes free on the device: its memory limit less what is in use, or
    the host's available memory on a CPU."""
    stats = jax.devices()[0].memory_stats() or {}
    if "bytes_limit" in stats:
        return stats["bytes_limit"] - stats.get("bytes_in_use", 0)
    with open("/proc/meminfo") as info:
        fields = dict(line.split(":", 1) for line in info)
    return int(fields["MemAvailable"].split()[0]) * 1024


def python_random_play(game, seconds: float) -> float:
    """Decisions per second of the Python engine (its chance nodes included in the time)."""
    rng = random.Random(0)
    decisions, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(tileworks.core.sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=["azul"])
    parser.add_argument("--batches", nargs="+", type=int, default=[1, 64, 1024, 16384, 65536])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE game option")
    parser.add_argument("--check", type=int, default=0, help="cross-check this many games instead")
    parser.add_argument("--no-reference", action="store_true", help="skip Pgx's backgammon")
    parser.add_argument("--api-test", action="store_true", help="run Pgx's own API test instead")
    args = parser.parse_args()
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = value  # as on the command line: each option reads its own text
    print(f"# {datetime.date.today()}  {device_name()}  jax {jax.__version__}  pgx {pgx.__version__}  "
          f"python {platform.python_version()}")
    for name in args.games:
        env = tileworks.jax.make(name, **options)
        label = f"{name} {env.game.options()}"
        if args.api_test:
            started = time.perf_counter()
            with tileworks.jax.pgx_api_test_fixed():
                pgx.api_test(env, num=3)
            print(f"{label}: Pgx's api_test passed ({time.perf_counter() - started:.0f} s)")
            continue
        if args.check:
            started = time.perf_counter()
            report = cross_check(env, games=args.check, seed=2026, batch=min(args.check, 1000))
            print(f"{label}: cross-check of {report.games} games, {report.steps} steps: "
                  f"{len(report.disagreements)} disagreements ({time.perf_counter() - started:.0f} s)")
            for line in report.disagreements[:10]:
                print("  ", line)
            continue
        python = python_random_play(env.game, args.seconds)
        print(f"{label}: Python engine {python:,.0f} steps/s (one core)")
        size = state_bytes(jax.eval_shape(env.init, jax.random.PRNGKey(0)))
        for batch in args.batches:
            if batch * size * LIVE_COPIES > memory_available():
                print(f"  batch {batch:>6}: skipped, {size:,} bytes/env would need about "
                      f"{batch * size * LIVE_COPIES / 2**30:.0f} GiB here")
                continue
            rate, compiled, size = batched_random_play(env, batch, args.seconds)
            print(f"  batch {batch:>6}: {rate:>14,.0f} steps/s  ({rate / python:6.1f}x Python)  "
                  f"compile {compiled:5.1f} s  {size:,} bytes/env")
    if not args.check and not args.api_test and not args.no_reference:
        reference = pgx.make("backgammon")
        print("pgx backgammon (reference):")
        for batch in args.batches:
            rate, compiled, size = batched_random_play(reference, batch, args.seconds)
            print(f"  batch {batch:>6}: {rate:>14,.0f} steps/s  compile {compiled:5.1f} s  {size:,} bytes/env")


if __name__ == "__main__":
    main()
