"""
# Stratify labels with metadata

Balance a patient's site, age and visits across folds beside the labels (iterative-stratification #9, #27, #28),
split a multiclass-multioutput `y` (#26) and a column of label lists (mteb #5504), and guarantee every rare label a
positive in every part (#6, #14; scikit-multilearn #253). Each kind of column is declared, never guessed.
"""

# %%
# A `TargetTable` declares each column's kind (`labels`, `multiclass`, `count`, `continuous`), its bins and weight.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from stratbench.labels import TargetTable, from_label_lists, one_hot_outputs
from stratbench.model_selection import MultilabelStratifiedKFold, train_validation_test_split

rng = np.random.default_rng(0)
n = 400
Y = (rng.random((n, 8)) < rng.uniform(0.03, 0.3, 8)).astype(int)
frame = pd.DataFrame({"site": rng.choice(["north", "south", "east", "west"], n, p=[0.5, 0.3, 0.15, 0.05]),
                      "age": rng.gamma(4, 12, n), "visits": rng.poisson(1.5, n)})
table = TargetTable(frame, kinds={"site": "multiclass", "age": "continuous", "visits": "count"},
                    bins={"age": 4}, weights={"site": 2})
print(table)
print("age quartile edges:", np.round(table.bin_edges()["age"], 1))

# %%
# The same 5 folds, stratified on the labels alone and on the labels with the table: each age quartile's share per
# fold, against its share in the data (0.25).
edges = table.bin_edges()["age"]
quartile = np.searchsorted(edges, frame["age"], side="right")
fig, axes = plt.subplots(1, 2, figsize=(6, 2.4), layout="constrained", sharey=True)
for ax, strata, title in zip(axes, (None, table), ("labels alone", "labels + TargetTable")):
    folds = MultilabelStratifiedKFold(5, shuffle=True, random_state=0).fold_ids(Y, strata=strata)
    shares = np.array([[np.mean(quartile[folds == f] == b) for b in range(4)] for f in range(5)])
    ax.plot(range(5), shares, marker="o", markersize=3)
    ax.axhline(0.25, color="grey", linewidth=0.6, linestyle=":")
    ax.set(title=title, xlabel="fold", xticks=range(5))
axes[0].set_ylabel("age quartile's share")
fig.suptitle("Each age quartile's share of a fold")
plt.show()

# %%
# A multiclass-multioutput y (a class per example in each output): declared with `one_hot_outputs`, every output's
# class shares are kept.
outputs = np.column_stack([rng.integers(0, 3, n), rng.choice(["a", "b", "c", "d"], n)])
folds = MultilabelStratifiedKFold(5, shuffle=True, random_state=0).fold_ids(one_hot_outputs(outputs))
print("output 1, class 'd' per fold:", [int(np.sum(outputs[folds == f, 1] == "d")) for f in range(5)])

# %%
# A column of label lists, named as y: train, validation and test of the frame in one call; every label with at least
# as many positives as parts has one in each (`rare="guarantee"`). The positives of each label per part:
frame["tags"] = [sorted(set(rng.choice(["flu", "covid", "asthma", "copd"], rng.integers(0, 3), p=[0.4, 0.3, 0.25,
                                                                                                 0.05])))
                 for _ in range(n)]
train, validation, test = train_validation_test_split(frame, y="tags", sizes=(0.7, 0.15, 0.15), random_state=0,
                                                      rare="guarantee")
print({name: from_label_lists(part["tags"], classes=["asthma", "copd", "covid", "flu"]).sum(axis=0).tolist()
       for name, part in (("train", train), ("validation", validation), ("test", test))})
