"""Rare labels guaranteed or named: whether every label with at least as many positives as parts has one in every
part (:func:`labels_missing_a_part`), swaps that make it so (:func:`place_in_every_part`), and the one warning a
split gives where it is not (:func:`warn_missing_parts`). Used by the k-fold classes and the k-part splitter."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.labels import as_label_matrix
from stratbench.measures.fold_quality import fold_label_counts
from stratbench.stratifiers.sizes import leaving_cost

RARE = ("warn", "guarantee", "ignore")  # what a split does about a label with no positive in some part


def labels_missing_a_part(Y: sp.csr_matrix, ids: np.ndarray, k: int) -> np.ndarray:
    """The labels that have a positive in fewer than all ``k`` parts although they have ≥ k positives."""
    return _missing(fold_label_counts(Y, ids, k)[1], k)


def _missing(counts: np.ndarray, k: int) -> np.ndarray:
    """Of a k × L table of positives per part, the labels with ≥ k positives and a part without one."""
    return np.flatnonzero((counts.sum(axis=0) >= k) & (counts == 0).any(axis=0))


def place_in_every_part(Y: sp.csr_matrix, ids: np.ndarray, k: int) -> np.ndarray:
    """``ids`` changed by swaps of two rows (the sizes kept) until every label with ≥ k positives has one in every
    part: for each such label lacking a part (the rarest first), a positive row leaves the part holding most of the
    label for the lacking part, and one row without the label comes back; a swap never takes from a part the last
    positive of a label it holds. Each pair is the cheapest by :func:`~stratbench.stratifiers.sizes.leaving_cost`
    (lowest rows on ties). StratbenchError naming the labels no such swap can place."""
    Y = as_label_matrix(Y)
    ids = ids.copy()
    counts = fold_label_counts(Y, ids, k)[1].astype(np.int64)  # k × L positives per part
    positives = counts.sum(axis=0)
    unplaced = []
    for label in sorted(_missing(counts, k), key=lambda lab: (positives[lab], lab)):
        for taker in np.flatnonzero(counts[:, label] == 0):
            swap = _cheapest_swap(Y, ids, counts, label, int(taker))
            if swap is None:
                unplaced.append(int(label))
                break
            out, back = swap
            donor = ids[out]
            for row, source, target in ((out, donor, taker), (back, taker, donor)):
                cols = Y.indices[Y.indptr[row]:Y.indptr[row + 1]]
                counts[source, cols] -= 1
                counts[target, cols] += 1
                ids[row] = target
    if unplaced:
        raise StratbenchError(f"{len(unplaced)} labels with at least {k} positives cannot be given one in every "
                              f"part by any swap that keeps the sizes and the other labels placed: labels "
                              f"{unplaced[:10]}{' …' if len(unplaced) > 10 else ''}")
    return ids


def _cheapest_swap(Y: sp.csr_matrix, ids: np.ndarray, counts: np.ndarray, label: int, taker: int):
    """(a row with ``label`` to move into ``taker``, a row of ``taker`` without it to move back), or None."""
    column = Y[:, label].toarray().ravel() > 0
    for donor in np.argsort(-counts[:, label], kind="stable"):
        if counts[donor, label] < 2:
            return None
        out_rows = np.flatnonzero((ids == donor) & column)
        out_rows = out_rows[np.argsort(leaving_cost(Y, out_rows), kind="stable")]
        back_rows = np.flatnonzero((ids == taker) & ~column)
        back_rows = back_rows[np.argsort(leaving_cost(Y, back_rows), kind="stable")]
        for out in out_rows:
            if not _can_leave(Y, counts, out, donor):
                continue
            for back in back_rows:
                if _can_leave(Y, counts, back, taker):
                    return int(out), int(back)
    return None


def _can_leave(Y: sp.csr_matrix, counts: np.ndarray, row: int, part: int) -> bool:
    """Whether ``row`` can leave ``part`` without taking the last positive there of a label it holds."""
    cols = Y.indices[Y.indptr[row]:Y.indptr[row + 1]]
    return bool((counts[part, cols] >= 2).all())


def warn_missing_parts(Y: sp.csr_matrix, ids: np.ndarray, names, stacklevel: int, label_names=None) -> None:
    """One warning naming how many labels were left with no positive in some part, and which (the first ten, by
    ``label_names`` where given: a TargetTable's values are named ``column=value``)."""
    counts = fold_label_counts(Y, ids, len(names))[1]
    empty = np.flatnonzero((counts == 0).any(axis=0) & (counts.sum(axis=0) > 0))
    if len(empty):
        parts = ", ".join(names) if len(names) <= 4 else f"{names[0]} … {names[-1]}"
        which = empty[:10].tolist() if label_names is None else [label_names[i] for i in empty[:10]]
        warnings.warn(f"{len(empty)} of {Y.shape[1]} labels have no positive in some part ({parts}): "
                      f"labels {which}{' …' if len(empty) > 10 else ''}; rare='guarantee' places "
                      "every label with as many positives as parts in each", UserWarning, stacklevel=stacklevel + 1)
