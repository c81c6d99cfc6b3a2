"""A training run's report: its learning curves (the losses over the
decisions of self-play, and the network's score against each evaluation
opponent with its 95% interval) as ``report.png``, and ``report.md``
saying what was trained, how long, and where it stands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _rows(out: Path) -> list[dict[str, Any]]:
    """Every line of the run's ``metrics.jsonl``: iterations, evaluations, changes of settings."""
    path = Path(out) / "metrics.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def read_metrics(out: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The run's iterations and its evaluations, from ``metrics.jsonl``."""
    rows = _rows(out)
    return [row for row in rows if "policy_loss" in row], [row for row in rows if "opponent" in row]


def read_sittings(out: Path) -> list[dict[str, Any]]:
    """The changes of self-play settings between sittings, from ``metrics.jsonl``."""
    return [row for row in _rows(out) if "settings" in row]


def trained_on(sittings: list[dict[str, Any]], iteration: int, otherwise: str) -> str:
    """The device that trained ``iteration``, as far as a run's sittings
    say (each names the device it went on with), or ``otherwise``: for a
    checkpoint written before checkpoints named their device.

    >>> sittings = [{"iteration": 920, "device": "NVIDIA H200", "settings": {}, "were": {}},
    ...             {"iteration": 937, "device": "cpu", "settings": {}, "were": {}}]
    >>> trained_on(sittings, 937, "cpu"), trained_on(sittings, 938, "NVIDIA H200"), trained_on(sittings, 12, "cpu")
    ('NVIDIA H200', 'cpu', 'cpu')
    """
    before = [row for row in sittings if row["iteration"] < iteration]
    return before[-1]["device"] if before else otherwise


def anchors(sittings: list[dict[str, Any]], anchor: float) -> list[tuple[int, float]]:
    """Which anchor held from which iteration on, given a run's sittings
    and its ``anchor`` now; a change made before an iteration was played
    replaces the one it follows.

    >>> anchors([], 0.5)
    [(0, 0.5)]
    >>> anchors([{"iteration": 196, "settings": {"games": 2048, "anchor": 0.25},
    ...           "were": {"games": 256, "anchor": 0.5}}], 0.25)
    [(0, 0.5), (196, 0.25)]
    """
    changes = [row for row in sittings if "anchor" in row["settings"]]
    held = {0: changes[0]["were"]["anchor"] if changes else anchor}
    for row in changes:
        held[row["iteration"]] = row["settings"]["anchor"]
    return sorted(held.items())


def describe_anchors(sittings: list[dict[str, Any]], anchor: float) -> str:
    """:func:`anchors` in words, or "" for a run never anchored.

    >>> describe_anchors([{"iteration": 196, "settings": {"anchor": 0.25}, "were": {"anchor": 0.5}}], 0.25)
    'anchor 0.5; 0.25 from iteration 196'
    >>> describe_anchors([], 0.0)
    ''
    """
    held = anchors(sittings, anchor)
    if not any(value for _, value in held):
        return ""
    return "; ".join([f"anchor {held[0][1]:g}", *(f"{value:g} from iteration {it}" for it, value in held[1:])])


def _changed(settings: dict[str, Any]) -> str:
    """The anchor and the search's simulations among a sitting's ``settings``, where they changed."""
    return "".join([*([f", anchor {settings['anchor']:g}"] if "anchor" in settings else []),
                    *([f", {settings['simulations']} simulations a decision"] if "simulations" in settings else [])])


def _sitting(row: dict[str, Any]) -> str:
    """One change of settings as the report lists it.

    >>> _sitting({"iteration": 537, "device": "NVIDIA H200", "settings": {"games": 2048, "steps": 32,
    ...           "simulations": 64}, "were": {"games": 2048, "steps": 32, "simulations": 16}})
    '- from iteration 537 on NVIDIA H200: 2048 games side by side, 32 decisions each an iteration, 64 simulations a decision (were 2048 and 32, 16 simulations a decision)'
    """
    now, were = row["settings"], row["were"]
    return (f"- from iteration {row['iteration']} on {row['device']}: {now['games']} games side by side, "
            f"{now['steps']} decisions each an iteration{_changed(now)} "
            f"(were {were['games']} and {were['steps']}{_changed(were)})")


def _imitation(row: dict[str, Any]) -> str:
    """The report's line on a run's start by imitation (a run started before
    2026-12-07 kept its last pass and judged none on held-out games)."""
    line = (f"- started by imitation of {row['teacher']}: {row['decisions']:,} decisions of {row['games']:,} "
            f"games, {row['epochs']} passes")
    if "kept" in row:
        unseen = row["held_out"]
        line += (f", kept pass {row['kept']}: policy loss {row['policy_loss']:.3f}, value loss {row['value_loss']:.3f}; "
                 f"on {unseen['games']:,} games it did not learn from, {row['held_out_policy_loss']:.3f} and "
                 f"{row['held_out_value_loss']:.3f} (the value's, pass by pass: "
                 f"{' '.join(format(part['held_out_value_loss'], '.3f') for part in row['passes'])})")
    else:
        line += f", last policy loss {row['policy_loss']:.3f}, value loss {row['value_loss']:.3f}"
    return line + f" ({row['seconds'] / 60:.1f} min)"


