"""Learned agents: policy-and-value networks trained by self-play on the
batched JAX engines (optional extra: ``pip install 'tileworks[jax]'``).

Training (:mod:`tileworks.learn.train`, ``tileworks train GAME``) follows
Gumbel AlphaZero (Danihelka, Guez, Schrittwieser and Silver, "Policy
improvement by planning with Gumbel", ICLR 2022), with DeepMind's ``mctx``
running the search on the game's batched engine: every move of every
self-play game is chosen by a short Gumbel search guided by the network,
and the network learns the search's improved policy and the games'
outcomes. Playing needs no JAX: the network runs in NumPy
(:mod:`tileworks.agents.network`), behind the ``net`` and ``alpha`` agents.
See docs/agents.md.
"""
