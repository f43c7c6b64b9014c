"""Columns to stratify on beside the labels: each of a declared kind, each with a weight.

A :class:`TargetTable` holds 0/1 label columns (``"labels"``), multiclass columns (``"multiclass"``: any
hashable values, one class per value), counts (``"count"``: integers ≥ 0) and continuous columns
(``"continuous"``), and expands them into the 0/1 indicators every stratifier splits on (:meth:`expand`):

- a label column is its own indicator;
- a multiclass column has one indicator per class (each row has exactly one);
- a continuous column is cut into ``bins`` quantile bins (default 5, as scikit-learn's ``KBinsDiscretizer``):
  edges at the quantiles 1/b, …, (b − 1)/b of its values, equal edges merged, one indicator per bin; ``bins``
  may also be the edges themselves (a sorted list; values below the first go to the first bin, above the last
  to the last; a bin no row falls in is left out);
- a count column is one class per value where it has at most ``bins`` distinct values, else binned as a
  continuous column.

Every indicator carries its column's weight (default 1): a stratifier that weighs columns (IS, SOIS, hybrid,
optisplit) gives a heavier column's distribution precedence, each as its docstring states. The kinds are never
guessed from the dtypes: a column is stratified only as the kind declared for it, and the declaration is in the
repr. scikit-learn routes the table to ``split`` as it routes ``groups`` (``strata``, requested through metadata
routing), so the estimator's ``y`` stays the labels it learns.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError

KINDS = ("labels", "multiclass", "count", "continuous")
DEFAULT_BINS = 5


@dataclass(frozen=True)
class Indicators:
    """A target table expanded: the 0/1 matrix (CSR int8, n × indicators), each indicator's weight, its name
    (``column=value`` or ``column∈[low, high)``), and the column and kind it comes from."""

    matrix: sp.csr_matrix
    weights: np.ndarray
    names: list
    columns: list
    kinds: list

    def __len__(self) -> int:
        return self.matrix.shape[0]

    def take(self, rows) -> Indicators:
        """These indicators for ``rows`` (e.g. the rows in a shuffled order), the bins as they were."""
        return Indicators(self.matrix[np.asarray(rows)], self.weights, self.names, self.columns, self.kinds)


class TargetTable:
    """Columns to stratify on, each of a declared kind, each with a weight (the module doc).

    Parameters
    ----------
    data : pandas.DataFrame or dict of equal-length 1-D arrays
        The columns, one row per example.
    kinds : dict of str to str
        Every column's kind: ``"labels"``, ``"multiclass"``, ``"count"`` or ``"continuous"``. A column left
        out is not stratified on.
    weights : dict of str to float, optional
        A column's weight (> 0; default 1 for every column).
    bins : int or dict of str to int or list of float, optional
        Quantile bins of the continuous and count columns (default 5), or a column's edges.

    Examples
    --------
    >>> t = TargetTable({"sex": ["f", "m", "f", "m"], "age": [31, 45, 52, 28]},
    ...                 kinds={"sex": "multiclass", "age": "continuous"}, weights={"age": 0.5}, bins=2)
    >>> t
    TargetTable(4 rows; sex: multiclass; age: continuous, 2 quantile bins, weight 0.5)
    >>> t.expand().names
    ['sex=f', 'sex=m', 'age∈[-inf, 38)', 'age∈[38, inf)']
    >>> t.expand().matrix.toarray().tolist()
    [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]]
    """

    def __init__(self, data, kinds: dict, weights: dict | None = None, bins=DEFAULT_BINS):
        self.data = data
        self.kinds = dict(kinds)
        self.weights = dict(weights or {})
        self.bins = bins
        self._check()

    def _column(self, name) -> np.ndarray:
        return np.asarray(self.data[name])

    def _names(self) -> list:
        return list(self.data.columns) if hasattr(self.data, "columns") else list(self.data)

    def _check(self) -> None:
        if not hasattr(self.data, "__getitem__") or isinstance(self.data, (np.ndarray, list, tuple)):
            raise StratbenchError(f"TargetTable: data must be a pandas DataFrame or a dict of columns, not "
                                  f"{type(self.data).__name__} (name each column, and declare its kind in kinds)")
        names = self._names()
        if not self.kinds:
            raise StratbenchError(f"TargetTable: kinds must declare at least one of the columns {names} "
                                  f"as one of {KINDS}")
        for name, kind in self.kinds.items():
            if name not in names:
                raise StratbenchError(f"TargetTable: kinds names {name!r}, which is not a column (columns: {names})")
            if kind not in KINDS:
                raise StratbenchError(f"TargetTable: column {name!r} is declared {kind!r}; a kind is one of {KINDS}")
        for name, weight in self.weights.items():
            if name not in self.kinds:
                raise StratbenchError(f"TargetTable: weights names {name!r}, which kinds does not declare")
            if not isinstance(weight, numbers.Real) or isinstance(weight, bool) or not np.isfinite(weight) or weight <= 0:
                raise StratbenchError(f"TargetTable: the weight of {name!r} must be a number > 0, got {weight!r}")
        for name in self.bins if isinstance(self.bins, dict) else ():
            if name not in self.kinds:
                raise StratbenchError(f"TargetTable: bins names {name!r}, which kinds does not declare")
        lengths = {name: len(self._column(name)) for name in self.kinds}
        if len(set(lengths.values())) > 1:
            raise StratbenchError(f"TargetTable: the declared columns differ in length: {lengths}")
        if not next(iter(lengths.values())):
            raise StratbenchError("TargetTable: the columns have no rows: one row per example")
        for name in self.kinds:
            self._bins_of(name)

    def _bins_of(self, name):
        """The column's bins: a count of quantile bins, or its edges (checked)."""
        bins = self.bins.get(name, DEFAULT_BINS) if isinstance(self.bins, dict) else self.bins
        if isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
            if bins < 2:
                raise StratbenchError(f"TargetTable: {name!r} needs at least 2 bins, got {bins}")
            return int(bins)
        edges = np.asarray(bins, dtype=float) if not isinstance(bins, (str, bool)) else np.array([np.nan])
        if edges.ndim != 1 or len(edges) < 1 or not np.all(np.isfinite(edges)) or np.any(np.diff(edges) <= 0):
            raise StratbenchError(f"TargetTable: the bins of {name!r} must be a count ≥ 2 or increasing finite "
                                  f"edges, got {bins!r}")
        return edges

    def __len__(self) -> int:
        return len(self._column(next(iter(self.kinds))))

    def __repr__(self) -> str:
        parts = []
        for name, kind in self.kinds.items():
            text = f"{name}: {kind}"
            if kind in ("continuous", "count"):
                bins = self._bins_of(name)
                text += f", {bins} quantile bins" if isinstance(bins, int) else f", edges {bins.tolist()}"
            if self.weights.get(name, 1) != 1:
                text += f", weight {self.weights[name]:g}"
            parts.append(text)
        return f"TargetTable({len(self)} rows; {'; '.join(parts)})"

    def bin_edges(self) -> dict:
        """The inner edges of every binned column (continuous, and counts with more than ``bins`` values):
        bin b holds the values in [edge_{b−1}, edge_b), the first from −∞, the last to +∞."""
        return {name: edges for name in self.kinds if (edges := self._edges(name)) is not None}

    def _edges(self, name) -> np.ndarray | None:
        kind = self.kinds[name]
        if kind not in ("continuous", "count"):
            return None
        values = self._numbers(name)
        bins = self._bins_of(name)
        if not isinstance(bins, int):
            return bins
        if kind == "count" and len(np.unique(values)) <= bins:
            return None
        return np.unique(np.quantile(values, np.arange(1, bins) / bins, method="linear"))

    def _numbers(self, name) -> np.ndarray:
        column = self._column(name)
        try:
            values = column.astype(float)
        except (TypeError, ValueError):
            raise StratbenchError(f"TargetTable: {name!r} is declared {self.kinds[name]} but holds values that are "
                                  f"not numbers (e.g. {column[0].item() if hasattr(column[0], 'item') else column[0]!r}); declare it "
                                  "multiclass") from None
        bad = ~np.isfinite(values)
        if bad.any():
            raise StratbenchError(f"TargetTable: {name!r} has a missing or infinite value in row "
                                  f"{int(np.flatnonzero(bad)[0])}; fill or drop it before stratifying")
        if self.kinds[name] == "count" and np.any((values < 0) | (values != np.round(values))):
            row = int(np.flatnonzero((values < 0) | (values != np.round(values)))[0])
            raise StratbenchError(f"TargetTable: {name!r} is declared count but row {row} holds {column[row].item()!r}; "
                                  "a count is an integer ≥ 0 (declare it continuous)")
        return values

    def expand(self) -> Indicators:
        """The table's columns as 0/1 indicators, in the order kinds declares them (the module doc)."""
        blocks, weights, names, columns, kinds = [], [], [], [], []
        for name, kind in self.kinds.items():
            codes, values = self._codes(name)
            block = sp.csr_matrix((np.ones(len(codes), dtype=np.int8), (np.arange(len(codes)), codes)),
                                  shape=(len(codes), len(values)))
            if kind == "labels":
                block, values = block[:, [1]], ["1"]  # the positives' indicator (_codes: classes "0" and "1")
            if kind != "labels":  # a value no row holds (a bin between given edges): nothing to stratify
                held = np.flatnonzero(np.bincount(block.indices, minlength=block.shape[1]) > 0)
                block, values = block[:, held], [values[i] for i in held]
            blocks.append(block)
            weights += [float(self.weights.get(name, 1.0))] * block.shape[1]
            names += [name if kind == "labels" else (f"{name}∈{v}" if v.startswith("[") else f"{name}={v}")
                      for v in values]
            columns += [name] * block.shape[1]
            kinds += [kind] * block.shape[1]
        matrix = sp.csr_matrix(sp.hstack(blocks, format="csr"), dtype=np.int8)
        matrix.sort_indices()
        return Indicators(matrix, np.array(weights), names, columns, kinds)

    def _codes(self, name) -> tuple[np.ndarray, list]:
        """Each row's class index in the column, and the classes' names."""
        kind = self.kinds[name]
        if kind == "labels":
            values = self._numbers(name) if self._column(name).dtype != bool else self._column(name).astype(float)
            bad = (values != 0) & (values != 1)
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise StratbenchError(f"TargetTable: {name!r} is declared labels but row {row} holds "
                                      f"{self._column(name)[row].item()!r}; a label column holds 0 and 1 (declare it "
                                      "multiclass or count)")
            return values.astype(np.int64), ["0", "1"]
        if kind == "multiclass":
            column = self._column(name)
            missing = [i for i, v in enumerate(column) if v is None or (isinstance(v, float) and np.isnan(v))]
            if missing:
                raise StratbenchError(f"TargetTable: {name!r} has a missing value in row {missing[0]}; fill it "
                                      "(e.g. with a class of its own) before stratifying")
            classes, codes = np.unique(column, return_inverse=True)
            return codes.ravel(), [str(c) for c in classes]
        edges = self._edges(name)
        values = self._numbers(name)
        if edges is None:  # a count with few values: one class per value
            classes, codes = np.unique(values.astype(np.int64), return_inverse=True)
            return codes.ravel(), [str(c) for c in classes]
        bounds = [-np.inf, *edges.tolist(), np.inf]
        return (np.searchsorted(edges, values, side="right"),
                [f"[{_number(a)}, {_number(b)})" for a, b in zip(bounds[:-1], bounds[1:])])


