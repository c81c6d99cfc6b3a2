"""Train a small policy/value network for a 2-player game (Azul by
default; KILN, Tiles or Tuileries with ``--game``) by batched self-play on
tileworks' JAX engine (PPO), and watch its win rate against the ``random``
and ``greedy`` computer players go up.

    python examples/selfplay.py                          # Azul: a few minutes on a laptop CPU
    python examples/selfplay.py --iterations 300 --games 1024
    python examples/selfplay.py --game kiln
    python examples/selfplay.py --game tiles --games 64 --steps 16 --hidden 64   # 212,089 actions: keep it small on a CPU

One network plays both seats. Every iteration it plays ``--games`` games at
once for ``--steps`` decisions (a finished game starts again), then takes
a few PPO passes over what it saw. A seat's reward is the change in its
lead in points after each of its decisions, scaled down, and +1 or -1 when
the game ends, so the network learns to score and to win.

Evaluation, every ``--every`` iterations: ``--eval-games`` games against a
uniformly random player on the JAX engine (batched), and ``--eval-games``
games against tileworks' ``greedy`` player on the Python engine, the
network choosing from the Python engine's own observation tensor and legal
actions (the two engines share both), half of them with the network
seated first. Needs ``pip install 'tileworks[jax]'``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

import tileworks
import tileworks.jax
from tileworks.agents import make as make_agent
from tileworks.core import sample_chance
from tileworks.core.registry import game_info


class Batch(NamedTuple):
    observation: Any  # [T, B, D]
    mask: Any  # [T, B, A]
    action: Any  # [T, B]
    log_prob: Any  # [T, B]
    value: Any  # [T, B]
    target: Any  # [T, B]: the mover's return from here


# -- the network: an MLP with a policy head and a value head --------------------------------------

def init_network(key: Any, inputs: int, actions: int, hidden: int) -> dict[str, Any]:
    sizes = [(inputs, hidden), (hidden, hidden), (hidden, actions), (hidden, 1)]
    keys = jax.random.split(key, len(sizes))
    params = {}
    for name, (fan_in, fan_out), k in zip(("h1", "h2", "policy", "value"), sizes, keys, strict=True):
        scale = 0.01 if name == "policy" else jnp.sqrt(2.0 / fan_in)
        params[name] = {"w": jax.random.normal(k, (fan_in, fan_out)) * scale, "b": jnp.zeros(fan_out)}
    return params


def forward(params: dict[str, Any], observation: Any, mask: Any) -> tuple[Any, Any]:
    """Masked action logits and the mover's value, in [-1, 1]."""
    x = jax.nn.relu(observation @ params["h1"]["w"] + params["h1"]["b"])
    x = jax.nn.relu(x @ params["h2"]["w"] + params["h2"]["b"])
    logits = x @ params["policy"]["w"] + params["policy"]["b"]
    value = jnp.tanh(x @ params["value"]["w"] + params["value"]["b"])[..., 0]
    return jnp.where(mask, logits, -1e9), value


# -- self-play ------------------------------------------------------------------------------------

