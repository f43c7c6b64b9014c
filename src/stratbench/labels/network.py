"""Label co-occurrence graphs and their fast-greedy modularity communities (Szymański et al. 2016),
and the network-stability measures of Szymański & Kajdanowicz 2017 §5.2 (docs/ALGORITHMS.md §7).

The graph always has all q labels as vertices (isolated labels stay singleton communities); an edge
{i, j}, i ≠ j, joins labels that co-occur in some row, weighted by the number of such rows or 1.
Communities: Clauset–Newman–Moore greedy modularity maximisation (networkx), returned as a sorted
tuple of sorted label tuples so that partitions compare as set partitions.
"""

from __future__ import annotations

import hashlib

import networkx as nx
import numpy as np
import pandas as pd
import scipy.sparse as sp

Partition = tuple[tuple[int, ...], ...]


def cooccurrence_graph(Y, weighted: bool) -> nx.Graph:
    """Label co-occurrence graph of the rows of Y (all q labels are vertices, no self-loops)."""
    Y = sp.csr_matrix(Y, dtype=np.int64)
    C = sp.triu(Y.T @ Y, k=1).tocoo()
    G = nx.Graph()
    G.add_nodes_from(range(Y.shape[1]))
    G.add_weighted_edges_from(zip(C.row.tolist(), C.col.tolist(), (C.data if weighted else np.ones_like(C.data)).tolist()))
    return G


def fast_greedy(G: nx.Graph, weighted: bool) -> Partition:
    """CNM fast-greedy communities (the maximal-modularity cut), as a canonical partition."""
    if G.number_of_edges() == 0:
        return tuple((v,) for v in sorted(G.nodes))
    communities = nx.community.greedy_modularity_communities(G, weight="weight" if weighted else None)
    return tuple(sorted(tuple(sorted(c)) for c in communities))


def modularity(G: nx.Graph, partition: Partition, weighted: bool) -> float:
    if G.number_of_edges() == 0:
        return 0.0
    return float(nx.community.modularity(G, [set(c) for c in partition], weight="weight" if weighted else None))


def partition_id(partition: Partition) -> float:
    """A stable 32-bit fingerprint of a partition (for counting distinct partitions in tables)."""
    return float(int.from_bytes(hashlib.sha256(repr(partition).encode()).digest()[:4], "little"))


def label_partition(Y, weighted: bool) -> Partition:
    """The fast-greedy partition of the labels of Y's co-occurrence graph."""
    return fast_greedy(cooccurrence_graph(Y, weighted), weighted)


def network_stability(Y, folds: np.ndarray, n_splits: int) -> pd.DataFrame:
    """Per fold, graph kind (weighted/unweighted) and part (train/test): modularity and number of
    communities; per fold and kind: whether train and test partitions are identical and |ΔQ|."""
    Y = sp.csr_matrix(Y)
    rows = []
    for j in range(n_splits):
        parts = {"train": Y[folds != j], "test": Y[folds == j]}
        for weighted in (False, True):
            kind = "weighted" if weighted else "unweighted"
            found = {}
            for part, Yp in parts.items():
                G = cooccurrence_graph(Yp, weighted)
                partition = fast_greedy(G, weighted)
                found[part] = (partition, modularity(G, partition, weighted))
                rows.append((j, kind, part, "modularity", found[part][1]))
                rows.append((j, kind, part, "communities", float(len(partition))))
                rows.append((j, kind, part, "partition", partition_id(partition)))
            rows.append((j, kind, "train_test", "matched_partition", float(found["train"][0] == found["test"][0])))
            rows.append((j, kind, "train_test", "modularity_difference", abs(found["train"][1] - found["test"][1])))
    return pd.DataFrame(rows, columns=["fold", "graph", "part", "measure", "value"])


def summarise_network_stability(rows: pd.DataFrame) -> pd.DataFrame:
    """Per dataset × stratifier × graph × part × measure: mean and std over folds and repeats;
    plus ``distinct_partitions``: distinct partitions over the folds of a repeat, averaged over repeats."""
    keys = ["dataset", "stratifier", "graph", "part", "measure"]
    values = rows[rows.measure != "partition"]
    out = values.groupby(keys, sort=True)["value"].agg(mean="mean", std=lambda v: float(np.std(v))).reset_index()
    per_repeat = (rows[rows.measure == "partition"]
                  .groupby(["dataset", "stratifier", "repeat", "graph", "part"], sort=True)["value"].nunique())
    distinct = (per_repeat.groupby(["dataset", "stratifier", "graph", "part"], sort=True)
                .agg(mean="mean", std=lambda v: float(np.std(v))).reset_index().assign(measure="distinct_partitions"))
    return pd.concat([out, distinct[keys + ["mean", "std"]]], ignore_index=True).sort_values(keys, kind="stable")
