"""The classifier contract and the random-forest machinery every built-in method shares."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers.forests import ForestTask, apply, train


def forest_seeds(random_state, count: int) -> np.ndarray:
    """``count`` independent 32-bit forest seeds derived from ``random_state`` (SeedSequence)."""
    return np.random.SeedSequence(random_state).generate_state(count, dtype=np.uint32)


class MultilabelClassifier:
    """Base class. Subclasses implement ``fit``, ``predict`` and ``predict_scores``.

    ``fit_predict(X_train, Y_train, X_test)`` → (predictions, scores) is what the pipeline calls; by
    default it is ``fit`` then ``predict`` and ``predict_scores``.

    Every registered classifier takes the parameters below; its own docstring lists those it adds.

    Parameters
    ----------
    n_estimators : int, default=100
        Trees of each random forest (the config's ``forest.n_estimators``).
    max_features : {"sqrt", "log2"}, int, float or None, default="sqrt"
        Features tried at a split, as scikit-learn's ``RandomForestClassifier`` takes them.
    n_jobs : int, default=1
        Threads of a forest's training (``threads`` in the config); results do not depend on it.
    random_state : None or int, default=None
        The seed the forests' seeds derive from (one per forest, :func:`forest_seeds`).
    **forest_params : dict
        Further parameters of every ``RandomForestClassifier``.
    """

    delegates_to = ("scikit-learn",)  # its forests: their versions go in the score tables

    def __init__(self, n_estimators=100, max_features="sqrt", n_jobs=1, random_state=None, **forest_params):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.forest_params = forest_params

    def _seeds(self, count: int) -> np.ndarray:
        """``count`` independent forest seeds derived from ``random_state``."""
        return forest_seeds(self.random_state, count)

    def make_forest(self, seed: int):
        """The unfitted forest of one sub-problem (override to use another scikit-learn classifier)."""
        from sklearn.ensemble import RandomForestClassifier  # imported where a forest is made, not to plan a study

        return RandomForestClassifier(
            n_estimators=self.n_estimators, max_features=self.max_features,
            n_jobs=self.n_jobs, random_state=int(seed), **self.forest_params,
        )

    def fold_forests(self, examples: int, labels: int) -> float:
        """About how many binary forests one fold trains on a dataset of ``examples`` × ``labels`` (what sizes
        its evaluation jobs, :meth:`stratbench.study.Study.evaluate_per_repeat`): binary relevance's one per
        label unless a method says otherwise."""
        return float(labels)

    def fit(self, X, Y):
        raise NotImplementedError

    def predict(self, X) -> np.ndarray:
        raise NotImplementedError

    def predict_scores(self, X) -> np.ndarray | None:
        """Per-label relevance scores (n × q), or None if the method gives none."""
        return None

    def fit_predict(self, X_train, Y_train, X_test):
        """(0/1 predictions, scores or None) on ``X_test`` of the model trained on the training part."""
        self.fit(X_train, Y_train)
        return self.predict(X_test), self.predict_scores(X_test)


class ForestClassifier(MultilabelClassifier):
    """A classifier whose training is a list of independent forests (:class:`ForestTask`).

    Subclasses implement ``forest_tasks(Y)`` (the forests of training labels ``Y``, CSR; it may keep
    what ``combine`` needs, such as the number of labels) and ``combine(outputs)`` → (predictions,
    scores) from the tasks' outputs on the test rows. ``fit``/``predict`` train and apply the forests
    here; the pipeline hands the tasks of all folds of a job to one
    :class:`~stratbench.classifiers.forests.ForestPool` instead, with identical predictions.
    """

    def forest_tasks(self, Y: sp.csr_matrix) -> list[ForestTask]:
        raise NotImplementedError

    def combine(self, outputs: list) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def fit(self, X, Y):
        self.tasks_ = self.forest_tasks(sp.csr_matrix(Y))
        self.forests_ = [train(task, X, self.n_jobs) for task in self.tasks_]
        return self

    def _predict_both(self, X):
        return self.combine([apply(model, task, X) for model, task in zip(self.forests_, self.tasks_)])

    def predict(self, X) -> np.ndarray:
        return self._predict_both(X)[0]

    def predict_scores(self, X) -> np.ndarray:
        return self._predict_both(X)[1]

    def fit_predict(self, X_train, Y_train, X_test):
        self.fit(X_train, Y_train)
        return self._predict_both(X_test)


def column_targets(Y: sp.csr_matrix) -> list[np.ndarray]:
    """The 0/1 target vector (int8) of every label of ``Y``."""
    Y = sp.csc_matrix(Y)
    n = Y.shape[0]
    targets = []
    for j in range(Y.shape[1]):
        y = np.zeros(n, dtype=np.int8)
        y[Y.indices[Y.indptr[j]:Y.indptr[j + 1]]] = 1
        targets.append(y)
    return targets
