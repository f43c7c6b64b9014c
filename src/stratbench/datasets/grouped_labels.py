"""Synthetic grouped multi-label data for the grouped track: several examples per group (one patient's
images, one document's sentences) that share their group's labels.

Group sizes follow a Zipf law with exponent ``exponent``, capped at ``max_size`` (heavy-tailed: most
groups small, a few large); group g draws each label λ with probability p_λ ~ U(``rate_low``,
``rate_high``); each member keeps each of its group's labels with probability ``keep``. Groups are
interleaved over the rows (a random permutation), so row order says nothing about them.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.datasets.core import MultilabelDataset


def generate(name: str, groups: int = 200, labels: int = 5, exponent: float = 1.8, max_size: int = 30,
             keep: float = 0.8, rate_low: float = 0.05, rate_high: float = 0.5, seed: int = 1) -> MultilabelDataset:
    """The dataset ``name``: Y (examples × ``labels``) and a group id per example (module doc).

    >>> ds = generate("g", groups=50, seed=3)
    >>> ds.Y.shape[1], len(np.unique(ds.groups)), ds.Y.shape[0] == len(ds.groups)
    (5, 50, True)
    """
    rng = np.random.default_rng(seed)
    sizes = np.minimum(rng.zipf(exponent, groups), max_size)
    group_labels = rng.random((groups, labels)) < rng.uniform(rate_low, rate_high, labels)
    members = np.repeat(np.arange(groups), sizes)
    Y = group_labels[members] & (rng.random((len(members), labels)) < keep)
    order = rng.permutation(len(members))
    Y = sp.csr_matrix(Y[order].astype(np.int8))
    X = sp.csr_matrix((len(members), 1), dtype=np.float32)
    return MultilabelDataset(name, X, Y, [f"label{j}" for j in range(labels)], ["none"], groups=members[order])
