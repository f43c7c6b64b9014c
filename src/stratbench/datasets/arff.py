"""Reader for MULAN multi-label data: ARFF (dense and sparse rows) plus the XML label list.

ARFF as Weka writes it: ``@relation``, ``@attribute <name> <type>`` (numeric/real/integer or a
nominal ``{v1, v2, …}``), ``@data``, then rows that are either dense (``v1,v2,…``) or sparse
(``{index value, …}``, omitted values are 0). Names may be quoted with ``'`` or ``"`` and contain
backslash escapes (birds: ``'Swainson\\'s Thrush'``). ``%`` starts a comment; ``?`` is missing.
Nominal feature values are encoded as the index of the value; label attributes must hold 0/1.
"""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError

NUMERIC_TYPES = {"numeric", "real", "integer"}


class ArffError(StratbenchError):
    """A malformed ARFF or label file; the message names the file and line."""


@dataclass
class Attribute:
    name: str
    values: list[str] | None  # None for numeric attributes

    @property
    def is_numeric(self) -> bool:
        return self.values is None


def _read_quoted(text: str, pos: int) -> tuple[str, int]:
    """Read a quoted token starting at ``text[pos]``; return (unescaped token, position after it)."""
    quote = text[pos]
    out = []
    i = pos + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == quote:
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    raise ValueError("unterminated quoted name")


def _read_token(text: str, pos: int) -> tuple[str, int]:
    """Read one name (quoted or bare) starting at ``pos`` (leading blanks skipped)."""
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    if pos >= len(text):
        raise ValueError("missing name")
    if text[pos] in "'\"":
        return _read_quoted(text, pos)
    end = pos
    while end < len(text) and text[end] not in " \t{":
        end += 1
    return text[pos:end], end


def _split_values(text: str) -> list[str]:
    """Split a comma-separated list that may contain quoted items; items are unquoted and stripped."""
    if "'" not in text and '"' not in text:
        return [v.strip() for v in text.split(",")]
    reader = csv.reader([text], quotechar="'", escapechar="\\", skipinitialspace=True)
    return [v.strip() for v in next(reader)]


def _parse_attribute(line: str) -> Attribute:
    name, pos = _read_token(line, len("@attribute"))
    spec = line[pos:].strip()
    if spec.startswith("{"):
        if not spec.endswith("}"):
            raise ValueError(f"nominal attribute {name!r} has no closing brace")
        return Attribute(name, _split_values(spec[1:-1]))
    kind = spec.split()[0].lower() if spec else ""
    if kind in NUMERIC_TYPES:
        return Attribute(name, None)
    raise ValueError(f"attribute {name!r} has unsupported type {spec!r} (numeric or nominal expected)")


def read_header(path: Path) -> tuple[list[Attribute], int]:
    """Parse the header of ``path``; return the attributes and the line number of ``@data``."""
    attributes: list[Attribute] = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            low = line[:10].lower()
            if low.startswith("@attribute"):
                try:
                    attributes.append(_parse_attribute(line))
                except ValueError as exc:
                    raise ArffError(f"{path}:{lineno}: malformed @attribute line: {exc}") from None
            elif low.startswith("@data"):
                if not attributes:
                    raise ArffError(f"{path}:{lineno}: @data before any @attribute")
                return attributes, lineno
            elif low.startswith("@relation"):
                continue
            else:
                raise ArffError(f"{path}:{lineno}: unexpected header line {line[:60]!r}")
    raise ArffError(f"{path}: no @data section")


def read_label_names(path: str | Path) -> list[str]:
    """Label names of a MULAN XML label file, in document order (hierarchies are flattened)."""
    path = Path(path)
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise ArffError(f"{path}: cannot read the label XML: {exc}") from None
    names = [el.get("name") for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "label"]
    if not names or any(n is None for n in names):
        raise ArffError(f"{path}: no <label name=…> elements found")
    if len(set(names)) != len(names):
        raise ArffError(f"{path}: duplicate label names")
    return names


@dataclass
class ArffTable:
    """The raw content of one ARFF file: values by row as COO triplets (0s omitted)."""

    attributes: list[Attribute]
    rows: np.ndarray
    cols: np.ndarray
    vals: np.ndarray
    n_rows: int
    sparse: bool


def _as_number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _converter(attr: Attribute):
    """Value parser of one attribute: numeric text, or a nominal value.

    Nominal values that are all numbers (``{0,1}``, flags' ``{1,2,3}``) keep their number, so a
    label declared ``{1,0}`` still reads 1 as 1; other nominal values become their index.
    """
    if attr.is_numeric:
        return float
    numbers = [_as_number(v) for v in attr.values]
    if all(x is not None for x in numbers):
        lookup = dict(zip(attr.values, numbers))
    else:
        lookup = {v: float(i) for i, v in enumerate(attr.values)}
    return lookup.__getitem__


