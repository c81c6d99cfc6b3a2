"""The balance lab: studies of how balanced a game and its variants are.

A study (:mod:`tileworks.lab.study`) is a TOML file naming a game, a grid
of options and line-ups of agents. :func:`tileworks.lab.run.run_study`
plays its games in local processes or on a Ray cluster into DuckDB and
Parquet, resumably; :mod:`tileworks.lab.measures` measures them with 95%
intervals; :mod:`tileworks.lab.report` writes an HTML report with figures.
Everything here but the study files needs ``tileworks[lab]``.
"""
