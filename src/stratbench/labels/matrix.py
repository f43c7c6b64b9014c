"""The label matrix: checked once at the boundary, then CSR int8 0/1 everywhere.

scikit-learn (its ``check_array``) and pandas are imported only for a ``y`` that needs them: a split
job's sparse matrix, or a numeric numpy array, is checked with numpy and scipy alone."""

from __future__ import annotations

import sys

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError


def as_label_matrix(y) -> sp.csr_matrix:
    """``y`` as a CSR int8 0/1 matrix (n × L); a 1-d ``y`` is one label.

    Anything that is not a non-empty 1-d or 2-d array of 0/1 numbers stops with one ValueError that
    names the problem (ragged rows, strings, NaN, 3-d, no rows, a value other than 0 and 1). A matrix
    that is already one (CSR int8, canonical, every stored value 1) is returned as it is, so checking
    it again costs one pass over its values and no copy; any other input is copied, never modified.

    >>> as_label_matrix([[1, 0], [1, 1]]).toarray().tolist()
    [[1, 0], [1, 1]]
    """
    if _is_label_matrix(y):
        return y
    y = _plain(y)
    one_column = getattr(y, "ndim", None) == 1 or (isinstance(y, (list, tuple)) and not any(
        isinstance(r, (list, tuple, np.ndarray)) for r in y))
    if sp.issparse(y):
        Y = sp.csr_matrix(y, copy=True)
        if Y.dtype.kind not in "biuf":
            raise StratbenchError(f"y: a sparse label matrix of dtype {Y.dtype} (numbers 0/1 needed)")
        if Y.shape[0] == 0:
            raise StratbenchError("y has no rows")
        if Y.dtype.kind == "f" and not np.isfinite(Y.data).all():
            Y.sort_indices()
            at = int(np.flatnonzero(~np.isfinite(Y.data))[0])
            row = int(np.searchsorted(Y.indptr, at, side="right") - 1)
            raise StratbenchError(f"y contains {_name(Y.data[at])} at row {row}, column {int(Y.indices[at])}: a label matrix "
                                  "holds 0/1 only")
    else:
        if isinstance(y, (list, tuple)) and any(isinstance(r, (list, tuple, np.ndarray)) for r in y):
            lengths = {len(r) if isinstance(r, (list, tuple, np.ndarray)) else 1 for r in y}
            if len(lengths) > 1:
                raise StratbenchError(f"y is ragged: its rows have {sorted(lengths)} entries")
        a = _numeric_array(y)
        if a.dtype == np.float16:  # scipy.sparse has no float16; every 0/1 value is exact in float32
            a = a.astype(np.float32)
        Y = sp.csr_matrix(a.reshape(len(a), -1))
    Y.sum_duplicates()
    bad = (Y.data != 0) & (Y.data != 1)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        row, col = int(np.searchsorted(Y.indptr, at, side="right") - 1), int(Y.indices[at])
        value = np.format_float_positional(float(Y.data[at]), trim='-')
        if one_column:
            values = np.unique(Y.toarray())
            classes = ", ".join(np.format_float_positional(float(v), trim="-") for v in values[:6])
            classes += ", …" if len(values) > 6 else ""
            raise StratbenchError(f"y is a 1-d vector of classes (values {classes}), not a label matrix: a multi-label "
                                  "y is n examples × L labels, one 0/1 column per label. For one class per example use "
                                  "sklearn.model_selection.StratifiedKFold; to make label columns of class values, "
                                  "sklearn.preprocessing.LabelBinarizer().fit_transform(y)")
        raise StratbenchError(f"label column {col} is not 0/1 (value {value} at row {row}): a label matrix holds 0/1 only"
                              + _what_it_is(Y))
    Y.eliminate_zeros()
    Y = Y.astype(np.int8)
    Y.sort_indices()
    return Y


def _what_it_is(Y: sp.csr_matrix) -> str:
    """What scikit-learn's ``type_of_target`` calls a 2-d ``y`` of finite numbers that are not all 0/1 (its rule:
    whole numbers are classes, others continuous; ``-multioutput`` for more than one column, and one column of at
    most two values ``binary``), named from the stored values of any size, and how to stratify it."""
    whole = bool(np.all(Y.data == np.round(Y.data)))
    if Y.shape[1] > 1:
        kind = "multiclass-multioutput" if whole else "continuous-multioutput"
    else:
        nonzero = Y.data[Y.data != 0]
        values = len(np.unique(nonzero)) + (len(nonzero) < Y.shape[0])  # with its zeros, stored or not
        kind = "continuous" if not whole else "binary" if values <= 2 else "multiclass"
    how = {"multiclass-multioutput": ": to keep each output's class shares, declare it, "
                                     "stratbench.labels.one_hot_outputs(y)",
           "continuous-multioutput": ": bin each column first (pandas.qcut), then "
                                     "stratbench.labels.one_hot_outputs(binned)"}.get(kind, "")
    return f"; scikit-learn's type_of_target calls this y {kind!r}{how}"


