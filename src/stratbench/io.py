"""Atomic, byte-deterministic writers for the pipeline's outputs, and the checked reader of its fold files.

Every output is written to a temporary file in the destination folder and renamed over the target,
so an interrupted job never leaves a partial file; the next write of the same file removes the
temporary file a killed writer (SIGKILL) could not. ``.npz`` files are written with a fixed zip
timestamp (``numpy.savez`` stamps the current time), so the same arrays give the same bytes.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import io
import json
import os
import re
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from stratbench import StratbenchError

_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


@functools.cache
def _umask() -> int:
    """The process's umask (read once; reading it means setting it, so do it on first use only)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path beside ``path``; rename it onto ``path`` if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):  # left by a killed writer (SIGKILL)
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; outputs get the usual permissions
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


WORKDIR_MEMO = Path(".snakemake") / "stratbench"  # answers kept in Snakemake's working folder between plans


def memo_file(kind: str, key, source: bytes = b"") -> Path:
    """Where an answer for ``key`` (JSON-able) is kept in the working folder: ``.snakemake/stratbench/<kind>/``
    and the sha256 of the key and ``source`` (the code that works the answer out, so that an edit to it
    misses)."""
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode() + source).hexdigest()
    return WORKDIR_MEMO / kind / digest


def remember(path: Path, text: str) -> None:
    """Keep ``text`` at ``path``, atomically; a folder that cannot be written keeps nothing (it is worked
    out again next time)."""
    with contextlib.suppress(OSError), atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def save_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write ``arrays`` as an uncompressed-deterministic ``.npz`` (deflate, fixed timestamp), atomically."""
    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(arrays):
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue())


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) atomically."""
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")


def write_rows(path: str | os.PathLike, columns: list[str], rows: list[tuple]) -> None:
    """Write ``rows`` under the header ``columns`` as CSV atomically, byte for byte as :func:`write_csv` writes
    the same table (floats as Python's shortest round-trip repr, NaN empty, text quoted where it holds a
    comma, quote or line break), without pandas: a split job's small tables.

    >>> import pandas as pd, tempfile
    >>> rows = [("emotions", 0, 0.1, float("nan")), ("a,b", 1, 1e-05, 2.0)]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_rows(f"{d}/a.csv", ["d", "r", "x", "y"], rows)
    ...     write_csv(f"{d}/b.csv", pd.DataFrame(rows, columns=["d", "r", "x", "y"]))
    ...     Path(f"{d}/a.csv").read_bytes() == Path(f"{d}/b.csv").read_bytes()
    True
    """
    def cell(v) -> str:
        if isinstance(v, float | np.floating):
            return "" if v != v else repr(float(v))
        text = str(v)
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n\r') else text

    lines = [",".join(cell(c) for c in columns), *(",".join(cell(v) for v in row) for row in rows)]
    write_text(path, "\n".join(lines) + "\n")


def write_csv(path: str | os.PathLike, frame) -> None:
    """Write a pandas DataFrame as CSV atomically; floats use Python's shortest round-trip repr; gzip-compressed
    where ``path`` ends in .gz, with no time stamp and no file name in its header, so that the same table gives the
    same bytes."""
    with atomic_path(path) as tmp:
        if str(path).endswith(".gz"):
            import gzip

            with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                gz.write(frame.to_csv(index=False, lineterminator="\n").encode("utf-8"))
        else:
            frame.to_csv(tmp, index=False, lineterminator="\n")


