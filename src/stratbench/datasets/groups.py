"""Groups for a dataset of the grouped track: its own (a grouped generator's), or made from its features
(``groups:`` of a dataset in a study config).

- ``{clusters: m}``: k-means on the features with about m examples a cluster (n/m clusters, one
  initialisation, seeded), so that similar examples share a fold, as images of one patient would;
  cluster sizes then range from 1 to several times m.
- ``{duplicates: true}``: examples with identical feature vectors form a group.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError


def dataset_groups(ds, spec: dict | None, seed: int) -> np.ndarray | None:
    """A group id per example of ``ds`` by ``spec`` (module doc), its own groups when ``spec`` is
    empty, None for ungrouped data."""
    if not spec:
        return None if ds.groups is None else np.asarray(ds.groups)
    n = ds.Y.shape[0]
    if "clusters" in spec:
        from sklearn.cluster import KMeans

        k = max(2, min(n, int(round(n / spec["clusters"]))))
        X = sp.csr_matrix(ds.X, dtype=np.float64) if sp.issparse(ds.X) else np.asarray(ds.X, dtype=np.float64)
        return KMeans(n_clusters=k, n_init=1, random_state=seed).fit_predict(X).astype(np.int64)
    if spec.get("duplicates"):
        X = sp.csr_matrix(ds.X).toarray() if sp.issparse(ds.X) else np.asarray(ds.X)
        return np.unique(X, axis=0, return_inverse=True)[1].ravel().astype(np.int64)
    raise StratbenchError(f"groups: {spec!r}: give clusters (examples per cluster) or duplicates: true")
