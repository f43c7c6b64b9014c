"""
# Keep groups whole

Rows of one group (a patient, a document's paragraphs, near-duplicate images) must share a fold, or the
test score leaks. `MultilabelStratifiedGroupKFold` keeps every group whole while stratifying the labels.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

from stratbench import MultilabelStratifiedGroupKFold
from stratbench.datasets import generate_synthetic

data = generate_synthetic("grouped", examples=500, labels=8, features=10, cardinality=1.8, dependence=0.3, seed=4,
                          centroids=4)
rng = np.random.default_rng(0)
groups = rng.integers(0, 80, size=data.Y.shape[0])  # 80 groups of varying size

cv = MultilabelStratifiedGroupKFold(n_splits=5, shuffle=True, random_state=0)
folds = cv.fold_ids(data.Y, groups)
leaks = sum(len(np.unique(folds[groups == g])) > 1 for g in np.unique(groups))
print(f"groups split across folds: {leaks}")

# %%
# Each fold's share of each label's positives: near 1/5 when the labels are stratified.
Y = data.Y.toarray()
shares = np.array([Y[folds == f].sum(axis=0) / Y.sum(axis=0) for f in range(5)])
fig, ax = plt.subplots(figsize=(5, 2.5), layout="constrained")
ax.imshow(shares, aspect="auto", cmap="viridis", vmin=0, vmax=0.4)
ax.set_xlabel("label")
ax.set_ylabel("fold")
ax.set_title("Share of each label's positives per fold")
plt.show()