def one_hot_outputs(y) -> sp.csr_matrix:
    """A multiclass-multioutput ``y`` (n × m: a class per example in each of m outputs; numbers or strings; a 1-d
    ``y`` is one output) as a 0/1 label matrix with a column per (output, class), outputs in order and each one's
    classes sorted (scikit-learn's ``OneHotEncoder``): what a stratifier splits to keep every output's class shares
    (each class is a label, and the classes of an output exclude one another). A missing class (None, NaN), or an
    output mixing numbers and strings, stops naming the output.

    >>> one_hot_outputs([[0, "a"], [2, "b"], [0, "b"]]).toarray().tolist()
    [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1]]
    """
    from sklearn.preprocessing import OneHotEncoder

    a = np.asarray(y, dtype=object)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2 or a.shape[0] == 0:
        raise StratbenchError(f"one_hot_outputs takes n examples × m outputs (a class in each), got shape {a.shape}")
    for j in range(a.shape[1]):
        values = a[:, j]
        missing = [i for i, v in enumerate(values) if v is None or (isinstance(v, float) and np.isnan(v))]
        if missing:
            raise StratbenchError(f"output {j} has no class at row {missing[0]}: give every example a class in every "
                                  "output (a missing one is not a class)")
        if 0 < sum(isinstance(v, str) for v in values) < len(values):
            raise StratbenchError(f"output {j} mixes classes that do not compare (e.g. numbers and strings)")
    return sp.csr_matrix(OneHotEncoder(dtype=np.int8).fit_transform(a))


def _numeric_array(y) -> np.ndarray:
    """``y`` as a 1-d or 2-d numeric array with rows: a numeric numpy array of finite values as it is,
    anything else through scikit-learn's ``check_array`` (imported here, for such a ``y`` only)."""
    if type(y) is np.ndarray and y.ndim in (1, 2) and y.shape[0] > 0 and (
            y.dtype.kind in "biu" or (y.dtype.kind == "f" and y.dtype != np.float16 and np.isfinite(y).all())):
        return y
    from sklearn.utils import check_array

    try:
        return check_array(y, ensure_2d=False, dtype="numeric", allow_nd=False, ensure_min_samples=1,
                           ensure_min_features=0, input_name="y")
    except ValueError as exc:
        where = _nonfinite_cell(y) if "NaN" in str(exc) or "infinity" in str(exc) else None
        if where is not None:
            raise StratbenchError(f"y contains {where[2]} at row {where[0]}, column {where[1]}: a label matrix holds "
                                  "0/1 only (a missing label is not a 0)") from None
        raise StratbenchError(f"y is not a label matrix: {exc}".replace("..", ".")) from None


def _nonfinite_cell(y) -> tuple[int, int, str] | None:
    """(row, column, value) of the first NaN or infinity of ``y``, where ``y`` reads as floats."""
    try:
        a = np.asarray(y.to_numpy(dtype=float, na_value=np.nan) if hasattr(y, "to_numpy") else y, dtype=float)
    except (TypeError, ValueError):
        return None
    a = a.reshape(len(a), -1)
    cells = np.argwhere(~np.isfinite(a))
    if not len(cells):
        return None
    row, col = (int(v) for v in cells[0])
    return row, col, _name(a[row, col])


def _name(value: float) -> str:
    return "NaN" if np.isnan(value) else "infinity" if value > 0 else "-infinity"


LABEL_SETS = ("declare it, stratbench.labels.from_label_lists(y) (a 0/1 column per label), or use "
              "sklearn.preprocessing.MultiLabelBinarizer().fit_transform(y), or pandas.get_dummies for one categorical "
              "column")