def make_rollout(env: Any, games: int, steps: int, shaping: float, gamma: float):
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)

    def lead(state: Any) -> Any:  # seat 0's lead over seat 1, in points as the game counts them
        points = env.scores(state)
        return (points[:, 0] - points[:, 1]).astype(jnp.float32)

    def one(carry: Any, _: Any) -> Any:
        params, state, key = carry
        key, pick, chance, fresh = jax.random.split(key, 4)
        logits, value = forward(params, state.observation, state.legal_action_mask)
        action = jax.random.categorical(pick, logits)
        log_prob = jax.nn.log_softmax(logits)[jnp.arange(games), action]
        after = step(state, action, jax.random.split(chance, games))
        done = after.terminated
        # seat 0's reward; seat 1's is its opposite
        gained = jnp.where(done, 0.0, lead(after) - lead(state)) * shaping
        reward = gained + jnp.where(done, after.rewards[:, 0] - after.rewards[:, 1], 0.0)
        restarted = init(jax.random.split(fresh, games))
        state = jax.tree_util.tree_map(lambda a, b: jnp.where(done.reshape((-1,) + (1,) * (a.ndim - 1)), a, b),
                                       restarted, after)
        seen = (state.observation, state.legal_action_mask)
        return (params, state, key), (seen, action, log_prob, value, state.current_player, reward, done)

    @jax.jit
    def rollout(params: Any, state: Any, key: Any) -> tuple[Any, Batch, Any]:
        first = (state.observation, state.legal_action_mask, state.current_player)
        (_, state, key), (seen, action, log_prob, value, next_mover, reward, done) = jax.lax.scan(
            one, (params, state, key), None, length=steps)
        observation = jnp.concatenate([first[0][None], seen[0][:-1]])
        mask = jnp.concatenate([first[1][None], seen[1][:-1]])
        mover = jnp.concatenate([first[2][None], next_mover[:-1]])
        _, last_value = forward(params, state.observation, state.legal_action_mask)
        # seat 0's return, bootstrapped from the value of where the rollout stops
        tail = jnp.where(state.current_player == 0, last_value, -last_value)

        def back(following: Any, x: Any) -> Any:
            r, d = x
            g = r + gamma * jnp.where(d, 0.0, following)
            return g, g

        _, seat0 = jax.lax.scan(back, tail, (reward, done), reverse=True)
        target = jnp.where(mover == 0, seat0, -seat0)
        return state, Batch(observation, mask, action, log_prob, value, target), key

    return init, rollout


def make_update(optimizer: Any, epochs: int, minibatches: int, clip: float, entropy: float):
    def loss(params: Any, batch: Batch) -> Any:
        logits, value = forward(params, batch.observation, batch.mask)
        log_probs = jax.nn.log_softmax(logits)
        log_prob = jnp.take_along_axis(log_probs, batch.action[:, None], axis=1)[:, 0]
        advantage = batch.target - batch.value
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        ratio = jnp.exp(log_prob - batch.log_prob)
        policy = -jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - clip, 1 + clip) * advantage).mean()
        probs = jnp.exp(log_probs)
        spread = -(jnp.where(batch.mask, probs * log_probs, 0.0)).sum(axis=1).mean()
        return policy + 0.5 * ((value - batch.target) ** 2).mean() - entropy * spread

    @jax.jit
    def update(params: Any, opt_state: Any, batch: Batch, key: Any) -> tuple[Any, Any, Any]:
        flat = jax.tree_util.tree_map(lambda x: x.reshape((-1,) + x.shape[2:]), batch)
        size = flat.action.shape[0]

        def epoch(carry: Any, k: Any) -> Any:
            params, opt_state = carry
            order = jax.random.permutation(k, size).reshape(minibatches, -1)

            def minibatch(carry: Any, index: Any) -> Any:
                params, opt_state = carry
                part = jax.tree_util.tree_map(lambda x: x[index], flat)
                value, grads = jax.value_and_grad(loss)(params, part)
                updates, opt_state = optimizer.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), value

            (params, opt_state), losses = jax.lax.scan(minibatch, (params, opt_state), order)
            return (params, opt_state), losses.mean()

        (params, opt_state), losses = jax.lax.scan(epoch, (params, opt_state), jax.random.split(key, epochs))
        return params, opt_state, losses.mean()

    return update


# -- evaluation -----------------------------------------------------------------------------------

def make_versus_random(env: Any, games: int):
    """The network's share of wins (a tie counts a half) against a uniformly
    random player, seated first in half the games; the network takes its most
    likely action."""
    init, step = jax.vmap(env.init), jax.vmap(env.step)
    seat = jnp.arange(games) % 2

    @jax.jit
    def play(params: Any, key: Any) -> Any:
        key, start = jax.random.split(key)
        state = init(jax.random.split(start, games))

        def turn(carry: Any) -> Any:
            state, won, key = carry
            key, pick, chance = jax.random.split(key, 3)
            logits, _ = forward(params, state.observation, state.legal_action_mask)
            uniform = jnp.log(state.legal_action_mask.astype(jnp.float32))
            chosen = jnp.where(state.current_player == seat, jnp.argmax(logits, axis=1),
                               jax.random.categorical(pick, uniform))
            state = step(state, chosen, jax.random.split(chance, games))
            return state, won + state.rewards[jnp.arange(games), seat], key  # rewards come once, at the end

        _, won, _ = jax.lax.while_loop(lambda c: ~c[0].terminated.all(), turn, (state, jnp.zeros(games), key))
        return won.mean()

    return play


