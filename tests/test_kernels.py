"""The kernels compiled ahead of time (``stratbench._aot``) against the same sources under numba's JIT, and how
stratbench chooses between them (:mod:`stratbench._kernels._compile`)."""

import os
import subprocess
import sys

import numpy as np
import pytest

from stratbench._kernels import _compile

AOT = pytest.mark.skipif(_compile.MODE != "aot", reason=f"the kernels run under the JIT here ({_compile.WHY_JIT})")

DIGESTS = """
import hashlib, json, warnings
import numpy as np
from stratbench import stratifiers
from stratbench._kernels import _compile
warnings.simplefilter("ignore")
out = {"mode": _compile.MODE}
for seed in range(2):
    rng = np.random.default_rng(seed)
    Y = (rng.random((300, 8)) < 0.25).astype(np.int8)
    groups = rng.integers(0, 100, 300)
    for name in ("hybrid", "iterative", "sois", "optisplit_rld", "optisplit_dcp"):
        folds = stratifiers.get(name, n_splits=5, random_state=seed).fold_ids(Y)
        out[f"{name} {seed}"] = hashlib.sha1(folds.astype(np.int64).tobytes()).hexdigest()
    for name in ("hybrid", "iterative"):
        folds = stratifiers.get(name, n_splits=4, random_state=seed).fold_ids(Y, groups)
        out[f"{name}-groups {seed}"] = hashlib.sha1(folds.astype(np.int64).tobytes()).hexdigest()
    for name, kw in (("iterative", {"rules": "skmultilearn"}), ("sois", {"select": "pairs_first"}),
                     ("hybrid", {"polish": None, "keep_pairs": True})):
        folds = stratifiers.get(name, n_splits=3, random_state=seed, **kw).fold_ids(Y)
        out[f"{name} {kw} {seed}"] = hashlib.sha1(folds.astype(np.int64).tobytes()).hexdigest()
from stratbench.datasets.synthetic import generate
out["synthetic"] = hashlib.sha1(generate("s", 200, 6, 4, 2.0, 0.2, seed=3).Y.toarray().tobytes()).hexdigest()
from stratbench.measures.fold_quality import fold_quality
out["fold quality"] = repr(sorted(fold_quality(Y, folds, 3).items()))
import scipy.sparse as sp
from stratbench.labels import label_combinations
wide = (np.random.default_rng(4).random((400, 5000)) < 0.002).astype(np.int8)
wide[:, 7] = 1  # a first label with a long bucket: sorted by argsort, not by insertion
comb = label_combinations(sp.csr_matrix(wide))  # 5000² keys: the sort, not the table
out["combinations"] = hashlib.sha1(b"".join(a.tobytes() for a in (comb.row_combos, comb.first, comb.second,
                                                                   comb.first_seen))).hexdigest()
print(json.dumps(out))
"""