def read_standardised(out: Path) -> dict[str, Any] | None:
    """Where a run's numbers off the board were standardised after it had
    begun (``Trainer.standardise``), if they were."""
    return next((row for row in _rows(out) if "standardised" in row), None)


def describe_standardised(row: dict[str, Any] | None) -> str:
    """:func:`read_standardised` in words, or "".

    >>> describe_standardised({"iteration": 45, "standardised": {"teacher": "greedy", "decisions": 128000}})
    'its numbers off the board standardised at iteration 45, on 128,000 decisions of greedy, its outputs kept'
    """
    if not row:
        return ""
    measured = row["standardised"]
    return (f"its numbers off the board standardised at iteration {row['iteration']}, on "
            f"{measured['decisions']:,} decisions of {measured['teacher']}, its outputs kept")


def read_imitation(out: Path) -> dict[str, Any] | None:
    """How the run's start by imitation went, if it had one (``tileworks.learn.imitate``)."""
    return next((row["imitation"] for row in _rows(out) if "imitation" in row), None)


def write_report(out: str | Path) -> Path:
    """Draw the curves and write the summary; the figure's path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    iterations, evaluations = read_metrics(out)
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    figure, (losses, scores) = plt.subplots(1, 2, figsize=(11, 4.2))
    if iterations:
        decisions = [row["decisions"] for row in iterations]
        losses.plot(decisions, [row["policy_loss"] for row in iterations], label="policy (cross-entropy)")
        losses.plot(decisions, [row["value_loss"] for row in iterations], label="value (squared error)")
    losses.set_xlabel("self-play decisions")
    losses.set_ylabel("loss")
    losses.set_title("Losses")
    losses.legend()
    by_iteration = {row["iteration"]: row["decisions"] for row in iterations}
    for opponent in sorted({row["opponent"] for row in evaluations}):
        rows = [row for row in evaluations if row["opponent"] == opponent and row["iteration"] in by_iteration]
        x = [by_iteration[row["iteration"]] for row in rows]
        scores.plot(x, [row["score"] for row in rows], marker="o", label=f"against {opponent}")
        scores.fill_between(x, [row["low"] for row in rows], [row["high"] for row in rows], alpha=0.15)
    even = 1 / config["options"].get("players", 2)  # an even match: the network against the rest of the table
    scores.axhline(even, color="grey", linewidth=0.8, linestyle="--")
    scores.set_ylim(0, 1)
    scores.set_xlabel("self-play decisions")
    scores.set_ylabel("score of the network alone (net), 95% interval")
    scores.set_title("Strength")
    if evaluations:
        scores.legend()
    figure.suptitle(f"{config['game']} {json.dumps(config['options'], sort_keys=True)}: Gumbel AlphaZero self-play")
    figure.tight_layout()
    picture = out / "report.png"
    figure.savefig(picture, dpi=110)
    plt.close(figure)
    last = iterations[-1] if iterations else {}
    anchored = describe_anchors(read_sittings(out), config.get("anchor", 0.0))
    lines = [f"# Training {config['game']} ({json.dumps(config['options'], sort_keys=True)})", "",
             f"- iterations: {last.get('iteration', 0)} of {config['iterations']}; self-play decisions: "
             f"{last.get('decisions', 0):,}; games finished: {last.get('games', 0):,}; "
             f"training time: {last.get('seconds', 0.0) / 60:.1f} min",
             f"- settings: {json.dumps(config, sort_keys=True)}",
             *(_imitation(row) for row in [read_imitation(out)] if row),
             *([f"- anchored to the imitated decisions ({anchored}): each iteration also learns from the "
                f"anchor times as many of them as it played itself"] if anchored else []),
             *([f"- {standardised}"] if (standardised := describe_standardised(read_standardised(out))) else []),
             *(_sitting(row) for row in read_sittings(out)),
             f"- last losses: policy {last.get('policy_loss', float('nan')):.3f}, "
             f"value {last.get('value_loss', float('nan')):.3f}",
             f"- score: the network alone (net) in one seat, the opponent in every other seat "
             f"(an even match scores {even:.2f}); a win 1, a shared win 1/k", "",
             "| iteration | opponent | games | score | 95% |",
             "|---:|---|---:|---:|---|"]
    lines += [f"| {row['iteration']} | {row['opponent']} | {row['games']} | {row['score']:.3f} | "
              f"{row['low']:.3f}–{row['high']:.3f} |" for row in evaluations]
    lines += ["", "![learning curves](report.png)", ""]
    (out / "report.md").write_text("\n".join(lines), encoding="utf-8")
    return picture
