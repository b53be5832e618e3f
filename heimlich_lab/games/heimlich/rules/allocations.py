"""Precomputed allocation tables: every way to split k movement points among n agents.

>>> allocation_table(3, 2)
array([[2, 0, 0],
       [1, 1, 0],
       [1, 0, 1],
       [0, 2, 0],
       [0, 1, 1],
       [0, 0, 2]], dtype=int8)
>>> [len(allocation_table(7, k)) for k in range(1, 7)]
[7, 28, 84, 210, 462, 924]
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np


@lru_cache(maxsize=None)
def allocation_table(n_agents: int, points: int) -> np.ndarray:
    """All allocations of ``points`` steps to ``n_agents`` agents, one row each (read-only).

    Rows are in a fixed order (lexicographically decreasing), so a row index
    names an allocation. At least one agent moves when ``points > 0``.
    """
    if points == 0:
        t = np.zeros((1, n_agents), dtype=np.int8)
    else:
        rows = []
        for combo in combinations_with_replacement(range(n_agents), points):
            r = [0] * n_agents
            for a in combo:
                r[a] += 1
            rows.append(r)
        t = np.array(sorted(rows, reverse=True), dtype=np.int8)
    t.setflags(write=False)
    return t
