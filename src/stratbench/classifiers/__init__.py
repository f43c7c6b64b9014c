"""Multi-label classifiers over random forests, registered by name.

``get(name, **params)`` builds one (``n_estimators``, ``max_features``, ``n_jobs``,
``random_state`` and any other ``RandomForestClassifier`` parameter). The contract
(:class:`MultilabelClassifier`): ``fit(X, Y)`` with sparse 0/1 Y, ``predict(X)`` → 0/1 array,
``predict_scores(X)`` → per-label scores or None when the method has none.
"""

from stratbench._registry import Registry

_REGISTRY = Registry("classifier", [
    "stratbench.classifiers.binary_relevance",
    "stratbench.classifiers.label_powerset",
    "stratbench.classifiers.calibrated_label_ranking",
    "stratbench.classifiers.label_space_partitioning",
])
register = _REGISTRY.register
get = _REGISTRY.get
resolve = _REGISTRY.resolve
build = _REGISTRY.build
entry_class = _REGISTRY.entry_class
names = _REGISTRY.names

from stratbench.classifiers.base import MultilabelClassifier  # noqa: E402

__all__ = ["MultilabelClassifier", "build", "entry_class", "get", "names", "register", "resolve"]

# a method named by class or dotted path must be one of these
_REGISTRY.base, _REGISTRY.base_name = MultilabelClassifier, "stratbench.classifiers.MultilabelClassifier"
