"""What users bring beside a 0/1 label matrix: a multiclass-multioutput y, declared (one_hot_outputs), each output's
class shares kept; an undeclared one refused with scikit-learn's type_of_target name (iterative-stratification #26)."""
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from stratbench import MultilabelStratifiedKFold, StratbenchError
from stratbench.labels import one_hot_outputs


def outputs(n=300, seed=0):
    rng = np.random.default_rng(seed)
    return np.stack([rng.choice(4, n, p=[0.55, 0.3, 0.1, 0.05]), rng.choice(3, n, p=[0.7, 0.2, 0.1]),
                     rng.choice(["a", "b"], n, p=[0.85, 0.15])], axis=1).astype(object)


def share_error(y, folds, k):
    """The largest distance, in rows, of a fold's count of an (output, class) from its count × 1/k."""
    Y = one_hot_outputs(y).toarray()
    counts = np.array([Y[folds == j].sum(axis=0) for j in range(k)])
    return float(np.abs(counts - Y.sum(axis=0) / k).max())


def test_each_outputs_class_shares_are_kept_where_the_y_is_declared():
    y = outputs()
    Y = one_hot_outputs(y)
    assert Y.shape == (300, 4 + 3 + 2) and (Y.sum(axis=1) == 3).all()  # one class per output in every row
    ours, chance = [], []
    for seed in range(5):
        ours.append(share_error(y, MultilabelStratifiedKFold(5, shuffle=True, random_state=seed).fold_ids(Y), 5))
        chance.append(share_error(y, MultilabelStratifiedKFold(5, shuffle=True, random_state=seed,
                                                               method="random").fold_ids(Y), 5))
    assert max(ours) <= 2 and 2.5 * max(ours) < np.mean(chance), (ours, chance)  # within 2 rows; chance far off


def test_an_undeclared_multiclass_or_continuous_y_is_refused_naming_its_kind():
    with pytest.raises(StratbenchError, match=r"not 0/1 \(value 2 at row 0\).*type_of_target calls this y "
                                              r"'multiclass-multioutput'.*one_hot_outputs\(y\)"):
        MultilabelStratifiedKFold(2).fold_ids(np.array([[0, 2], [1, 0], [2, 1], [0, 0]]))
    with pytest.raises(StratbenchError, match="'continuous-multioutput': bin each column first"):
        MultilabelStratifiedKFold(2).fold_ids(np.array([[0.5, 1], [1, 0], [0, 1], [1, 1]]))
    with pytest.raises(StratbenchError, match=r"not 0/1 \(value -1 at row 0\)"):  # a stray −1 is still refused
        MultilabelStratifiedKFold(2).fold_ids(np.array([[0, -1], [1, 0], [0, 1], [1, 1]]))


def test_a_missing_or_mixed_class_stops_naming_where():
    with pytest.raises(StratbenchError, match="output 1 has no class at row 2"):
        one_hot_outputs([[0, 1], [1, 0], [0, None]])
    with pytest.raises(StratbenchError, match="output 0 mixes classes"):
        one_hot_outputs([[1], ["1"], [2]])
    assert one_hot_outputs(["x", "y", "x"]).toarray().tolist() == [[1, 0], [0, 1], [1, 0]]


def test_a_column_of_label_lists_is_split_in_one_call_and_each_part_keeps_its_type():
    """mteb #5504: a pandas column of label lists, declared with from_label_lists, split in one call into parts of
    the frame's own type; undeclared, it is refused naming the declaration (it raised numpy's 'setting an array
    element with a sequence')."""
    import pandas as pd

    from stratbench.labels import from_label_lists
    from stratbench.model_selection import train_validation_test_split

    rng = np.random.default_rng(0)
    tags = [sorted(set(rng.choice(["news", "sport", "tech", "arts"], rng.integers(0, 3)).tolist())) for _ in range(200)]
    frame = pd.DataFrame({"text": [f"doc {i}" for i in range(200)], "tags": tags})
    Y = from_label_lists(frame["tags"])
    assert Y.shape == (200, 4) and Y.toarray().sum(axis=1).tolist() == [len(t) for t in tags]
    train, validation, test = train_validation_test_split(frame, y=Y, sizes=(0.6, 0.2, 0.2), random_state=0)
    assert all(isinstance(part, pd.DataFrame) for part in (train, validation, test))
    assert (len(train), len(validation), len(test)) == (120, 40, 40)
    assert from_label_lists([["b"], []], classes=["a", "b"]).toarray().tolist() == [[0, 1], [0, 0]]
    with pytest.raises(StratbenchError, match="column of label lists.*from_label_lists"):
        MultilabelStratifiedKFold(2).fold_ids(frame["tags"])
    with pytest.raises(StratbenchError, match="row 1 has label 'c', which classes does not name"):
        from_label_lists([["a"], ["c"]], classes=["a", "b"])
    with pytest.raises(StratbenchError, match="row 0 of the label lists is 'ab'"):
        from_label_lists(["ab", ["a"]])


def test_a_hugging_face_dataset_is_split_by_its_sequence_column_into_datasets_in_one_call():
    """mteb #5504: ``datasets`` stratifies only ClassLabel columns, so a multi-label subsample was never stratified.
    Here the Sequence column is named as y and the parts come back as Datasets, each label's share kept. ``datasets``
    (the ``hf`` extra) brings pyarrow, whose threads every pandas import would start in the study's job server: it
    lives in an environment of its own, named by $STRATBENCH_HF_PYTHON (.ci/run makes it), where tests/hf_split.py
    runs."""
    python = os.environ.get("STRATBENCH_HF_PYTHON")
    if not python:
        if os.environ.get("CI"):
            pytest.fail("CI run without the hf extra: set STRATBENCH_HF_PYTHON (.ci/run makes its venv)")
        pytest.skip("the hf extra is not set up: STRATBENCH_HF_PYTHON names a python with stratbench[hf]")
    result = subprocess.run([python, str(Path(__file__).with_name("hf_split.py"))], capture_output=True, text=True,
                            timeout=600, cwd=Path(__file__).parent)
    assert result.returncode == 0 and result.stdout.strip().endswith("passed"), result.stdout[-3000:] + result.stderr[-3000:]


def test_the_kind_named_is_scikit_learns_at_any_size():
    """The message names y's kind as scikit-learn's type_of_target does, also where the stray value is beyond the
    rows a dense copy could hold."""
    import scipy.sparse as sp
    from sklearn.utils.multiclass import type_of_target

    for y in ([[0, 2], [1, 0]], [[0.5, 1], [1, 0]], [[3], [0]], [[0.25], [1]], [[-1, 1], [0, 1]]):
        with pytest.raises(StratbenchError) as refused:
            MultilabelStratifiedKFold(2).fold_ids(sp.csr_matrix(np.array(y, dtype=float)))
        assert f"calls this y {type_of_target(np.array(y))!r}" in str(refused.value)
    big = sp.lil_matrix((200_000, 60), dtype=np.int8)
    big[::7, 3] = 1
    big[150_000, 5] = 2  # past any slice of the first rows
    with pytest.raises(StratbenchError, match="'multiclass-multioutput'"):
        MultilabelStratifiedKFold(2).fold_ids(big.tocsr())
