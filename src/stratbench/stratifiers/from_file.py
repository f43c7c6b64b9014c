"""Folds published elsewhere, read from OpenML split files: a study evaluates on exactly the folds another
tool (R's mlr3, Weka, MEKA, OpenML) or another study made (``stratbench export-splits`` writes them)."""

from __future__ import annotations

import numpy as np

from stratbench import StratbenchError
from stratbench.io import read_openml_splits
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier


@register("from_file")
class FromFile(MultilabelStratifier):
    """The folds of an OpenML split file (ARFF: type, rowid, repeat, fold): ``path``, in which ``{dataset}`` stands
    for the dataset's name; repeat r of the study takes the file's repeat r. A benchmark study's fold jobs give
    it the dataset and the repeat (``context``); the folds must be a partition of the dataset's rows into the
    study's k (``n_splits``).

    Parameters
    ----------
    path : str
        The split file; ``{dataset}`` in it stands for the dataset's name.
    dataset : str or None, default=None
        The dataset whose folds are read (a study's fold jobs pass it).
    repeat : int or None, default=None
        The file's repeat to read (a study's fold jobs pass it).

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> from stratbench.io import write_openml_splits
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_openml_splits(f"{d}/toy.arff", {0: np.array([0, 1, 0, 1])})
    ...     FromFile(n_splits=2, path=d + "/{dataset}.arff", dataset="toy", repeat=0).fold_ids(np.eye(4, dtype=int)).tolist()
    [0, 1, 0, 1]
    """

    reference = "OpenML split files (Vanschoren et al. 2013)"
    seeded = False
    context = ("dataset", "repeat")  # what the workflow's fold jobs pass besides n_splits and random_state

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None, path=None,
                 dataset=None, repeat=None):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.path, self.dataset, self.repeat = path, dataset, repeat

    def _assign(self, Y, ratios, rng):
        if self.path is None:
            raise StratbenchError("from_file needs path: an OpenML split file ({dataset} stands for the dataset)")
        if self.repeat is None or (self.dataset is None and "{dataset}" in self.path):
            raise StratbenchError("from_file needs the dataset and the repeat: it splits in a benchmark study's fold "
                                  "jobs, which give them (or pass dataset= and repeat=)")
        path = self.path.replace("{dataset}", str(self.dataset))
        splits = read_openml_splits(path, Y.shape[0])
        if self.repeat not in splits:
            raise StratbenchError(f"{path}: no repeat {self.repeat} (it has {sorted(splits)})")
        folds = splits[self.repeat]
        if int(folds.max()) + 1 != len(ratios):
            raise StratbenchError(f"{path}: repeat {self.repeat} has {int(folds.max()) + 1} folds, the study "
                                  f"{len(ratios)} (n_splits)")
        return np.asarray(folds, dtype=np.int64)
