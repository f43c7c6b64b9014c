"""Multi-label stratifiers: scikit-learn compatible cross-validators, registered by name.

``get(name, **params)`` builds one, e.g. ``get("iterative", n_splits=10, random_state=0)``; a name
with dots (``mypackage.module.MyStratifier``) is imported. A new stratifier is one module with a
subclass of :class:`MultilabelStratifier` decorated with ``@register("name")``.
"""

from stratbench._registry import Registry

_REGISTRY = Registry("stratifier", [
    "stratbench.stratifiers.random_kfold",
    "stratbench.stratifiers.kfold",
    "stratbench.stratifiers.labelset",
    "stratbench.stratifiers.labelset_sklearn2017",
    "stratbench.stratifiers.iterative",
    "stratbench.stratifiers.sois",
    "stratbench.stratifiers.optisplit",
    "stratbench.stratifiers.stratified_sampling",
    "stratbench.stratifiers.pmbsrs",
    "stratbench.stratifiers.hybrid",
    "stratbench.stratifiers.groups.group_kfold",
    "stratbench.stratifiers.groups.stratified_group_kfold",
    "stratbench.stratifiers.groups.maestros",
    "stratbench.stratifiers.from_file",
])
register = _REGISTRY.register
get = _REGISTRY.get
resolve = _REGISTRY.resolve
build = _REGISTRY.build
entry_class = _REGISTRY.entry_class
names = _REGISTRY.names

from stratbench.labels import as_label_matrix  # noqa: E402
from stratbench.stratifiers.base import MultilabelStratifier  # noqa: E402
from stratbench.stratifiers.timing import timed_fold_ids  # noqa: E402

__all__ = ["MultilabelStratifier", "as_label_matrix", "build", "entry_class", "get", "names", "register", "resolve",
           "timed_fold_ids"]

# a method named by class or dotted path must be one of these
_REGISTRY.base, _REGISTRY.base_name = MultilabelStratifier, "stratbench.stratifiers.MultilabelStratifier"
