"""A user's own dataset, named in the study config by its files (``datasets.<name>.files``):

- ``{arff: <path or list of paths>, xml: <path>}``: MULAN files, read by the same reader as the
  registry's datasets (several ARFF files are concatenated in order);
- ``{X: <path>, Y: <path>}``: a feature matrix and a 0/1 label matrix with the same rows, each a
  ``scipy.sparse.save_npz`` file, a ``.npy`` array or a ``.npz`` holding one array; Y is checked as
  every stratifier checks it (only 0/1, 1-d or 2-d, no NaN).

Relative paths are relative to the workflow's working directory.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.datasets.arff import read_label_names, read_mulan
from stratbench.datasets.core import MultilabelDataset
from stratbench.labels import as_label_matrix


def file_list(spec: dict) -> list[str]:
    """Every file of a local dataset (the workflow's inputs, so that a changed file re-runs its jobs)."""
    if "arff" in spec:
        arff = spec["arff"] if isinstance(spec["arff"], list) else [spec["arff"]]
        return [*arff, spec["xml"]]
    return [spec["X"], spec["Y"]]


def read_matrix(path: str | Path):
    """A matrix from a scipy.sparse ``.npz``, a ``.npy``, or a ``.npz`` of one array."""
    path = Path(path)
    try:
        if path.suffix == ".npy":
            return np.load(path, allow_pickle=False)
        with np.load(path, allow_pickle=False) as z:
            if "format" in z.files and "shape" in z.files:
                return sp.load_npz(path).tocsr()
            if len(z.files) != 1:
                raise StratbenchError(f"{path}: an .npz with one array (or a scipy.sparse matrix) expected, "
                                      f"found {z.files}")
            return z[z.files[0]]
    except (OSError, ValueError) as exc:
        if isinstance(exc, StratbenchError):
            raise
        raise StratbenchError(f"{path}: cannot read a matrix: {exc}") from None


def read_local(name: str, spec: dict) -> MultilabelDataset:
    """The dataset ``name`` from its files (see the module doc); a bad file stops naming it."""
    files = file_list(spec)
    for f in files:
        if not Path(f).is_file():
            raise StratbenchError(f"dataset {name!r}: {f}: no such file")
    if "arff" in spec:
        X, Y, labels, features = read_mulan(files[:-1], files[-1])
        return MultilabelDataset(name, X, Y, labels, features)
    X = read_matrix(spec["X"])
    try:
        Y = as_label_matrix(read_matrix(spec["Y"]))
    except StratbenchError as exc:
        raise StratbenchError(f"{spec['Y']}: {exc}") from None
    if X.ndim != 2 or X.shape[0] != Y.shape[0]:
        raise StratbenchError(f"{spec['X']}: {X.shape[0] if X.ndim else 0} rows of features for the "
                              f"{Y.shape[0]} rows of {spec['Y']} (a 2-d matrix with one row per example needed)")
    X = sp.csr_matrix(X, dtype=np.float32) if sp.issparse(X) else np.asarray(X, dtype=np.float32)
    return MultilabelDataset(name, X, Y, [f"label{j}" for j in range(Y.shape[1])],
                             [f"x{a}" for a in range(X.shape[1])])


def local_shape(spec: dict) -> tuple[int, int]:
    """(examples, labels) of a local dataset without reading its features (for the config checks)."""
    if "arff" in spec:
        arff = spec["arff"] if isinstance(spec["arff"], list) else [spec["arff"]]
        rows = 0
        for path in arff:
            with open(path, encoding="utf-8", errors="replace") as fh:
                data = False
                for line in fh:
                    text = line.strip()
                    if data and text and not text.startswith("%"):
                        rows += 1
                    elif text[:5].lower() == "@data":
                        data = True
        return rows, len(read_label_names(spec["xml"]))
    Y = read_matrix(spec["Y"])
    return Y.shape[0], (Y.shape[1] if Y.ndim == 2 else 1)
