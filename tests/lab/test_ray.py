"""On Ray: a real local Ray instance (2 CPUs) plays the same games as local processes."""

from __future__ import annotations

import json

import pytest

ray = pytest.importorskip("ray", reason="the cluster extra (tileworks[cluster]) is installed by make test")

from tileworks.arena import ArenaConfig, run  # noqa: E402
from tileworks.lab.run import COLUMNS, load_rows, run_study  # noqa: E402
from tileworks.lab.study import load_study  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_a_study_on_ray_stores_the_same_rows_as_local_processes(local_ray, small_study, tmp_path):
    study = load_study(small_study)
    on_ray = run_study(study, tmp_path / "ray", ray="auto")
    assert on_ray["where"] == "Ray (2 CPUs)" and on_ray["played"] == 24
    run_study(study, tmp_path / "local", workers=2)
    _, ray_rows = load_rows(tmp_path / "ray")
    _, local_rows = load_rows(tmp_path / "local")
    assert len(ray_rows) == len(local_rows) == 24
    for ray_row, local_row in zip(ray_rows, local_rows, strict=True):
        for column in COLUMNS:
            if column != "seconds":
                assert json.dumps(ray_row[column]) == json.dumps(local_row[column]), column


def test_the_arena_on_ray_plays_the_same_games(local_ray, tmp_path):
    common = dict(game="kiln", agents=["greedy", "mcts:beginner"], games=4, seed=5, options={"goal": 10})
    on_ray = run(ArenaConfig(out=tmp_path / "ray", ray="auto", **common))
    local = run(ArenaConfig(out=tmp_path / "local", workers=2, **common))
    untimed = [[{k: v for k, v in agent.items() if k != "seconds_a_move"} for agent in summary["agents"]]
               for summary in (on_ray, local)]  # the time a move depends on the machine, not on where games run
    assert untimed[0] == untimed[1]
    for index in range(4):
        name = f"game-{index:05d}.json"
        assert (json.loads((tmp_path / "ray" / "games" / name).read_text())["actions"]
                == json.loads((tmp_path / "local" / "games" / name).read_text())["actions"])


def test_each_ray_task_keeps_its_matrix_products_to_one_thread(local_ray):
    """As in local worker processes (tests/arena): a task a CPU, its BLAS on
    one thread (Ray sets OMP_NUM_THREADS=1 in a task of one CPU, which the
    BLAS NumPy ships, OpenBLAS, obeys)."""
    from tileworks.arena.runners import make_runner

    def blas_threads(_job):  # Ray sends the function itself to its workers
        import numpy  # noqa: F401  (BLAS is loaded with NumPy)
        from threadpoolctl import threadpool_info

        return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}

    assert list(make_runner(ray="auto").results(blas_threads, range(2))) == [{1}, {1}]


def _study_command(small_study, out, *flags):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "tileworks.cli.main", "study", "run", str(small_study), "--out",
                           str(out), "--quiet", *flags], capture_output=True, text=True, timeout=300)


def test_ray_local_starts_its_own_instance_even_where_one_runs(local_ray, small_study, tmp_path):
    # a Ray instance is running on this machine (the fixture's); local starts another for the run
    done = _study_command(small_study, tmp_path / "o", "--ray", "local", "--workers", "1")
    assert done.returncode == 0, done.stderr
    _, rows = load_rows(tmp_path / "o")
    assert len(rows) == 24


def test_a_cluster_address_where_nothing_answers_is_refused_at_once(small_study, tmp_path):
    import socket

    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    done = _study_command(small_study, tmp_path / "o", "--ray", f"127.0.0.1:{port}")
    assert done.returncode == 2
    said = " ".join(done.stderr.split())
    assert f"--ray 127.0.0.1:{port}: no Ray cluster answered at that address" in said and "Traceback" not in said
    assert not (tmp_path / "o" / "results.duckdb").exists()
