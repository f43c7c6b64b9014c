"""The compiled loops of stratbench, one module per method or concept, numpy and numba only: what
``setup.py`` compiles ahead of time into ``stratbench._aot`` (:mod:`stratbench._kernels._compile` says how
they run). The modules the users call (``stratbench.stratifiers``, ``stratbench.labels``, …) prepare the
arrays and call these.

- :mod:`.common`: the RNG (splitmix64), IS's fold choice and the unlabelled rows, a stable argsort, ⌈·⌉;
- :mod:`.prefetch`: cache hints, for the searches' random reads;
- :mod:`.iterative`, :mod:`.sois`, :mod:`.optisplit`: those stratifiers' loops;
- :mod:`.hybrid`, :mod:`.ld_polish`, :mod:`.group_search`: the hybrid's local search, LD polish and grouped search;
- :mod:`.combinations`: the labels and co-occurring pairs of each row, their fold counts;
- :mod:`.fold_quality`: the pair measures' pass; :mod:`.synthetic`: the generator's labelset draws.
"""
