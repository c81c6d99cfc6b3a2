"""The ladder: every pair of agents plays, all games are rated together,
and a ladder run again with one more agent plays only the new pairs."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from typer.testing import CliRunner

from tileworks.arena import read_ledger, record_path, standing
from tileworks.arena.ladder import LadderConfig, run_ladder
from tileworks.cli.main import app
from tileworks.core.records import load_record


def test_every_pair_plays_with_seats_alternating_and_the_stronger_agent_ranks_higher(tmp_path):
    config = LadderConfig("azul", ["random", "greedy", "mcts:beginner"], games=4, out=tmp_path, seed=2, workers=2)
    summary = run_ladder(config)
    assert summary["games"] == 12 and summary["played"] == 12 and summary["resumed"] == 0
    for match in config.matches:
        firsts = [load_record(record_path(match.out, i)).players[0] for i in range(4)]
        assert firsts == [match.agents[0], match.agents[1]] * 2  # each agent opens two of its four games
    ranking = [row["agent"] for row in summary["ranking"]]
    assert ranking[-1] == "random"  # greedy wins about every game against random in Azul (strength.md)
    by_pair = {tuple(row["agents"]): row for row in summary["pairs"]}
    assert by_pair["random", "greedy"]["games"] == 4 and by_pair["random", "greedy"]["score"] <= 0.25
    assert all(row["games"] == 8 for row in summary["ranking"])
    ordinals = [row["ordinal"] for row in summary["ranking"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert json.loads((tmp_path / "ladder.json").read_text())["ranking"] == summary["ranking"]


def test_a_ladder_given_one_more_agent_keeps_its_games_and_plays_only_the_new_pairs(tmp_path):
    run_ladder(LadderConfig("azul", ["random", "greedy"], games=2, out=tmp_path, seed=4))
    kept = load_record(record_path(tmp_path / "random--greedy", 1)).actions
    summary = run_ladder(LadderConfig("azul", ["random", "greedy", "mcts:beginner"], games=2, out=tmp_path, seed=4))
    assert summary["resumed"] == 2 and summary["played"] == 4 and summary["games"] == 6
    assert load_record(record_path(tmp_path / "random--greedy", 1)).actions == kept


def test_a_ladder_goes_on_from_its_pairs_ledgers_alone(tmp_path):
    first = run_ladder(LadderConfig("azul", ["random", "greedy"], games=2, out=tmp_path, seed=4))
    assert sorted(line["index"] for line in read_ledger(tmp_path / "random--greedy")) == [0, 1]
    shutil.rmtree(tmp_path / "random--greedy" / "games")
    again = run_ladder(LadderConfig("azul", ["random", "greedy"], games=2, out=tmp_path, seed=4))
    assert again["resumed"] == 2 and again["played"] == 0 and again["ranking"] == first["ranking"]


def test_the_standing_of_a_ladders_folder_names_its_pairs_and_each_pairs_folder_has_one(tmp_path):
    run_ladder(LadderConfig("azul", ["random", "greedy", "mcts:beginner"], games=2, out=tmp_path, seed=4))
    with pytest.raises(ValueError, match="a ladder.s pairs each have their own: greedy--mcts_beginner, "
                                         "random--greedy, random--mcts_beginner"):
        standing(tmp_path)
    pair = standing(tmp_path / "random--greedy")
    assert [agent["agent"] for agent in pair["agents"]] == ["random", "greedy"] and pair["indices"] == [0, 1]


@pytest.mark.parametrize("agents, options, message", [
    (["greedy", "greedy"], {}, "a ladder lists each agent once"),
    (["greedy"], {}, "a ladder needs at least two agents"),
    (["greedy", "random"], {"players": 3}, "a ladder is played between two seats, not players=3"),
    (["greedy", "wizard"], {}, "unknown agent 'wizard'"),
])
def test_a_ladder_that_cannot_be_played_is_refused_by_name(tmp_path, agents, options, message):
    with pytest.raises(ValueError, match=message):
        LadderConfig("azul", agents, games=2, out=tmp_path, options=options)
    assert not any(tmp_path.iterdir())


def test_the_command_prints_the_ranking_and_each_pair(tmp_path):
    result = CliRunner().invoke(app, ["ladder", "azul", "--agents", "random,greedy", "--games", "2", "--out",
                                      str(tmp_path), "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "rating μ ± σ" in result.output and "random – greedy" in result.output
    timed = CliRunner().invoke(app, ["ladder", "azul", "--agents", "random,mcts:iterations=200", "--games", "2",
                                     "--out", str(tmp_path / "timed"), "--seed", "1"], env={"COLUMNS": "200"})
    assert timed.exit_code == 0, timed.output
    ranked = json.loads((tmp_path / "timed" / "ladder.json").read_text())["ranking"]
    search, rand = sorted(ranked, key=lambda row: row["agent"] == "random")
    assert search["seconds_a_move"] > 20 * rand["seconds_a_move"]  # how long each level thinks, beside its strength
    assert re.search(r"time a move.*\n(.*\n)*.*mcts:iterations=200.* ms", timed.output), timed.output
    refused = CliRunner().invoke(app, ["ladder", "azul", "--agents", "random,random", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and "a ladder lists each agent once" in refused.output
