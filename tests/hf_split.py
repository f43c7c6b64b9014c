"""A Hugging Face ``datasets`` Dataset split by its Sequence column of label lists into Datasets in one call:

    python tests/hf_split.py    # in an environment with stratbench[hf]

Run by tests/test_targets.py in the environment named by $STRATBENCH_HF_PYTHON (``datasets`` brings pyarrow, whose
threads the study's job server must not have). Prints "passed", or fails on the first assertion."""
import datasets
import numpy as np

from stratbench import StratbenchError
from stratbench.labels import from_label_lists
from stratbench.model_selection import train_validation_test_split

rng = np.random.default_rng(1)
tags = [sorted(set(rng.choice(["news", "sport", "tech", "arts"], rng.integers(0, 3)).tolist())) for _ in range(200)]
data = datasets.Dataset.from_dict({"text": [f"doc {i}" for i in range(200)], "tags": tags})
train, validation, test = train_validation_test_split(data, y="tags", sizes=(0.6, 0.2, 0.2), random_state=0)
assert all(isinstance(part, datasets.Dataset) for part in (train, validation, test))
assert (len(train), len(validation), len(test)) == (120, 40, 40)
assert sorted([*train["text"], *validation["text"], *test["text"]]) == sorted(data["text"])
share = from_label_lists(data["tags"]).toarray().mean(axis=0)
for part in (train, validation, test):  # IS keeps each label within one example of its share
    Y = from_label_lists(part["tags"], classes=["arts", "news", "sport", "tech"]).toarray()
    assert np.all(np.abs(Y.sum(axis=0) - share * len(part)) <= 1.0), (Y.sum(axis=0), share * len(part))
try:
    train_validation_test_split(data, y="labels")
    raise AssertionError("a column the Dataset lacks was not refused")
except StratbenchError as exc:
    assert "y='labels' names a column of label lists in the first array, which has columns ['text', 'tags']" in str(exc)
print(f"datasets {datasets.__version__}: passed")
