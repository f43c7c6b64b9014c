"""
# A stratifier of your own

A method is one class in one file: subclass `MultilabelStratifier` and write `_assign`, which returns a
fold id per row. `examples/cardinality_kfold.py` stratifies on the number of labels per row; here it
is compared with random k-fold on how evenly the folds hold label-less and multi-label rows.
"""

# %%
import sys
from pathlib import Path

import numpy as np

from stratbench import stratifiers
from stratbench.datasets import generate_synthetic

here = Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd()
sys.path.insert(0, str(here.parent))  # examples/, where cardinality_kfold.py lives
from cardinality_kfold import CardinalityKFold  # noqa: E402

data = generate_synthetic("mixed", examples=400, labels=6, features=10, cardinality=1.2, dependence=0.2, seed=3,
                          centroids=4)
cardinality = np.minimum(np.diff(data.Y.indptr), 3)

for name, splitter in [("random", stratifiers.get("random", n_splits=4, random_state=0)),
                       ("cardinality", CardinalityKFold(n_splits=4, random_state=0, cap=3))]:
    folds = splitter.fold_ids(data.Y)
    counts = np.array([np.bincount(cardinality[folds == f], minlength=4) for f in range(4)])
    print(f"{name}: rows with 0, 1, 2, 3+ labels per fold\n{counts}")