def read_folds(path, n_rows: int) -> tuple[np.ndarray, int]:
    """(fold ids, k) of a fold file, checked against its dataset: one id per row, every test fold and
    every training part non-empty — else one message naming the file (never scikit-learn's "Found
    array with 0 sample(s)" from inside a job)."""
    with np.load(path) as z:
        folds, k = z["fold"].astype(np.int64), int(z["n_splits"])
    if folds.shape != (n_rows,):
        raise StratbenchError(f"{path}: {folds.shape[0]} fold ids for a dataset of {n_rows} rows")
    sizes = np.bincount(folds[folds >= 0], minlength=k)
    if folds.min() < 0 or folds.max() >= k or not sizes.all() or (sizes == n_rows).any():
        empty = [j for j in range(k) if sizes[j] in (0, n_rows)]
        raise StratbenchError(f"{path}: fold ids must be 0…{k - 1} with no fold empty and none holding every row; "
                              f"sizes {sizes.tolist()} (folds {empty})")
    return folds, k


OPENML_HEADER = ("@RELATION Split\n\n@ATTRIBUTE type {TRAIN,TEST}\n@ATTRIBUTE rowid INTEGER\n@ATTRIBUTE repeat INTEGER\n"
                 "@ATTRIBUTE fold INTEGER\n\n@DATA\n")


def write_openml_splits(path: str | os.PathLike, folds: dict[int, np.ndarray]) -> None:
    r"""The k-fold splits of every repeat (``{repeat: the test fold of every row}``) as an OpenML split file
    (ARFF: type TRAIN/TEST, rowid, repeat, fold; each row once per fold, rows counted from 0, repeats and
    folds in order), the layout OpenML's tasks and openml-python read, written atomically.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_openml_splits(f"{d}/s.arff", {0: np.array([1, 0, 1])})
    ...     print(Path(f"{d}/s.arff").read_text().split("@DATA\n")[1], end="")
    TRAIN,0,0,0
    TRAIN,2,0,0
    TEST,1,0,0
    TRAIN,1,0,1
    TEST,0,0,1
    TEST,2,0,1
    """
    lines = [OPENML_HEADER]
    for repeat in sorted(folds):
        ids = np.asarray(folds[repeat])
        for fold in range(int(ids.max()) + 1):
            train, test = np.flatnonzero(ids != fold), np.flatnonzero(ids == fold)
            lines += [f"TRAIN,{row},{repeat},{fold}\n" for row in train]
            lines += [f"TEST,{row},{repeat},{fold}\n" for row in test]
    write_text(path, "".join(lines))


def read_openml_splits(path: str | os.PathLike, n_rows: int | None = None) -> dict[int, np.ndarray]:
    """``{repeat: the test fold of every row}`` of an OpenML split file; a file whose folds are not a partition
    of the rows (a row in no test fold or in two, rows beyond ``n_rows``) stops with a message naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StratbenchError(f"{path}: cannot read the split file: {exc.strerror or exc}") from None
    head, sep, body = text.partition("@DATA")
    names = re.findall(r"@ATTRIBUTE\s+(\w+)", head, flags=re.IGNORECASE)
    if not sep or not {"type", "rowid", "repeat", "fold"} <= {n.lower() for n in names}:
        raise StratbenchError(f"{path}: not an OpenML split file (ARFF with the attributes type, rowid, repeat, fold)")
    column = {n.lower(): i for i, n in enumerate(names)}
    tests: dict[int, list[tuple[int, int]]] = {}
    for line in body.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        cells = [c.strip() for c in line.split(",")]
        if cells[column["type"]].upper() == "TEST":
            tests.setdefault(int(cells[column["repeat"]]), []).append((int(cells[column["rowid"]]),
                                                                         int(cells[column["fold"]])))
    out = {}
    for repeat, pairs in sorted(tests.items()):
        rows = np.array([r for r, _ in pairs])
        n = n_rows if n_rows is not None else int(rows.max()) + 1
        if rows.min() < 0 or rows.max() >= n or len(np.unique(rows)) != len(rows) or len(rows) != n:
            raise StratbenchError(f"{path}: repeat {repeat}'s test folds are not a partition of the {n} rows (each row "
                                  "in exactly one test fold)")
        ids = np.empty(n, dtype=np.int64)
        ids[rows] = [f for _, f in pairs]
        out[repeat] = ids
    return out
