"""Settings for every test process (the tests, the doctests and the example
plugin's): ``make test`` runs one pytest worker a core."""

from __future__ import annotations

import os


def pytest_configure(config):
    """NumPy's matrix products on one thread, here and in the processes the
    tests start. Each worker has a core; BLAS's own threads would only take
    turns with the other worker's tests, and a network reading one position
    at a time (the learned agents' tests) then ran six times slower
    (docs/performance.md, "One BLAS thread a test worker")."""
    from threadpoolctl import threadpool_limits

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    config._blas_threads = threadpool_limits(1, user_api="blas")


def pytest_unconfigure(config):
    limits = getattr(config, "_blas_threads", None)
    if limits is not None:
        limits.restore_original_limits()