def read_arff(path: str | Path) -> ArffTable:
    """Read the data of an ARFF file into COO triplets (missing values become NaN)."""
    path = Path(path)
    attributes, data_line = read_header(path)
    n_attr = len(attributes)
    convert = [_converter(a) for a in attributes]
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    n_rows = 0
    sparse_rows = 0
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            if lineno <= data_line:
                continue
            line = raw.strip()
            if not line or line.startswith("%"):
                continue
            try:
                if line.startswith("{"):
                    if not line.endswith("}"):
                        raise ValueError("sparse row without closing brace")
                    sparse_rows += 1
                    body = line[1:-1].strip()
                    seen = set()
                    for item in body.split(",") if body else []:
                        idx_text, _, value = item.strip().partition(" ")
                        j = int(idx_text)
                        if not 0 <= j < n_attr:
                            raise ValueError(f"attribute index {j} out of range 0..{n_attr - 1}")
                        if j in seen:  # Weka rejects it; summing the two values would be silent
                            raise ValueError(f"attribute index {j} appears twice in a sparse row")
                        seen.add(j)
                        value = value.strip().strip("'\"")
                        v = np.nan if value == "?" else convert[j](value)
                        if v != 0:
                            rows.append(n_rows)
                            cols.append(j)
                            vals.append(v)
                else:
                    items = _split_values(line)
                    if len(items) != n_attr:
                        raise ValueError(f"{len(items)} values, {n_attr} attributes declared")
                    for j, value in enumerate(items):
                        v = np.nan if value == "?" else convert[j](value)
                        if v != 0:
                            rows.append(n_rows)
                            cols.append(j)
                            vals.append(v)
            except (ValueError, KeyError) as exc:
                what = f"value {exc} is not a declared nominal value" if isinstance(exc, KeyError) else exc
                raise ArffError(f"{path}:{lineno}: malformed data row: {what}") from None
            n_rows += 1
    return ArffTable(
        attributes,
        np.asarray(rows, dtype=np.int64),
        np.asarray(cols, dtype=np.int64),
        np.asarray(vals, dtype=np.float64),
        n_rows,
        sparse_rows > 0,
    )


def read_mulan(arff_paths: list[str | Path], xml_path: str | Path):
    """Read one MULAN dataset (one or more ARFF files, concatenated in order) and its label XML.

    Returns ``(X, Y, label_names, feature_names)``: X is CSR float32 when the ARFF rows are sparse,
    dense float32 otherwise; Y is CSR int8 (n × L, values 0/1) in the order of the XML label list.
    """
    label_names = read_label_names(xml_path)
    tables = [read_arff(p) for p in arff_paths]
    names = [a.name for a in tables[0].attributes]
    for p, t in zip(arff_paths[1:], tables[1:]):
        if [a.name for a in t.attributes] != names:
            raise ArffError(f"{p}: attributes differ from those of {arff_paths[0]}")
    position = {n: j for j, n in enumerate(names)}
    missing = [n for n in label_names if n not in position]
    if missing:
        raise ArffError(f"{arff_paths[0]}: labels of {xml_path} not among its attributes: {missing[:5]}")
    label_cols = np.array([position[n] for n in label_names], dtype=np.int64)
    is_label = np.zeros(len(names), dtype=bool)
    is_label[label_cols] = True
    feature_cols = np.flatnonzero(~is_label)
    n_total = sum(t.n_rows for t in tables)
    offsets = np.cumsum([0] + [t.n_rows for t in tables])
    rows = np.concatenate([t.rows + off for t, off in zip(tables, offsets)])
    cols = np.concatenate([t.cols for t in tables])
    vals = np.concatenate([t.vals for t in tables])
    full = sp.csr_matrix((vals, (rows, cols)), shape=(n_total, len(names)))
    full.sort_indices()

    Y = full[:, label_cols].tocsr()
    bad = (Y.data != 1) & (Y.data != 0)
    if bad.any():
        r = np.searchsorted(Y.indptr, np.flatnonzero(bad)[0], side="right") - 1
        c = Y.indices[np.flatnonzero(bad)[0]]
        file_idx = int(np.searchsorted(offsets, r, side="right") - 1)
        raise ArffError(
            f"{arff_paths[file_idx]}: label {label_names[c]!r} is not 0/1 "
            f"(value {float(Y.data[bad][0]):g} in data row {r - offsets[file_idx] + 1})"
        )
    Y.eliminate_zeros()
    Y = Y.astype(np.int8)
    Xs = full[:, feature_cols].tocsr().astype(np.float32)
    sparse = any(t.sparse for t in tables)
    X = Xs if sparse else Xs.toarray()
    return X, Y, label_names, [names[j] for j in feature_cols]
