"""Dataset statistics with the columns of Sechidis et al. 2011, Table 1."""

from __future__ import annotations

import hashlib

import numpy as np
import scipy.sparse as sp

from stratbench.labels import labelset_ids

COLUMNS = [
    "dataset", "labels", "examples", "labelsets", "labelsets_per_example",
    "examples_per_labelset_min", "examples_per_labelset_avg", "examples_per_labelset_max",
    "examples_per_label_min", "examples_per_label_avg", "examples_per_label_max",
    "dependence",  # the synthetic generator's label dependence as used (empty for real data)
]


def dataset_statistics(name: str, Y: sp.csr_matrix, dependence: float | None = None) -> dict:
    """Table 1's row: labels, examples, distinct labelsets, their ratio, examples per labelset and
    per label (min/avg/max). The averages are unrounded (the paper prints them rounded). ``dependence``: a
    synthetic dataset's, as its generator used it (:attr:`MultilabelDataset.dependence`)."""
    n, q = Y.shape
    per_labelset = np.bincount(labelset_ids(Y))
    per_label = np.asarray(sp.csr_matrix(Y).sum(axis=0)).ravel()
    return dict(
        dataset=name, labels=q, examples=n, labelsets=len(per_labelset),
        labelsets_per_example=len(per_labelset) / n,
        examples_per_labelset_min=int(per_labelset.min()),
        examples_per_labelset_avg=float(per_labelset.mean()),
        examples_per_labelset_max=int(per_labelset.max()),
        examples_per_label_min=int(per_label.min()),
        examples_per_label_avg=float(per_label.mean()),
        examples_per_label_max=int(per_label.max()),
        dependence=np.nan if dependence is None else float(dependence),
    )


def statistics_table(rows: list[dict]):
    import pandas as pd

    return pd.DataFrame(rows, columns=COLUMNS)


def identical_label_matrices(matrices: dict[str, sp.spmatrix]) -> list[tuple[str, str]]:
    """(first, later) for every dataset whose label matrix equals an earlier one's, entry for entry: such
    a pair counts twice in every rank test, so their agreement is not evidence.

    >>> identical_label_matrices({"a": sp.csr_matrix([[1, 0]]), "b": sp.csr_matrix([[0, 1]]), "c": sp.csr_matrix([[1, 0]])})
    [('a', 'c')]
    """
    first: dict[tuple, str] = {}
    pairs = []
    for name, Y in matrices.items():
        Y = sp.csr_matrix(Y, dtype=np.int8)
        Y.sum_duplicates()
        Y.eliminate_zeros()
        digest = hashlib.sha256(Y.indptr.astype(np.int64).tobytes() + Y.indices.astype(np.int64).tobytes()).hexdigest()
        key = (Y.shape, digest)
        if key in first:
            pairs.append((first[key], name))
        else:
            first[key] = name
    return pairs
