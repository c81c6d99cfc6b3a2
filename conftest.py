"""Settings for every test process (the tests, the doctests and the example
plugin's): ``make test`` runs one pytest worker a core."""

from __future__ import annotations


def pytest_configure(config):
    """NumPy's matrix products on one thread in each test process. Each
    worker has a core; BLAS's own threads would only take turns with the
    other worker's tests, and a network reading one position at a time (the
    learned agents' tests) then ran four to five times slower
    (docs/performance.md, "One BLAS thread a test worker"). Not set in the
    environment: the tests that check that the arena's, the lab's and the
    server's workers hold one thread themselves start them from a process
    with more."""
    from tileworks.agents.network import one_thread_for_products

    config._blas_threads = one_thread_for_products()


def pytest_unconfigure(config):
    limits = getattr(config, "_blas_threads", None)
    if limits is not None:
        limits.restore_original_limits()
