"""The cross-validators multi-label users know, by the names, signatures and positional orders of
iterative-stratification (``MultilabelStratifiedKFold``, ``RepeatedMultilabelStratifiedKFold``,
``MultilabelStratifiedShuffleSplit``) and scikit-multilearn (``IterativeStratification``,
``iterative_train_test_split``), plus ``MultilabelStratifiedGroupKFold``; each runs any registered stratifier
(``method="iterative"`` by default, ``"sois"``, ``"hybrid"``, …; ``stratbench list`` shows them) on sparse or
dense ``y``.

What they mean, the same for every method:

- ``random_state``: None (numpy's global RandomState, so ``np.random.seed`` makes it reproducible), an int,
  a ``RandomState`` or a ``Generator``: one stream for everything random in a split;
- ``shuffle``: the rows are put in a random order (from ``random_state``) before the method runs; without
  it they keep the data's order, and a seeded method still breaks its ties from ``random_state``;
- ``groups``: kept whole by the methods that split by groups (``iterative``, ``hybrid``, ``random``),
  refused by the others (never silently ignored, as scikit-learn's non-group splitters do), and routed to
  ``split`` under scikit-learn's metadata routing;
- holdout sizes: ``test_size`` and ``train_size`` as scikit-learn's shuffle splits round them (a float test
  share rounds up), exactly;
- checks: X, y and groups of one length, ``n_splits`` an integer from 2 to the rows (or the groups), fold
  shares one per fold, and no keyword the splitter does not take (a TypeError at construction), with
  scikit-learn's messages;
- :func:`distinct_test_sets`: how many different test sets a cross-validator gives over its splits;
- :class:`MultilabelStratifiedParts` and :func:`train_validation_test_split`: k named parts (train, validation
  and test by default) in one stratified split, with exact sizes, groups kept whole, and ``rare="guarantee"``
  for a positive of every label with as many positives as parts in each part (no peer has them: their users
  split twice, scikit-multilearn #209);
- ``rare`` (the k-fold classes, the shuffle split and the parts splitter): ``"warn"`` (default: one warning per CV naming the
  labels left with no positive in some test fold or part), ``"guarantee"`` (every label, and every value of
  ``strata``, with at least as many positives as parts has one in each, or a StratbenchError names those that
  cannot, before any split is returned), ``"ignore"``;
- ``strata``: a :class:`~stratbench.labels.TargetTable` of further columns (labels, multiclass, counts, binned
  continuous values), each of a declared kind and weight, stratified on beside ``y`` (``y=None``: on them alone);
  routed to ``split`` like ``groups``, so the estimator's ``y`` stays the labels it learns.

``compat`` means one thing everywhere: the peer's own folds, bit for bit, so a project can switch mid-study
and keep its folds. ``compat="iterstrat"`` gives iterative-stratification 0.1.9's
(``MultilabelStratifiedKFold``, ``RepeatedMultilabelStratifiedKFold``, ``MultilabelStratifiedShuffleSplit``);
``compat="skmultilearn"`` gives scikit-multilearn 0.2.0's (``IterativeStratification``,
``iterative_train_test_split``), seeded as a study seeded it: ``random_state=s`` is ``np.random.seed(s)``
before the split, None draws from numpy's global state. The ports live in ``model_selection._peers``. Without
``compat``, stratbench's own methods run. (A registered method's ``rules="skmultilearn"`` is something
else: scikit-multilearn's tie and order rules with stratbench's seeded draws.)

Examples
--------
>>> import numpy as np
>>> from stratbench import MultilabelStratifiedKFold
>>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
>>> cv = MultilabelStratifiedKFold(n_splits=2, shuffle=True, random_state=0)
>>> cv
MultilabelStratifiedKFold(n_splits=2, shuffle=True, random_state=0, method='iterative', compat=None, rare='warn')
>>> [len(test) for _, test in cv.split(np.zeros((6, 1)), Y)]
[3, 3]
"""

from stratbench.model_selection._parts import MultilabelStratifiedParts, train_validation_test_split
from stratbench.model_selection._split import (
    IterativeStratification,
    MultilabelStratifiedGroupKFold,
    MultilabelStratifiedKFold,
    MultilabelStratifiedShuffleSplit,
    RepeatedMultilabelStratifiedKFold,
    distinct_test_sets,
    iterative_train_test_split,
)

__all__ = ["IterativeStratification", "MultilabelStratifiedGroupKFold", "MultilabelStratifiedKFold",
           "MultilabelStratifiedParts", "MultilabelStratifiedShuffleSplit", "RepeatedMultilabelStratifiedKFold",
           "distinct_test_sets", "iterative_train_test_split", "train_validation_test_split"]
