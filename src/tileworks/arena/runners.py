"""Where many games run: local processes (the default) or a Ray cluster.

Both runners take picklable jobs, run ``fn(job)`` for each, and yield the
results as they finish, keeping only a few jobs in flight so that an
interrupted run has little under way. The arena and the balance lab run
the same jobs either way, and since every game is fixed by its seed, the
results are the same game for game.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

#: how to get Ray, said whenever --ray is asked for without it
RAY_MISSING = "--ray needs Ray, which is not installed; install it with: pip install 'tileworks[cluster]'"


class WorkerLost(RuntimeError):
    """A worker process died (killed, out of memory): the run stops; what
    finished is kept, and running again continues."""


class LocalRunner:
    """``workers`` processes on this machine (1: in this process)."""

    def __init__(self, workers: int = 1):
        if workers < 1:
            raise ValueError("--workers must be at least 1")
        self.workers = workers
        self.where = f"{workers} local process{'es' if workers > 1 else ''}"

    def results(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
        if self.workers == 1:
            from tileworks.agents.network import one_thread_for_products

            with one_thread_for_products():
                for job in jobs:
                    yield fn(job)
            return
        queue = iter(jobs)
        # forkserver, not fork: a process that has started threads (JAX, a
        # web server) cannot be forked safely
        pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_start_worker, initargs=(os.getpid(),),
                                   mp_context=multiprocessing.get_context("forkserver"))
        pending: set[Future] = set()
        try:
            while True:
                try:  # a lost worker breaks the pool: a result, or the next submit, says so
                    while len(pending) < 2 * self.workers and (job := next(queue, None)) is not None:
                        pending.add(pool.submit(fn, job))
                    if not pending:
                        return
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    results = [future.result() for future in done]
                except BrokenProcessPool:
                    raise WorkerLost("a worker process was lost (killed, or out of memory); the games "
                                     "finished so far are kept: run again to continue") from None
                yield from results
        finally:
            # interrupted: drop the jobs not started; a worker ends its current one
            pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        pass


def _start_worker(driver: int) -> None:
    """Start a worker: its matrix products on one thread (a worker a core),
    and its end tied to the run that started it, even one killed with
    SIGKILL, which cannot tell its workers. A worker's parent is the fork
    server, which outlives a killed driver, so a thread watches the driver
    itself; on Linux the kernel also ends the worker when the fork server dies."""
    import sys
    import threading

    from tileworks.agents.network import one_thread_for_products

    one_thread_for_products()
    # Ctrl-C reaches the whole process group: the driver stops the run and
    # lets each worker finish its job; a worker that died of it would look lost
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch, args=(driver,), name="watch-driver", daemon=True).start()


def _watch(driver: int, every: float = 1.0) -> None:
    while _running(driver):
        time.sleep(every)
    # the driver is gone: end the fork server (its other workers follow by the
    # death signal) and this worker; the resource tracker ends when they have
    parent = os.getppid()
    if parent not in (1, driver):
        try:
            os.kill(parent, signal.SIGTERM)
        except OSError:
            pass
    os._exit(1)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a zombie has)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (macOS): it exists


class RayRunner:
    """Ray tasks on a cluster: ``address`` is ``auto`` (the running cluster
    this machine belongs to), ``local`` (start a Ray instance here with
    ``workers`` CPUs) or a cluster address (``ray://HOST:10001``, ``HOST:6379``).
    A task whose worker is lost is run again by Ray."""

    def __init__(self, address: str, workers: int = 1):
        try:
            import ray
        except ImportError:
            raise ValueError(RAY_MISSING) from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                        "configure_logging": False}
            if address not in ("auto", "local"):
                _check_answers(address)  # Ray itself retries a silent address for ever
            try:
                if address == "local":  # a new instance here, even where a cluster runs
                    ray.init(address="local", num_cpus=workers, **settings)
                else:
                    ray.init(address=address, **settings)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ValueError(_ray_unreachable(address, exc)) from None
        self.cpus = int(ray.cluster_resources().get("CPU", 1))
        self.where = f"Ray ({self.cpus} CPUs)"

    def results(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
        ray = self._ray
        remote = ray.remote(max_retries=3)(fn)  # Ray gives a task one thread for BLAS (OMP_NUM_THREADS=1)
        queue = iter(jobs)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < 2 * self.cpus and (job := next(queue, None)) is not None:
                    pending.append(remote.remote(job))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()


def _ray_unreachable(address: str, exc: Exception) -> str:
    """What to say when Ray will not start or join as ``--ray`` asks."""
    if address == "auto":
        return ("--ray auto joins the Ray cluster this machine belongs to, and none is running here; start one "
                "with `ray start --head`, or use --ray local to start Ray for this run only")
    said = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if address == "local":
        return f"--ray local could not start Ray on this machine: {said}"
    return (f"--ray {address}: no Ray cluster answered at that address ({said}); "
            "give the head's address, e.g. HOST:6379 or ray://HOST:10001")


def _check_answers(address: str, seconds: float = 5.0) -> None:
    """Refuse a cluster address where nothing listens (``HOST:PORT`` or ``ray://HOST:PORT``)."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--ray {address}: not a cluster address; give the head's HOST:6379 or ray://HOST:10001, "
                         "or auto, or local")
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as exc:
        raise ValueError(_ray_unreachable(address, exc)) from None


def make_runner(workers: int = 1, ray: str | None = None) -> LocalRunner | RayRunner:
    """The runner a command line asks for: Ray when ``ray`` names a cluster."""
    return LocalRunner(workers) if ray is None else RayRunner(ray, workers)