def _number(value: float) -> str:
    return f"{value:g}"


def with_strata(Y: sp.csr_matrix | None, strata) -> tuple[sp.csr_matrix, np.ndarray | None]:
    """The matrix a stratifier splits: the checked labels ``Y`` (or None) beside ``strata``'s indicators (a
    :class:`TargetTable`, or one already expanded), and
    every column's weight (labels 1), or None where every weight is 1 (the methods' published rules)."""
    if strata is None:
        return Y, None
    if not isinstance(strata, (TargetTable, Indicators)):
        kind = "a pandas DataFrame" if hasattr(strata, "columns") else type(strata).__name__
        raise StratbenchError(f"strata is {kind}: declare each column's kind, e.g. "
                              "strata=stratbench.labels.TargetTable(frame, kinds={'age': 'continuous', "
                              "'site': 'multiclass'}) (kinds: " + ", ".join(KINDS) + ")")
    table = strata.expand() if isinstance(strata, TargetTable) else strata
    if Y is not None and Y.shape[0] != table.matrix.shape[0]:
        raise StratbenchError(f"strata has {table.matrix.shape[0]} rows where y has {Y.shape[0]}: one row per example")
    weights = table.weights if Y is None else np.concatenate([np.ones(Y.shape[1]), table.weights])
    matrix = table.matrix if Y is None else sp.csr_matrix(sp.hstack([Y, table.matrix], format="csr"), dtype=np.int8)
    matrix.sort_indices()
    return matrix, None if np.all(weights == 1) else weights


def weighted_columns(strata) -> list:
    """The columns of ``strata`` (a :class:`TargetTable` or its indicators) weighing other than 1."""
    table = strata.expand() if isinstance(strata, TargetTable) else strata
    return sorted({column for column, weight in zip(table.columns, table.weights) if weight != 1})