def _digests(mode: str) -> dict:
    import json

    env = {**os.environ, "STRATBENCH_KERNELS": mode}
    out = subprocess.run([sys.executable, "-c", DIGESTS], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@AOT
def test_the_compiled_module_splits_as_numbas_jit_of_the_same_sources():
    """Every compiled method (plain, grouped, its variants), the synthetic generator and the fold measures give the
    same bytes ahead of time as under numba's JIT, and so do the label combinations of a label space sorted, not tabled."""
    pytest.importorskip("numba")
    aot, jit = _digests("aot"), _digests("jit")
    assert (aot.pop("mode"), jit.pop("mode")) == ("aot", "jit")
    assert aot == jit and len(aot) == 23


@AOT
def test_a_compiled_kernel_checks_what_it_is_given():
    """A read-only argument of another integer width or layout is converted; one the kernel writes into must
    be exactly what it was compiled for; floats where integers are expected are refused, as is a wrong count."""
    from stratbench._kernels.ld_polish import sort_segments
    from stratbench.labels import fold_counts

    row_ptr, row_combos = np.array([0, 1, 3]), np.array([0, 0, 1], dtype=np.int32)
    counts = fold_counts(row_ptr, row_combos.astype(np.int16), np.array([1, 0], dtype=np.int8), 2, 2)
    assert counts.tolist() == [[1, 1], [1, 0]]
    assert fold_counts(row_ptr[::1], row_combos, [1, 0], 2, 2).tolist() == [[1, 1], [1, 0]]
    with pytest.raises(TypeError, match=r"fold_counts\(\): argument 2 must be int64, got float64"):
        fold_counts(row_ptr, row_combos, np.array([1.0, 0.0]), 2, 2)
    with pytest.raises(TypeError, match=r"fold_counts\(\) takes 5 arguments, got 4"):
        fold_counts(row_ptr, row_combos, np.array([1, 0]), 2)
    values = np.array([3, 1, 2, 9, 7])
    sort_segments(np.array([0, 3, 5]), values)
    assert values.tolist() == [1, 2, 3, 7, 9]
    with pytest.raises(TypeError, match=r"sort_segments\(\): argument 1 must be a C-contiguous int64 array .*writes"):
        sort_segments(np.array([0, 3, 5]), values.astype(np.int32))


def test_a_kernel_called_by_name_takes_one_record_of_every_parameter():
    """``_compile.call``: the arguments by name, flattened in the kernel's order; a missing or unknown name is a
    TypeError naming it, before the kernel runs."""
    from stratbench._kernels.combinations import fold_counts

    named = dict(row_ptr=np.array([0, 1, 3]), row_combos=np.array([0, 0, 1], dtype=np.int32), fold=np.array([1, 0]),
                 k=2, n_combos=2)
    assert _compile.call(fold_counts, **dict(reversed(named.items()))).tolist() == [[1, 1], [1, 0]]
    assert _compile.record(fold_counts)._fields == ("row_ptr", "row_combos", "fold", "k", "n_combos")
    with pytest.raises(TypeError, match="n_combos"):
        _compile.call(fold_counts, **{k: v for k, v in named.items() if k != "n_combos"})
    with pytest.raises(TypeError, match="folds"):
        _compile.call(fold_counts, **named, folds=2)


def test_the_kernels_choose_the_compiled_module_only_where_it_is_current(monkeypatch):
    """Ahead of time where the compiled module's digest is that of the installed sources; under the JIT, with
    the reason, where it is older or absent or the JIT is asked for; ``aot`` without a current module and an
    unknown choice are refused with what to do."""
    monkeypatch.setenv("STRATBENCH_KERNELS", "jit")
    assert _compile._choose() == ("jit", None, "STRATBENCH_KERNELS=jit")
    monkeypatch.setenv("STRATBENCH_KERNELS", "fast")
    with pytest.raises(ImportError, match="STRATBENCH_KERNELS='fast': set it to one of auto, aot, jit"):
        _compile._choose()
    monkeypatch.setenv("STRATBENCH_KERNELS", "auto")
    monkeypatch.setattr(_compile, "source_digest", lambda: 12345)  # the sources edited since the build
    mode, module, why = _compile._choose()
    assert (mode, module) == ("jit", None)
    assert why.startswith(("the compiled kernels (_aot.", "no compiled kernels in this installation"))
    monkeypatch.setenv("STRATBENCH_KERNELS", "aot")
    with pytest.raises(ImportError, match="STRATBENCH_KERNELS=aot, but "):
        _compile._choose()


def test_the_digest_covers_every_kernel_module_and_changes_with_any(tmp_path, monkeypatch):
    """The digest reads every kernel module (not ``__init__`` nor the chooser itself): a byte changed in one
    changes it."""
    for name in ("common.py", "iterative.py", "_compile.py", "__init__.py"):
        (tmp_path / name).write_text(f"# {name}\n")
    monkeypatch.setattr(_compile, "HERE", tmp_path)
    before = _compile.source_digest()
    (tmp_path / "_compile.py").write_text("# changed\n")
    assert _compile.source_digest() == before
    (tmp_path / "iterative.py").write_text("# iterative.py \n")
    assert _compile.source_digest() != before and 0 <= before < 2**64


def test_without_the_compiled_module_or_numba_a_split_says_how_to_mend_it(monkeypatch):
    monkeypatch.setattr(_compile, "WHY_JIT", "no compiled kernels in this installation (a source checkout not built)")
    missing = _compile._Missing(lambda: None)
    with pytest.raises(ImportError, match=r"kernel <lambda> cannot run: no compiled kernels in this installation "
                                          r"\(a source checkout not built\), and numba is not installed"):
        missing(1, 2)


def test_label_combinations_by_sort_are_those_of_the_table(monkeypatch):
    """The sort a label space too large for the lookup table takes (a counting sort by first label, each bucket
    by second: by insertion up to 32, a radix sort from 4,096, else argsort) gives every row the combinations the
    table gives, its ids in key order with ``first_seen`` their ranks of first appearance: the table's ids."""
    import scipy.sparse as sp

    from stratbench.labels import combinations

    Y = (np.random.default_rng(2).random((800, 200)) < 0.02).astype(np.int8)
    Y[:, 3] = 1  # a label in every row: the first label of 4,138 combinations, a bucket sorted by radix
    Y[:250, 150] = 1  # and one in 250 rows (a bucket of 508, by argsort), with a pair of 260 examples
    Y = sp.csr_matrix(Y)
    table = combinations.label_combinations(Y)
    monkeypatch.setattr(combinations, "_TABLE_LIMIT", 0)
    by_sort = combinations.label_combinations(Y)
    keys = by_sort.first * 200 + by_sort.second
    assert np.all(np.diff(keys) > 0)
    assert by_sort.first_seen[by_sort.row_combos].tolist() == table.row_combos.tolist()
    assert by_sort.first[by_sort.row_combos].tolist() == table.first[table.row_combos].tolist()
    assert by_sort.second[by_sort.row_combos].tolist() == table.second[table.row_combos].tolist()
    assert by_sort.support.tolist() == table.support[by_sort.first_seen].tolist()
    assert int(table.support.max()) == 800 and len(table.first) == 5883
    assert (table.first[table.row_combos] == 3).sum() == 4138 and (table.first[table.row_combos] == 150).sum() == 508
    assert table.support[(table.first == 3) & (table.second == 150)].tolist() == [260]


def test_the_combinations_of_more_than_one_example_built_alone_are_those_of_every_combination_filtered(monkeypatch):
    """Where a label space is numbered in key order (here forced), ``kept_combinations`` (``ids_by_sort`` from two
    examples) gives each row the combinations with more than one example, with their ids, supports and kinds, and
    each row's numbers of one-example labels and pairs, as filtering ``label_combinations`` does; and the hybrid
    from IS's start without the polish, which builds only those, splits as it does given every combination."""
    import scipy.sparse as sp

    from stratbench.labels import combinations
    from stratbench.stratifiers.hybrid import stratifier as H
    from stratbench.stratifiers.iterative import iterative_fold_ids

    rng = np.random.default_rng(0)
    Y = (rng.random((700, 300)) < 0.6 / (1 + np.arange(300)) ** 0.8).astype(np.int8)  # a power law: rare labels
    Y[:, 5] = 1  # a long bucket, sorted by argsort
    Y[::50] = 0  # rows without labels
    Y[:, 290:] = 0
    Y[1 + 3 * np.arange(10), 290 + np.arange(10)] = 1  # ten one-example labels
    Y[1, :290] = 0  # a row with one of them alone
    Y = sp.csr_matrix(Y)
    monkeypatch.setattr(combinations, "_TABLE_LIMIT", 0)
    assert combinations.sorted_numbering(300)
    ideal = np.full(5, 0.2)
    every = H.single_combinations(combinations.label_combinations(Y), ideal)
    alone = H.single_combinations(None, ideal, Y)
    for field in ("row_ptr", "row_combos", "support", "is_pair", "labels_alone", "pairs_alone"):
        assert getattr(alone, field).dtype == getattr(every, field).dtype
        assert getattr(alone, field).tolist() == getattr(every, field).tolist(), field
    assert (every.labels_alone.sum(), every.pairs_alone.sum(), len(every.support)) == (12, 5344, 2795)
    assert ((np.diff(every.row_ptr) == 0) & (every.labels_alone + every.pairs_alone > 0)).sum() == 1

    method = H.HybridStratifier(n_splits=5, random_state=0, start="iterative", polish=None)
    ratios = method._ratios(700)
    starts = {"iterative": iterative_fold_ids(Y, ratios, 1)}
    folds = method._refine(Y, None, ratios, starts, 2)
    assert folds.tolist() == method._refine(Y, combinations.label_combinations(Y), ratios, starts, 2).tolist()
    assert (folds != starts["iterative"]).sum() == 74
