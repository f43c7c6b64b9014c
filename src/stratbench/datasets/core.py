"""The in-memory dataset and its compact binary cache (``.npz``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench._warn import warn
from stratbench.io import save_npz


@dataclass
class MultilabelDataset:
    """Features ``X`` (dense or CSR float32, n × d), labels ``Y`` (CSR int8 0/1, n × L) and, for grouped
    data, a group id per example."""

    name: str
    X: np.ndarray | sp.csr_matrix
    Y: sp.csr_matrix
    label_names: list[str]
    feature_names: list[str]
    groups: np.ndarray | None = None  # a group id per example (rows that must share a fold), if any
    # the synthetic generator's label dependence as used: the configured one, or the strongest that realises the
    # configured cardinality where that one cannot (stratbench.datasets.synthetic.label_model); None for real data
    dependence: float | None = None

    @property
    def n_examples(self) -> int:
        return self.Y.shape[0]

    @property
    def n_labels(self) -> int:
        return self.Y.shape[1]


def save_dataset(ds: MultilabelDataset, path: str | os.PathLike) -> None:
    """Cache ``ds`` in one deterministic ``.npz`` (sparse parts as CSR triplets); a label that is never
    positive is warned of (no split can stratify it, and it leaves every fold's cell empty)."""
    Y = sp.csr_matrix(ds.Y, dtype=np.int8)
    Y.sort_indices()
    never = np.flatnonzero(np.bincount(Y.indices, minlength=Y.shape[1]) == 0)
    if len(never):
        names = [ds.label_names[i] if i < len(ds.label_names) else str(i) for i in never[:5]]
        warn(f"dataset {ds.name!r}: {len(never)} of {Y.shape[1]} labels are never positive "
             f"({', '.join(names)}{', …' if len(never) > 5 else ''}); they count as empty in every fold")
    arrays = dict(
        name=np.array(ds.name),
        Y_indptr=Y.indptr.astype(np.int64),
        Y_indices=Y.indices.astype(np.int32),
        Y_shape=np.array(Y.shape, dtype=np.int64),
        label_names=np.array(ds.label_names, dtype=str),
        feature_names=np.array(ds.feature_names, dtype=str),
    )
    if ds.groups is not None:
        arrays["groups"] = np.asarray(ds.groups, dtype=np.int64)
    if ds.dependence is not None:
        arrays["dependence"] = np.float64(ds.dependence)
    if sp.issparse(ds.X):
        X = sp.csr_matrix(ds.X, dtype=np.float32)
        X.sort_indices()
        arrays.update(
            X_data=X.data, X_indptr=X.indptr.astype(np.int64),
            X_indices=X.indices.astype(np.int32), X_shape=np.array(X.shape, dtype=np.int64),
        )
    else:
        arrays["X"] = np.ascontiguousarray(ds.X, dtype=np.float32)
    save_npz(path, **arrays)


def load_dataset(path: str | os.PathLike) -> MultilabelDataset:
    """Load a dataset cached by :func:`save_dataset`."""
    with np.load(Path(path), allow_pickle=False) as z:
        n, q = (int(v) for v in z["Y_shape"])
        indices = z["Y_indices"]
        Y = sp.csr_matrix((np.ones(len(indices), dtype=np.int8), indices, z["Y_indptr"]), shape=(n, q))
        if "X" in z:
            X = z["X"]
        else:
            X = sp.csr_matrix((z["X_data"], z["X_indices"], z["X_indptr"]), shape=tuple(z["X_shape"]))
        return MultilabelDataset(
            name=str(z["name"]), X=X, Y=Y,
            label_names=z["label_names"].tolist(), feature_names=z["feature_names"].tolist(),
            groups=z["groups"] if "groups" in z else None,
            dependence=float(z["dependence"]) if "dependence" in z else None,
        )


def feature_strata(ds: MultilabelDataset, spec: dict):
    """The :class:`~stratbench.labels.TargetTable` a config's ``strata:`` declares on ``ds``: each entry
    ``{feature, kind, bins, weight}`` takes the feature by name (``ds.feature_names``) or column index. A
    feature that is not there stops, naming the dataset and the features it has."""
    from stratbench.labels import TargetTable

    columns, kinds, weights, bins = {}, {}, {}, {}
    for name, entry in spec.items():
        feature = entry["feature"]
        if isinstance(feature, str):
            if feature not in ds.feature_names:
                near = [f for f in ds.feature_names if feature.lower() in f.lower()][:5]
                raise StratbenchError(f"dataset {ds.name!r}: strata {name!r} names feature {feature!r}, which it does "
                                      f"not have ({len(ds.feature_names)} features"
                                      f"{'; similar: ' + ', '.join(near) if near else ''}); name one or give its index")
            index = ds.feature_names.index(feature)
        else:
            if not 0 <= int(feature) < ds.X.shape[1]:
                raise StratbenchError(f"dataset {ds.name!r}: strata {name!r} takes feature {feature}, and the dataset "
                                      f"has features 0…{ds.X.shape[1] - 1}")
            index = int(feature)
        column = ds.X[:, index]
        columns[name] = np.asarray(column.todense()).ravel() if sp.issparse(column) else np.asarray(column).ravel()
        kinds[name] = entry["kind"]
        weights[name] = entry.get("weight", 1)
        bins[name] = entry.get("bins", 5)
    return TargetTable(columns, kinds=kinds, weights=weights, bins=bins)
