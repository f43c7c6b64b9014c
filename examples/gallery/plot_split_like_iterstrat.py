"""
# Split a multi-label dataset with the names you know

`MultilabelStratifiedKFold` takes iterative-stratification's arguments and any of stratbench's
methods by name. Here three of them split a synthetic dataset with rare labels, and the fold-quality
measures say how evenly each spread the labels (lower is better; see the measures page).
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from stratbench import MultilabelStratifiedKFold
from stratbench.datasets import generate_synthetic
from stratbench.measures.fold_quality import fold_quality

data = generate_synthetic("rare", examples=600, labels=20, features=10, cardinality=1.5, dependence=0.1, seed=2,
                          centroids=4)
Y = data.Y
print(f"{Y.shape[0]} examples, {Y.shape[1]} labels, the rarest has {int(Y.sum(axis=0).min())} positives")

# %%
# Every splitter is a scikit-learn cross-validator: `split` yields (train, test) index arrays.
cv = MultilabelStratifiedKFold(n_splits=5, shuffle=True, random_state=0)
for train, test in cv.split(np.zeros(Y.shape[0]), Y):
    print(len(train), len(test))

# %%
# The same split as fold ids, for three methods, and their label distribution (LD) and
# number of (fold, label) cells without a positive example (FZ).
methods = ["random", "iterative", "sois", "hybrid"]
quality = {}
for method in methods:
    folds = MultilabelStratifiedKFold(n_splits=5, shuffle=True, random_state=0, method=method).fold_ids(Y)
    quality[method] = fold_quality(Y, folds, 5)
    print(f"{method:10s} LD {quality[method]['LD']:.4f}  FZ {quality[method]['FZ']:.0f}")

fig, ax = plt.subplots(figsize=(5, 2.5), layout="constrained")
ax.bar(methods, [quality[m]["LD"] for m in methods], color="tab:blue")
ax.set_ylabel("LD (lower is better)")
ax.set_title("Label distribution of 5 folds, by method")
plt.show()