def from_label_lists(column, classes=None) -> sp.csr_matrix:
    """A column of label lists (a list of lists or sets, a pandas Series of them, a Hugging Face ``datasets``
    ``Sequence`` column) as a 0/1 label matrix, a column per label (scikit-learn's ``MultiLabelBinarizer``):
    ``classes`` in their order, else every label found, sorted. An empty list is a row without labels; a label
    outside ``classes``, or a row that is not a list (a string would be read as its letters), stops naming its row.

    >>> from_label_lists([["b", "a"], [], ["b"]]).toarray().tolist()
    [[1, 1], [0, 0], [0, 1]]
    """
    from sklearn.preprocessing import MultiLabelBinarizer

    rows = list(column.tolist() if hasattr(column, "tolist") else column)
    known = None if classes is None else set(classes)
    for i, labels in enumerate(rows):
        if isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__"):
            raise StratbenchError(f"row {i} of the label lists is {labels!r}, not a list of labels (an empty list is "
                                  "a row without labels)")
        unknown = [] if known is None else [label for label in labels if label not in known]
        if unknown:
            raise StratbenchError(f"row {i} has label {unknown[0]!r}, which classes does not name")
    try:
        Y = MultiLabelBinarizer(classes=classes, sparse_output=True).fit_transform(rows)
    except TypeError:
        raise StratbenchError("the label lists mix labels that do not sort together (e.g. numbers and strings): "
                              "give classes, in the order wanted") from None
    return sp.csr_matrix(Y, dtype=np.int8)


def _plain(y):
    """``y`` in a form :func:`sklearn.utils.check_array` reads: a pandas sparse frame as scipy.sparse,
    ``np.matrix`` as an array, numeric categorical columns as their values; label sets and
    non-numeric categories stop with a message naming MultiLabelBinarizer."""
    if isinstance(y, np.matrix):
        return np.asarray(y)
    if isinstance(y, (list, tuple)) and any(isinstance(r, (set, frozenset, str)) or (
            isinstance(r, (list, tuple)) and any(isinstance(v, str) for v in r)) for r in y):
        raise StratbenchError(f"y holds label names or label sets (strings), not a 0/1 matrix: {LABEL_SETS}")
    pd = sys.modules.get("pandas")  # a pandas y exists only where pandas was imported
    if pd is None:
        return y
    if isinstance(y, pd.Series) and y.dtype == object and len(y) and any(
            isinstance(v, (list, tuple, set, frozenset, np.ndarray)) for v in y.iloc[:100]):
        raise StratbenchError(f"y is a column of label lists, not a 0/1 matrix: {LABEL_SETS}")
    if isinstance(y, pd.Series):
        y = y.to_frame()
    if not isinstance(y, pd.DataFrame):
        return y
    kinds = [type(t) for t in y.dtypes]
    if kinds and all(k is pd.SparseDtype for k in kinds):
        return y.sparse.to_coo()
    columns = {}
    for name, dtype in y.dtypes.items():
        if isinstance(dtype, pd.SparseDtype):
            columns[name] = y[name].sparse.to_dense()
        elif isinstance(dtype, pd.CategoricalDtype):
            if dtype.categories.dtype.kind not in "biuf":
                raise StratbenchError(f"y: column {name!r} is categorical with categories "
                                      f"{list(dtype.categories[:3])}…, not 0/1: {LABEL_SETS}")
            columns[name] = y[name].astype(dtype.categories.dtype)
    return pd.DataFrame({name: columns.get(name, y[name]) for name in y.columns}) if columns else y


def _is_label_matrix(y) -> bool:
    """Whether ``y`` is already what :func:`as_label_matrix` returns."""
    return (type(y) is sp.csr_matrix and y.dtype == np.int8 and y.shape[0] > 0 and y.has_canonical_format
            and bool((y.data == 1).all()))


def labelset_ids(Y: sp.csr_matrix) -> np.ndarray:
    """Integer id of each row's labelset (the empty labelset is a labelset too), in first-seen order.

    >>> labelset_ids(as_label_matrix([[1, 0], [0, 0], [1, 0], [1, 1]])).tolist()
    [0, 1, 0, 2]
    """
    Y = sp.csr_matrix(Y)
    Y.sort_indices()
    keys = [Y.indices[a:b].tobytes() for a, b in zip(Y.indptr[:-1], Y.indptr[1:])]
    ids: dict[bytes, int] = {}
    return np.fromiter((ids.setdefault(k, len(ids)) for k in keys), dtype=np.int64, count=len(keys))


def apportion(n: int, ratios: np.ndarray) -> np.ndarray:
    """Integer subset sizes summing to n, proportional to ``ratios`` (largest remainder; ties to the
    lower index, so equal ratios give scikit-learn ``KFold``'s sizes: the first n mod k one larger).

    >>> apportion(10, [1 / 3, 1 / 3, 1 / 3]).tolist()
    [4, 3, 3]
    """
    exact = n * np.asarray(ratios, dtype=float)
    sizes = np.floor(exact + 1e-9).astype(np.int64)
    short = n - sizes.sum()
    order = np.argsort(-(exact - sizes), kind="stable")
    sizes[order[:short]] += 1
    return sizes
