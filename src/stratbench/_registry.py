"""A name → class registry, shared by stratifiers and classifiers.

Built-in methods register themselves with a decorator; a config may also name a class by dotted
path (``mypackage.module.MyStratifier``), which is imported on demand. :meth:`Registry.build` makes a
method from a study's config entry, the one way every part of stratbench does.
"""

from __future__ import annotations

import difflib
import importlib
import inspect

from stratbench import StratbenchError


def import_object(path: str, kind: str):
    """The object at the dotted ``path`` (``module.attribute``), imported; one line naming ``kind`` and the
    path where it cannot be."""
    module_name, _, attr = path.rpartition(".")
    if not module_name or not all(part.isidentifier() for part in path.split(".")):
        raise StratbenchError(f"cannot import {kind} {path!r}: a dotted path is absolute, names joined by dots "
                              f"(mypackage.module.MyClass)")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError) as exc:
        raise StratbenchError(f"cannot import {kind} {path!r}: {exc}") from None


class Registry:
    def __init__(self, kind: str, builtin_modules: list[str]):
        self.kind = kind
        self._builtin_modules = builtin_modules
        self._classes: dict[str, type] = {}
        self._loaded = False
        self.base: type | None = None  # every method's base class, and its public name (set by its package)
        self.base_name = ""

    def register(self, name: str):
        """Class decorator: make the class available under ``name``."""

        def decorate(cls):
            if name in self._classes and self._classes[name] is not cls:
                raise StratbenchError(f"{self.kind} {name!r} is registered twice")
            self._classes[name] = cls
            cls.registered_name = name
            return cls

        return decorate

    def _load_builtins(self):
        if not self._loaded:
            for module in self._builtin_modules:
                importlib.import_module(module)
            self._loaded = True

    def names(self) -> list[str]:
        self._load_builtins()
        return sorted(self._classes)

    def resolve(self, name) -> type:
        """The class registered as ``name``, imported from the dotted path ``name``, or ``name`` itself where it is
        a class: checked at once to be a subclass of :attr:`base`, so a wrong method stops where it is named, with
        the nearest registered name where there is one."""
        self._load_builtins()
        if isinstance(name, type):
            return self._checked(name, name.__qualname__)
        if not isinstance(name, str):
            raise StratbenchError(f"a {self.kind} is a registered name ({', '.join(self.names())}), a dotted path "
                                  f"or a class{self._base_text()}; got {name!r} of type {type(name).__name__}")
        if name in self._classes:
            return self._classes[name]
        if "." in name:
            return self._checked(import_object(name, self.kind), name)
        near = difflib.get_close_matches(name.strip().lower(), self.names(), n=1, cutoff=0.6)
        raise StratbenchError(
            f"unknown {self.kind} {name!r};{f' did you mean {near[0]!r}?' if near else ''} registered: "
            f"{', '.join(self.names())} (or give a dotted path such as mypackage.module.MyClass)"
        )

    def _base_text(self) -> str:
        return f" (a subclass of {self.base_name or self.base.__qualname__})" if self.base else ""

    def _checked(self, obj, name: str) -> type:
        """``obj`` where it is a class of this kind (a subclass of :attr:`base`), else one message naming it."""
        if self.base is not None and not (isinstance(obj, type) and issubclass(obj, self.base)):
            what = f"the class {obj.__module__}.{obj.__qualname__}" if isinstance(obj, type) else \
                f"a {type(obj).__name__}"
            raise StratbenchError(f"{self.kind} {name!r} is {what}, not a {self.kind}: give a class{self._base_text()}")
        return obj

    def entry_class(self, name: str, spec: dict | None = None) -> type:
        """The class of a study's config entry ``name: spec``: ``spec["class"]`` (a registered name or a
        dotted path), by default ``name``."""
        return self.resolve((spec or {}).get("class", name))

    def build(self, name: str, spec: dict | None = None, defaults: dict | None = None, **fixed):
        """The method of a study's config entry ``name: spec``: its class (:meth:`entry_class`) built with
        ``defaults`` (a classifier's forest settings), then ``spec["params"]``, then ``fixed`` (n_splits,
        random_state, n_jobs…), each over the last."""
        spec = spec or {}
        return self.get(spec.get("class", name), **{**(defaults or {}), **(spec.get("params") or {}), **fixed})

    def get(self, name: str, **params):
        """An instance of the method ``name`` built with ``params``; a keyword it does not take stops with a
        TypeError naming it and the ones it takes."""
        cls = self.resolve(name)
        accepted = keywords(cls)
        unknown = [k for k in params if accepted is not None and k not in accepted]
        if unknown:
            raise TypeError(f"{self.kind} {name!r} got an unexpected keyword argument {unknown[0]!r}; it takes "
                            f"{', '.join(accepted)}")
        try:
            return cls(**params)
        except TypeError as exc:
            raise StratbenchError(f"{self.kind} {name!r}: bad parameters {params}: {exc}") from None


def keywords(cls, skip=("self",)) -> list[str] | None:
    """The keyword parameters of ``cls.__init__`` but ``skip``; None where it takes any (``**kwargs``)."""
    parameters = inspect.signature(cls.__init__).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters if p.name not in skip and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
