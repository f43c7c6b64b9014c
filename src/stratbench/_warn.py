"""Warnings that point at the user's line: the first frame outside stratbench, however deep inside the
package the warning is raised (``warnings.warn``'s fixed ``stacklevel`` points at stratbench's own lines
whenever a call path changes)."""

from __future__ import annotations

import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` attributed to the caller's caller outside stratbench."""
    frame, level = sys._getframe(1), 2
    while frame is not None and _inside(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level if frame is not None else 2)  # no user frame: stratbench's own


def _inside(filename: str) -> bool:
    """Whether a frame is stratbench's (or the interpreter's start-up: ``python -m stratbench``)."""
    return filename.startswith("<frozen") or os.path.abspath(filename).startswith(_PACKAGE)


def renamed(module: str, names: dict):
    """A module's ``__getattr__`` that still answers each old name of ``names`` (old → new) with the new object,
    and a DeprecationWarning at the user's line: the old names stay for one release."""

    def __getattr__(name: str):
        if name in names:
            warn(f"{module}.{name} is renamed {names[name]} (one suffix, as IterativeStratifier's); the old name goes "
                 "in the next release", DeprecationWarning)
            return getattr(sys.modules[module], names[name])
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
