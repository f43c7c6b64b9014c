"""Which software made a result: a method's own package and the packages it delegates to, with their installed
versions (``importlib.metadata``), so that a table row says what produced it (scikit-learn's folds and forests
change between releases)."""

from __future__ import annotations

from importlib import metadata


def version(distribution: str) -> str:
    """The installed version of ``distribution``, or ``not installed``."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def software(*methods) -> str:
    """``stratbench X.Y`` and each package the methods (classes or instances) delegate to (their
    ``delegates_to``), with its version, in order, once.

    >>> class Forest:
    ...     delegates_to = ("scikit-learn",)
    >>> software(Forest).startswith("stratbench ") and "; scikit-learn " in software(Forest)
    True
    """
    names = ["stratbench"]
    for method in methods:
        names += [d for d in getattr(method, "delegates_to", ()) if d not in names]
    return "; ".join(f"{name} {version(name)}" for name in names)
