"""A large sparse random label matrix for speed and scale tests (no features to speak of).

Label i gets a positive rate proportional to (i + 1)^−skew (skew 0: all equal), scaled so that the
matrix density is ``density``; its positives are a uniform random subset of the rows. The GO "CC"
set of Tiittanen et al. 2021 has 577,424 × 1,688 labels at density 0.0077.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.datasets.core import MultilabelDataset


def label_rates(labels: int, density: float, skew: float) -> np.ndarray:
    """Per-label positive rates with mean ``density`` and shape (i+1)^−skew, capped at 1."""
    w = (np.arange(labels) + 1.0) ** -skew
    rates = w / w.mean() * density
    for _ in range(100):  # redistribute what the cap at 1 removed
        capped = np.minimum(rates, 1.0)
        if capped.mean() >= density * (1 - 1e-9) or (capped == 1.0).all():
            break
        free = capped < 1.0
        rates = capped
        rates[free] *= (density * labels - (~free).sum()) / rates[free].sum()
    return np.minimum(rates, 1.0)


def generate(name: str, examples: int, labels: int, density: float, skew: float = 0.5, seed: int = 1):
    if not 0 < density <= 1:
        raise StratbenchError(f"random_labels dataset {name!r}: density {density} not in (0, 1]")
    rng = np.random.default_rng(seed)
    counts = rng.binomial(examples, label_rates(labels, density, skew))
    rows = np.concatenate([rng.choice(examples, size=c, replace=False) for c in counts])
    cols = np.repeat(np.arange(labels), counts)
    Y = sp.csr_matrix((np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(examples, labels))
    Y.sort_indices()
    X = sp.csr_matrix((examples, 1), dtype=np.float32)
    return MultilabelDataset(name, X, Y, [f"label{j}" for j in range(labels)], ["none"])