def versus_greedy(params: Any, game: Any, games: int, seed: int) -> float:
    """The network's share of wins against ``greedy``, on the Python engine."""
    choose = jax.jit(lambda p, o, m: jnp.argmax(forward(p, o, m)[0]))
    chance_rng = random.Random(seed)
    total = 0.0
    for index in range(games):
        greedy = make_agent("greedy", seed=seed + index)
        mine = index % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, chance_rng))
            elif state.current_player() == mine:
                mask = np.zeros(game.num_distinct_actions(), dtype=bool)
                mask[state.legal_actions()] = True
                observation = np.asarray(state.observation_tensor(mine), dtype=np.float32)
                state.apply_action(int(choose(params, observation, mask)))
            else:
                state.apply_action(greedy.step(state))
        total += state.returns()[mine]
    return total / games


# -- the run ----------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="azul", choices=tileworks.jax.batched_games(),
                        help="any installed game with a batched engine")
    parser.add_argument("--iterations", type=int, default=120)
    parser.add_argument("--games", type=int, default=512, help="games played at once")
    parser.add_argument("--steps", type=int, default=32, help="decisions per game per iteration")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--every", type=int, default=20, help="evaluate every this many iterations")
    parser.add_argument("--eval-games", type=int, default=200, help="0: train without evaluating")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = tileworks.jax.make(args.game, players=2)
    game = tileworks.load_game(args.game, players=2)
    key = jax.random.PRNGKey(args.seed)
    key, net_key, start = jax.random.split(key, 3)
    params = init_network(net_key, game.observation_tensor_size(), env.num_actions, args.hidden)
    optimizer = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(args.lr))
    opt_state = optimizer.init(params)
    init, rollout = make_rollout(env, args.games, args.steps, shaping=0.02, gamma=0.99)
    update = make_update(optimizer, epochs=3, minibatches=4, clip=0.2, entropy=0.01)
    versus_random = make_versus_random(env, args.eval_games)
    state = jax.jit(init)(jax.random.split(start, args.games))

    print(f"{game_info(args.game).title} 2p self-play: {args.games} games at once, {args.steps} decisions each per iteration, "
          f"on {jax.devices()[0].platform.upper()}")
    print(f"{'iteration':>9} {'decisions':>11} {'seconds':>8} {'loss':>7} {'vs random':>10} {'vs greedy':>10}")
    history = []
    started = time.perf_counter()
    loss = float("nan")
    for iteration in range(args.iterations + 1):
        if iteration % args.every == 0 or iteration == args.iterations:
            key, eval_key = jax.random.split(key)
            row = {"iteration": iteration, "decisions": iteration * args.games * args.steps,
                   "seconds": time.perf_counter() - started, "loss": loss,
                   "vs_random": float(versus_random(params, eval_key)) if args.eval_games else float("nan"),
                   "vs_greedy": versus_greedy(params, game, args.eval_games, args.seed + iteration)
                   if args.eval_games else float("nan")}
            history.append(row)
            print(f"{iteration:>9} {row['decisions']:>11,} {row['seconds']:>8.0f} {loss:>7.3f} "
                  f"{row['vs_random']:>10.1%} {row['vs_greedy']:>10.1%}", flush=True)
        if iteration == args.iterations:
            break
        state, batch, key = rollout(params, state, key)
        key, update_key = jax.random.split(key)
        params, opt_state, loss = update(params, opt_state, batch, update_key)
        loss = float(loss)
    return {"history": history, "params": params}


if __name__ == "__main__":
    main()
