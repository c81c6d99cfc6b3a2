"""Adapters for the research libraries: OpenSpiel, PettingZoo and Gymnasium.

Each lives in its own module and needs its library, installed with the
project's extras (``pip install "tileworks[research]"``, or one of
``[openspiel]``, ``[pettingzoo]``, ``[gymnasium]``); the engines themselves
need none of them. See docs/research.md.
"""
