"""Policy-and-value networks: the one definition that training (JAX, in
:mod:`tileworks.learn`) and play (NumPy, here, so that a player never needs
JAX) both run.

A network reads a seat's observation tensor (the game's
``observation_tensor``) and gives a logit for every action id and a value
in [-1, 1]: the seat's expected result, from a loss (-1) through a shared
or drawn game (0) to a win (1). A network for two seats gives the mover's
value alone (the other seat's is its negation); one for three or more
gives a value for every seat, counted from the mover (``[..., seats]``:
the mover, the next seat, ...), as each seat's result is its own. It is a
residual MLP::

    x = relu(obs @ W_in + b_in)
    x = x + W2 relu(W1 norm(x) + b1) + b2          (for each block)
    x = relu(norm(x))
    logits = x @ W_policy + b_policy
    value = tanh(W_v2 relu(W_v1 x + b_v1) + b_v2)

``forward`` takes the array module (``numpy`` or ``jax.numpy``) as an
argument, so both engines compute the same function with the same names.
A network is saved as a ``.npz`` of its arrays (float16: a few MB at most)
beside a ``.json`` that says what it was trained for and how.

>>> import numpy as np
>>> params = init_params(np.random.default_rng(0), observation_size=4, actions=3, hidden=8, blocks=1)
>>> logits, value = forward(params, np.ones((2, 4), dtype=np.float32), np)
>>> logits.shape, value.shape, bool(np.all(np.abs(value) <= 1))
((2, 3), (2,), True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: a layer norm's guard against a zero variance
EPSILON = 1e-5


def init_params(rng: Any, observation_size: int, actions: int, hidden: int = 256, blocks: int = 2,
                value_hidden: int = 64, seats: int = 2) -> dict[str, np.ndarray]:
    """A new network's arrays (NumPy, float32), He-initialised; ``rng`` is a
    ``numpy.random.Generator``. The policy layer starts at zero: every legal
    action equally likely at first. ``seats``: 2 gives one value (the
    mover's), more give one for each seat."""

    def dense(fan_in: int, fan_out: int, scale: float = 1.0) -> np.ndarray:
        return (rng.standard_normal((fan_in, fan_out)) * scale * np.sqrt(2.0 / fan_in)).astype(np.float32)

    params = {"in/w": dense(observation_size, hidden), "in/b": np.zeros(hidden, np.float32)}
    for i in range(blocks):
        params[f"block{i}/norm/scale"] = np.ones(hidden, np.float32)
        params[f"block{i}/norm/bias"] = np.zeros(hidden, np.float32)
        params[f"block{i}/w1"] = dense(hidden, hidden)
        params[f"block{i}/b1"] = np.zeros(hidden, np.float32)
        params[f"block{i}/w2"] = dense(hidden, hidden, scale=0.1)  # a block starts near the identity
        params[f"block{i}/b2"] = np.zeros(hidden, np.float32)
    params.update({
        "out/norm/scale": np.ones(hidden, np.float32), "out/norm/bias": np.zeros(hidden, np.float32),
        "policy/w": np.zeros((hidden, actions), np.float32), "policy/b": np.zeros(actions, np.float32),
        "value/w1": dense(hidden, value_hidden), "value/b1": np.zeros(value_hidden, np.float32),
        "value/w2": dense(value_hidden, value_outputs(seats), scale=0.1),
        "value/b2": np.zeros(value_outputs(seats), np.float32),
    })
    return params


def value_outputs(seats: int) -> int:
    """How many values a network for ``seats`` seats gives: one for two (zero-sum), else one a seat."""
    return 1 if seats == 2 else seats


def seat_values(value: Any, mover: int, seats: int) -> list[float]:
    """Every seat's value, by seat number, from one position's network value
    for ``mover`` (a number for two seats, a vector counted from the mover
    for more).

    >>> seat_values(0.5, mover=1, seats=2)
    [-0.5, 0.5]
    >>> seat_values(np.array([0.9, -0.2, -0.7]), mover=2, seats=3)
    [-0.2, -0.7, 0.9]
    """
    if seats == 2:
        value = float(value)
        return [value if seat == mover else -value for seat in range(2)]
    return [float(value[(seat - mover) % seats]) for seat in range(seats)]


def blocks_of(params: dict[str, Any]) -> int:
    return sum(1 for name in params if name.endswith("/w1") and name.startswith("block"))


def _norm(x: Any, scale: Any, bias: Any, xp: Any) -> Any:
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / xp.sqrt(variance + EPSILON) * scale + bias


def forward(params: dict[str, Any], observation: Any, xp: Any) -> tuple[Any, Any]:
    """Logits ``[..., actions]`` and values ``[...]`` (two seats) or
    ``[..., seats]`` for observations ``[..., observation_size]``, computed
    with the array module ``xp``."""
    relu = lambda a: xp.maximum(a, 0)  # noqa: E731
    x = relu(observation @ params["in/w"] + params["in/b"])
    for i in range(blocks_of(params)):
        h = _norm(x, params[f"block{i}/norm/scale"], params[f"block{i}/norm/bias"], xp)
        h = relu(h @ params[f"block{i}/w1"] + params[f"block{i}/b1"])
        x = x + h @ params[f"block{i}/w2"] + params[f"block{i}/b2"]
    x = relu(_norm(x, params["out/norm/scale"], params["out/norm/bias"], xp))
    logits = x @ params["policy/w"] + params["policy/b"]
    value = xp.tanh(relu(x @ params["value/w1"] + params["value/b1"]) @ params["value/w2"] + params["value/b2"])
    return logits, value[..., 0] if value.shape[-1] == 1 else value


def masked(logits: Any, legal: Any, xp: Any) -> Any:
    """Logits with every illegal action at the lowest float (it is never chosen)."""
    return xp.where(legal, logits, xp.finfo(logits.dtype).min)


# -- networks on disk ------------------------------------------------------------------------------
@dataclass
class Network:
    """A trained network for one game and option set, ready to play (NumPy)."""

    params: dict[str, np.ndarray]
    #: what it was trained for and how: game, options, training command, seed, steps, wall time...
    about: dict[str, Any] = field(default_factory=dict)

    def evaluate(self, observation: Any) -> tuple[np.ndarray, np.ndarray]:
        """Logits and values for a batch (or one) of observations, in float32."""
        return forward(self.params, np.asarray(observation, dtype=np.float32), np)

    @classmethod
    def load(cls, path: str | Path) -> "Network":
        """A network saved by :meth:`save` (``NAME.npz`` beside ``NAME.json``)."""
        path = Path(path).with_suffix(".npz")
        with np.load(path) as arrays:
            params = {name: arrays[name].astype(np.float32) for name in arrays.files}
        about_path = path.with_suffix(".json")
        about = json.loads(about_path.read_text(encoding="utf-8")) if about_path.exists() else {}
        return cls(params, about)

    def save(self, path: str | Path, dtype: Any = np.float16) -> Path:
        """Write the arrays (``dtype``: float16 halves the size) and ``about``."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{name: np.asarray(value).astype(dtype) for name, value in self.params.items()})
        path.with_suffix(".json").write_text(json.dumps(self.about, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return path

    def size_bytes(self) -> int:
        return sum(a.size * a.itemsize for a in self.params.values())
