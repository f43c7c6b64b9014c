"""Atomic, deterministic writers: no partial file on failure, the usual permissions, same bytes twice."""
import os
import stat

import numpy as np
import pytest

from stratbench.io import atomic_path, save_npz, write_text


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half a table")
            raise RuntimeError("the job died")
    assert not target.exists() and list(target.parent.iterdir()) == []


def test_outputs_get_the_umask_permissions_not_mkstemps_0600(tmp_path):
    write_text(tmp_path / "a.md", "x")
    mode = stat.S_IMODE(os.stat(tmp_path / "a.md").st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_npz_bytes_do_not_depend_on_when_they_were_written(tmp_path):
    arrays = dict(fold=np.arange(10, dtype=np.int32) % 3, n_splits=np.int64(3))
    save_npz(tmp_path / "a.npz", **arrays)
    os.utime(tmp_path / "a.npz", (0, 0))
    save_npz(tmp_path / "b.npz", **arrays)
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    with np.load(tmp_path / "b.npz") as z:
        np.testing.assert_array_equal(z["fold"], arrays["fold"])


def test_write_rows_writes_what_pandas_writes(tmp_path):
    """A split job writes its small tables without pandas (stratbench.io.write_rows): byte for byte the
    CSV that write_csv (pandas) writes of the same rows, for the floats a fold-quality table holds."""
    import pandas as pd

    from stratbench.io import write_csv, write_rows

    values = [0.0, -0.0, 0.1, 1 / 3, 1e-05, 2.5e-18, 123456789.123, 1e16, 7.0, float("inf"), float("nan"), 0.0001]
    columns = ["dataset", "stratifier", "repeat", "measure", "value"]
    rows = [("emotions", "iterative", r, f"m{r}", v) for r, v in enumerate(values)] + [("a,b", 'q"s', 99, "x", 1.5)]
    write_rows(tmp_path / "a.csv", columns, rows)
    write_csv(tmp_path / "b.csv", pd.DataFrame(rows, columns=columns))
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
