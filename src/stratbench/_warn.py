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
        # warnings itself steps over the import system's frames (an old module path's import) without counting them
        frame, level = frame.f_back, level + (frame.f_back is None or not _import_system(frame.f_back.f_code.co_filename))
    warnings.warn(message, category, stacklevel=level if frame is not None else 2)  # no user frame: stratbench's own


def _import_system(filename: str) -> bool:
    """A frame ``warnings`` skips when it counts ``stacklevel`` (CPython's ``_is_internal_frame``)."""
    return "importlib" in filename and "_bootstrap" in filename


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


class MovedModules:
    """An import finder that still answers each old module path of ``moved`` (old → new) with the new module, and
    a DeprecationWarning at the user's import line: the modules grouped into rooms keep their old paths for one
    release. Installed on ``sys.meta_path`` by ``stratbench/__init__.py``."""

    def __init__(self, moved: dict):
        self.moved = moved

    def find_spec(self, name, path=None, target=None):
        if name not in self.moved:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        warn(f"{spec.name} has moved to {self.moved[spec.name]}; the old path goes in the next release",
             DeprecationWarning)
        import importlib

        return importlib.import_module(self.moved[spec.name])

    def exec_module(self, module) -> None:
        """Nothing to run: the new module ran when imported."""
