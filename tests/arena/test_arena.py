"""The arena: rotation, statistics, records, resuming, and the command."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from typer.testing import CliRunner

import tileworks
from tileworks.agents import make
from tileworks.arena import (ArenaConfig, ledger_path, paired, read_ledger, record_path, run, seating, standing,
                             wilson)
from tileworks.cli.main import app
from tileworks.core.records import load_record


def config(tmp_path, **kw):
    base = dict(game="kiln", agents=["greedy", "random"], games=6, out=tmp_path / "run", seed=3,
                options={"goal": 8})
    base.update(kw)
    return ArenaConfig(**base)


def test_seats_rotate_so_each_agent_plays_each_seat_equally(tmp_path):
    cfg = config(tmp_path, agents=["greedy", "random", "mcts:beginner"], options={})
    seats = [seating(cfg, i) for i in range(3)]
    assert seats == [["greedy", "random", "mcts:beginner"], ["random", "mcts:beginner", "greedy"],
                     ["mcts:beginner", "greedy", "random"]]


def test_a_run_saves_every_record_and_a_summary(tmp_path):
    cfg = config(tmp_path, workers=2)
    summary = run(cfg)
    assert summary["games"] == 6 and summary["played"] == 6 and summary["resumed"] == 0
    for i in range(6):
        record = load_record(record_path(cfg.out, i))
        assert record.players == seating(cfg, i) and record.final_state().is_terminal()
    saved = json.loads((cfg.out / "summary.json").read_text())
    assert saved["agents"] == summary["agents"]
    greedy, rand = summary["agents"]
    assert greedy["agent"] == "greedy" and greedy["games"] == 6
    assert greedy["wins"] + rand["wins"] == pytest.approx(6)
    assert greedy["win_rate_95"][0] <= greedy["win_rate"] <= greedy["win_rate_95"][1]
    assert set(greedy["seat_win_rates"]) == {"1", "2"}
    assert greedy["rating"]["mu"] > rand["rating"]["mu"]  # greedy wins nearly every game
    assert summary["mean_decisions"] > 0


def test_a_run_is_reproducible_from_its_seed(tmp_path):
    def results(summary):  # all but the time each took, the one part that depends on the machine
        return [{key: value for key, value in agent.items() if key != "seconds_a_move"} for agent in summary["agents"]]

    first = run(config(tmp_path, out=tmp_path / "a"))
    second = run(config(tmp_path, out=tmp_path / "b"))
    assert results(first) == results(second)


def test_an_interrupted_run_resumes_without_replaying_finished_games(tmp_path):
    cfg = config(tmp_path)
    run(cfg)
    kept = record_path(cfg.out, 0).read_text()
    ledger = ledger_path(cfg.out)
    lines = [line for line in ledger.read_text().splitlines() if json.loads(line)["index"] < 4]
    lines.append('{"game": "kiln", "index": 5}')  # a line without its result
    ledger.write_text("\n".join(lines) + '\n{"game": "kiln", "ind')  # killed while writing game 4's line
    record_path(cfg.out, 4).unlink()          # never finished
    record_path(cfg.out, 5).write_text("{")   # cut off while writing
    summary = run(cfg)
    assert summary["resumed"] == 4 and summary["played"] == 2 and summary["games"] == 6
    assert record_path(cfg.out, 0).read_text() == kept
    assert sorted(line["index"] for line in read_ledger(cfg.out)) == list(range(6))


def test_the_ledger_alone_resumes_a_run_whose_records_are_elsewhere(tmp_path):
    """A long run's ledger is kept under version control, its records are not:
    a fresh checkout goes on from the ledger."""
    cfg = config(tmp_path)
    first = run(cfg)
    lines = read_ledger(cfg.out)
    assert [(line["game"], line["options"], line["seed"]) for line in lines] == [("kiln", {"goal": 8, "players": 2}, 3)] * 6
    assert sorted((line["index"], line["seats"]) for line in lines) == [(i, seating(cfg, i)) for i in range(6)]
    shutil.rmtree(cfg.out / "games")
    again = run(cfg)
    assert again["resumed"] == 6 and again["played"] == 0 and again["agents"] == first["agents"]


def test_records_saved_before_the_ledger_existed_are_written_into_it(tmp_path):
    cfg = config(tmp_path)
    run(cfg)
    ledger_path(cfg.out).unlink()
    summary = run(cfg)
    assert summary["resumed"] == 6 and summary["played"] == 0
    assert sorted(line["index"] for line in read_ledger(cfg.out)) == list(range(6))


@pytest.mark.parametrize("other, named", [
    ({"seed": 4}, 'seed 3, seats ["greedy", "random"]), '
                  'not this run\'s (game "kiln", options {"goal": 8, "players": 2}, seed 4'),
    ({"agents": ["random", "greedy"]}, 'seats ["greedy", "random"]), not this run\'s ('),
    ({"options": {"goal": 9}}, 'options {"goal": 8, "players": 2}'),
])
def test_a_folder_holding_another_runs_games_is_refused_and_left_as_it_is(tmp_path, other, named):
    run(config(tmp_path))
    before = ledger_path(tmp_path / "run").read_text()
    with pytest.raises(ValueError, match=re.escape(named)):
        run(config(tmp_path, **other))
    assert ledger_path(tmp_path / "run").read_text() == before


def test_a_learned_agents_network_is_noted_and_a_run_played_with_another_is_refused(tmp_path):
    """A shipped network or its settings may change between sessions of a
    long run, leaving the same spec another agent: the ledger notes what
    each game was played with, and a resumed run with something else is
    refused before it plays; lines noted before this was noted are taken."""
    cfg = config(tmp_path, agents=["net", "random"], games=2, options={})
    now = {"net": make("net").plays_with(tileworks.load_game("kiln"))}
    assert now["net"].startswith("network ")
    summary = run(cfg)
    assert summary["played_with"] == now
    ledger = ledger_path(cfg.out)
    assert [line["played_with"] for line in read_ledger(cfg.out)] == [now, now]
    shutil.rmtree(cfg.out / "games")
    earlier = [{**line, "played_with": {"net": "network 0123456789ab"}} for line in read_ledger(cfg.out)]
    ledger.write_text("".join(json.dumps(line) + "\n" for line in earlier))
    before = ledger.read_text()
    with pytest.raises(ValueError, match=re.escape(f"holds game 0 played with net: network 0123456789ab, but this "
                                                   f"run's agents play with net: {now['net']}: a network or its settings "
                                                   "changed since")):
        run(config(tmp_path, agents=["net", "random"], games=3, options={}))
    assert ledger.read_text() == before and not (cfg.out / "games").exists()
    ledger.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "played_with"}) + "\n"
                              for line in earlier))
    resumed = run(config(tmp_path, agents=["net", "random"], games=3, options={}))
    assert (resumed["resumed"], resumed["played"]) == (2, 1)
    assert [line.get("played_with") for line in read_ledger(cfg.out)] == [None, None, now]


def test_the_standing_of_games_played_with_two_networks_says_so(tmp_path):
    cfg = config(tmp_path, agents=["net", "random"], games=2, options={})
    run(cfg)
    now = read_ledger(cfg.out)[0]["played_with"]
    assert standing(cfg.out)["played_with"] == now
    first, second = read_ledger(cfg.out)
    second["played_with"] = {"net": "network 0123456789ab"}
    ledger_path(cfg.out).write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    with pytest.raises(ValueError, match=re.escape(f"game {second['index']} was played with net: network "
                                                   f"0123456789ab, game {first['index']} with net: {now['net']}")):
        standing(cfg.out)


@pytest.mark.parametrize("kw, message", [
    ({"agents": ["greedy"]}, "at least two agents"),
    ({"agents": ["greedy", "genius"]}, "unknown agent 'genius'"),
    ({"options": {"players": 3}}, "2 agents need players=2"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"games": 0}, "at least 1"),
    ({"agents": ["net", "greedy", "greedy"], "game": "kiln", "options": {"players": 3}}, "no trained network for kiln with"),
])
def test_bad_arena_configs_say_why(tmp_path, kw, message):
    with pytest.raises(ValueError, match=message):
        config(tmp_path, **kw)


def test_the_standing_read_from_a_ledger_is_the_runs_summary_and_changes_nothing(tmp_path):
    cfg = config(tmp_path, agents=["random", "greedy"])
    summary = run(cfg)
    shutil.rmtree(cfg.out / "games")
    ledger = ledger_path(cfg.out)
    lines = ledger.read_text().splitlines()
    odd = '{"index": "3", "seats": [], "returns": [], "scores": [], "decisions": 0}'  # not a game's line
    ledger.write_text("\n".join([lines[3], odd, *lines]) + '\n{"game": "kiln", "ind')  # a game noted twice, one cut off
    before = ledger.read_text()
    held = standing(cfg.out)
    assert held["agents"] == summary["agents"]  # the agents in their order, from the seating alone
    assert (held["game"], held["options"], held["seed"], held["indices"]) == ("kiln", {"goal": 8, "players": 2}, 3,
                                                                              list(range(6)))
    assert ledger.read_text() == before and not (cfg.out / "games").exists()


def test_the_standing_of_a_run_still_playing_counts_the_games_it_has_finished(tmp_path):
    cfg = config(tmp_path)
    run(cfg)
    ledger = ledger_path(cfg.out)
    ledger.write_text("".join(line + "\n" for line in ledger.read_text().splitlines() if json.loads(line)["index"] != 2))
    held = standing(cfg.out)
    assert held["indices"] == [0, 1, 3, 4, 5] and held["games"] == 5
    assert sum(agent["wins"] for agent in held["agents"]) == pytest.approx(5)


def test_each_game_notes_each_seats_thinking_time_and_the_standing_gives_each_agents_time_a_move(tmp_path):
    """Whether two agents had equal time a move is read from the games
    themselves: each ledger line notes each seat's seconds over its decisions
    that were a choice. Lines written before that are counted for their
    results, not for time."""
    cfg = config(tmp_path, agents=["mcts:iterations=300", "random"], games=4)
    run(cfg)
    lines = sorted(read_ledger(cfg.out), key=lambda line: line["index"])
    for line in lines:
        assert len(line["seconds"]) == len(line["timed"]) == 2 and min(line["seconds"]) >= 0
        assert 0 < sum(line["timed"]) <= line["decisions"]
    search, rand = standing(cfg.out)["agents"]
    assert search["seconds_a_move"] > 20 * rand["seconds_a_move"]  # 300 iterations against one draw
    assert search["timed_games"] == rand["timed_games"] == 4
    older = [{key: value for key, value in line.items() if key not in ("seconds", "timed")} for line in lines[:2]]
    ledger_path(cfg.out).write_text("".join(json.dumps(line) + "\n" for line in older + lines[2:]))
    search, rand = standing(cfg.out)["agents"]
    assert search["games"] == 4 and search["timed_games"] == 2
    spent = sum(line["seconds"][line["seats"].index("mcts:iterations=300")] for line in lines[2:])
    decided = sum(line["timed"][line["seats"].index("mcts:iterations=300")] for line in lines[2:])
    assert search["seconds_a_move"] == pytest.approx(spent / decided)
    shown = CliRunner().invoke(app, ["standing", str(cfg.out)], env={"COLUMNS": "200"})
    assert re.search(r"time a move.*\n.*\n.*mcts:iterations=300.* ms \(2 games\)", shown.output), shown.output
    ledger_path(cfg.out).write_text("".join(json.dumps(line) + "\n" for line in older))
    assert standing(cfg.out)["agents"][0]["seconds_a_move"] is None
    assert "time a move" not in CliRunner().invoke(app, ["standing", str(cfg.out)], env={"COLUMNS": "200"}).output


def test_the_standing_of_a_folder_without_one_run_says_why(tmp_path):
    with pytest.raises(ValueError, match="holds no finished game"):
        standing(tmp_path / "empty")
    run(config(tmp_path, out=tmp_path / "a"))
    run(config(tmp_path, out=tmp_path / "b", seed=4))
    mixed = ledger_path(tmp_path / "a").read_text().splitlines()[:3] + ledger_path(tmp_path / "b").read_text().splitlines()[3:]
    ledger_path(tmp_path / "a").write_text("\n".join(mixed) + "\n")
    with pytest.raises(ValueError, match="holds games of more than one run: game 3 differs from game 0"):
        standing(tmp_path / "a")


def test_two_runs_on_the_same_deals_are_compared_game_by_game(tmp_path):
    """Game i of two runs with the same game, options and seed is the same
    deal with the same seating, so an agent can be compared with the agent
    that sat in its place: greedy, put where random sat against greedy, does
    better on every deal random lost, and a run compared with itself is the
    same on every deal."""
    greedy_first = run(config(tmp_path, out=tmp_path / "greedy"))
    run(config(tmp_path, agents=["random", "greedy"], out=tmp_path / "random"))
    shutil.copytree(tmp_path / "greedy", tmp_path / "again")
    alike = paired(tmp_path / "greedy", tmp_path / "again")
    assert alike["games"] == 6 and alike["indices"] == list(range(6))
    for row in alike["agents"]:
        assert (row["better"], row["same"], row["worse"], row["difference"], row["sign_test_p"]) == (0, 6, 0, 0.0, 1.0)
    compared = paired(tmp_path / "greedy", tmp_path / "random")
    greedy, other = compared["agents"]
    assert (greedy["agent"], greedy["other"], other["agent"], other["other"]) == ("greedy", "random", "random", "greedy")
    assert greedy_first["agents"][0]["wins"] == 6  # greedy won every game against random
    lost_as_random = 6 - sum(line["returns"][(0 - line["index"]) % 2] for line in read_ledger(tmp_path / "random"))
    assert (greedy["better"], greedy["worse"]) == (lost_as_random, 0) and greedy["better"] >= 5
    assert greedy["difference"] == pytest.approx(lost_as_random / 6)
    assert greedy["difference_95"][0] <= greedy["difference"] <= greedy["difference_95"][1] == 1.0
    assert (other["better"], other["worse"]) == (0, greedy["better"])  # two seats: the other side of the same games
    ledger = ledger_path(tmp_path / "random")
    ledger.write_text("".join(line + "\n" for line in ledger.read_text().splitlines() if json.loads(line)["index"] < 4))
    assert paired(tmp_path / "greedy", tmp_path / "random")["indices"] == [0, 1, 2, 3]


def test_runs_on_other_deals_are_not_compared_game_by_game(tmp_path):
    run(config(tmp_path, out=tmp_path / "a", games=2))
    run(config(tmp_path, out=tmp_path / "b", games=2, seed=4))
    with pytest.raises(ValueError, match="are not on the same deals: seed 3 against 4"):
        paired(tmp_path / "a", tmp_path / "b")
    run(config(tmp_path, out=tmp_path / "c", games=2, options={"goal": 9}))
    with pytest.raises(ValueError, match="not on the same deals: options"):
        paired(tmp_path / "a", tmp_path / "c")
    shutil.copytree(tmp_path / "a", tmp_path / "later")
    ledger = ledger_path(tmp_path / "later")
    ledger.write_text("".join(json.dumps({**json.loads(line), "index": json.loads(line)["index"] + 2}) + "\n"
                              for line in ledger.read_text().splitlines()))
    with pytest.raises(ValueError, match="share no game: their ledgers hold 2 and 2 games"):
        paired(tmp_path / "a", tmp_path / "later")
    failed = CliRunner().invoke(app, ["standing", str(tmp_path / "a"), "--against", str(tmp_path / "b")])
    assert failed.exit_code != 0 and "not on the same deals: seed 3 against 4" in failed.output
    assert "Traceback" not in failed.output


def test_the_standing_against_another_network_names_what_each_played_with(tmp_path):
    cfg = config(tmp_path, agents=["net", "random"], games=2, options={})
    run(cfg)
    shutil.copytree(cfg.out, tmp_path / "old")
    ledger = ledger_path(tmp_path / "old")
    lines = [json.loads(line) for line in ledger.read_text().splitlines()]
    ledger.write_text("".join(json.dumps({**line, "played_with": {"net": "network 0123456789ab"}}) + "\n"
                              for line in lines))
    net, rand = paired(cfg.out, tmp_path / "old")["agents"]
    assert net["played_with"] == lines[0]["played_with"]["net"] and net["other_played_with"] == "network 0123456789ab"
    assert "played_with" not in rand and "other_played_with" not in rand
    shown = CliRunner().invoke(app, ["standing", str(cfg.out), "--against", str(tmp_path / "old")],
                               env={"COLUMNS": "220"})
    assert shown.exit_code == 0, shown.output
    words = " ".join(shown.output.split())  # the title, which names a long folder, wraps to the table's width
    assert "game by game: 2 games on the same deals" in words and "network 0123456789ab" in words
    assert re.search(r"│ net +│ net +│ 0 +│ 2 +│ 0 +│ \+0\.000 .*│ 1\.000", shown.output), shown.output


def test_wilson_interval_contains_the_rate():
    low, high = wilson(3, 10)
    assert low < 0.3 < high and 0 <= low and high <= 1


def test_the_arena_command(tmp_path):
    out = tmp_path / "cli"
    result = CliRunner().invoke(app, ["arena", "azul", "--agents", "greedy,random", "--games", "4",
                                      "--workers", "2", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    for word in ("greedy", "random", "win rate", "rating"):
        assert word in result.output
    assert json.loads((out / "summary.json").read_text())["games"] == 4
    again = CliRunner().invoke(app, ["arena", "azul", "--agents", "greedy,random", "--games", "4",
                                     "--seed", "1", "--out", str(out)])
    assert "Resumed: 4 games were already played; 0 new." in again.output
    tuned = CliRunner().invoke(app, ["arena", "azul", "--agents", "mcts:iterations=5,c=1.2,random", "--games", "2",
                                     "--seed", "1", "--out", str(tmp_path / "tuned")])
    assert tuned.exit_code == 0, tuned.output
    assert json.loads((tmp_path / "tuned" / "summary.json").read_text())["agents"][0]["agent"] == "mcts:iterations=5,c=1.2"
    bad = CliRunner().invoke(app, ["arena", "azul", "--agents", "greedy,wizard"])
    assert bad.exit_code == 2 and "unknown agent 'wizard'" in bad.output
    held = CliRunner().invoke(app, ["standing", str(out)])
    assert held.exit_code == 0, held.output
    assert "azul: 4 games" in held.output and "Games in the ledger: 0–3 (seed 1; options players=2)" in held.output
    for word in ("greedy", "random", "win rate", "rating"):
        assert word in held.output
    empty = CliRunner().invoke(app, ["standing", str(tmp_path / "nowhere")])
    assert empty.exit_code == 2 and "holds no finished game" in empty.output
    learned = CliRunner().invoke(app, ["arena", "azul", "--agents", "net,random", "--games", "2", "--seed", "1",
                                       "--out", str(tmp_path / "learned")])
    network = make("net").plays_with(tileworks.load_game("azul"))
    assert learned.exit_code == 0 and f"net played with {network}" in learned.output, learned.output
    assert f"net played with {network}" in CliRunner().invoke(app, ["standing", str(tmp_path / "learned")]).output


def test_each_worker_process_keeps_its_matrix_products_to_one_thread():
    """A worker a core: a network in a worker reads one position at a time,
    and BLAS threads of its own would only fight the other workers' (on
    two cores, Tiles' net played a quarter as many games a second so)."""
    import operator

    import numpy  # noqa: F401  (BLAS is loaded with NumPy)
    from threadpoolctl import threadpool_info

    from tileworks.arena.runners import LocalRunner

    reports = LocalRunner(2).results(operator.call, [threadpool_info, threadpool_info])  # run in each worker
    assert [{pool["num_threads"] for pool in report if pool["user_api"] == "blas"} for report in reports] == [{1}, {1}]


def test_games_played_in_this_process_keep_to_one_thread_and_give_the_setting_back():
    """On one worker the games are played in the caller's own process: one
    BLAS thread while they are (beside a busy machine, two made Tiles' net
    twenty times slower), and the caller's own setting once they are done."""
    import operator

    import numpy  # noqa: F401  (BLAS is loaded with NumPy)
    from threadpoolctl import threadpool_info, threadpool_limits

    from tileworks.arena.runners import LocalRunner

    def blas_threads(report):
        return {pool["num_threads"] for pool in report if pool["user_api"] == "blas"}

    with threadpool_limits(2, user_api="blas"):
        played = list(LocalRunner(1).results(operator.call, [threadpool_info]))
        after = threadpool_info()
    assert blas_threads(played[0]) == {1}
    assert blas_threads(after) == {2}
