"""How the kernels run: compiled ahead of time, or by numba on their first call.

A wheel of stratbench holds ``stratbench._aot``, an extension module that ``setup.py`` builds from this
package's kernel modules with numba's ahead-of-time compiler (``numba.pycc``): a split needs neither numba
nor a compilation. Where that module is absent (a source checkout not built) or older than the kernel
sources it was built from (their SHA-256 is compiled into it), the same functions run under numba's JIT,
cached on disk (``cache=True``), with a one-line notice before the first compilation.

``STRATBENCH_KERNELS`` chooses: ``auto`` (the default: ahead of time where current, else the JIT), ``aot``
(ahead of time, or an ImportError saying why not) or ``jit`` (the JIT: the reference the compiled module
is tested against, ``tests/test_kernels.py``).

Python calls a kernel of many arguments through :func:`call`, by its parameters' names: one record (a named tuple
of every parameter, none missing, none other) that one adapter flattens into the positional arguments the
compiled function takes, so no caller depends on the order of 10–17 arguments.

A kernel module marks its functions with :func:`jit` (called only from other kernels) or :func:`kernel`
(called from Python: exported by the compiled module under ``<module>__<name>``, with the argument types it
is compiled for). Called ahead of time, an entry checks its arguments against those types as a compiled
function cannot: an array of another layout, or of a dtype that casts within its kind, is converted when the
kernel only reads it; one the kernel writes into (``"int64[::1]!"``) is refused (TypeError), since the kernel
would write into a copy, as is a float array where integers are expected.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import importlib
import inspect
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
MODES = ("auto", "aot", "jit")
ENTRIES: dict[str, tuple] = {}  # export name -> (the Python function, its argument types)


def source_digest() -> int:
    """The first 64 bits of the SHA-256 of every kernel module (this package's ``*.py`` but this one and
    ``__init__``), in file-name order: the compiled module holds the digest of what it was built from."""
    digest = hashlib.sha256()
    for path in sorted(HERE.glob("*.py")):
        if path.name not in ("__init__.py", "_compile.py"):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return int.from_bytes(digest.digest()[:8], "little")  # the compiled module's: as int64, two's complement


def _choose() -> tuple[str, object, str]:
    """(``"aot"`` or ``"jit"``, the compiled module or None, why the JIT where it is chosen)."""
    wanted = os.environ.get("STRATBENCH_KERNELS", "auto") or "auto"
    if wanted not in MODES:
        raise ImportError(f"STRATBENCH_KERNELS={wanted!r}: set it to one of {', '.join(MODES)} (or unset it)")
    if wanted == "jit":
        return "jit", None, "STRATBENCH_KERNELS=jit"
    try:
        aot = importlib.import_module("stratbench._aot")
    except ImportError:
        aot, why = None, "no compiled kernels in this installation (a source checkout not built)"
    else:
        why = "" if int(aot.source_digest()) % (1 << 64) == source_digest() else (
            f"the compiled kernels ({pathlib.Path(aot.__file__).name}) are older than their sources: rebuild "
            "them by reinstalling stratbench (pip install -e ., or uv sync --all-extras --reinstall-package stratbench)")
    if not why:
        return "aot", aot, ""
    if wanted == "aot":
        raise ImportError(f"STRATBENCH_KERNELS=aot, but {why}")
    return "jit", None, why


MODE, _AOT, WHY_JIT = _choose()

if MODE == "jit":
    try:
        import numba
    except ImportError:  # the kernels cannot run; importing stratbench still works, a split says why not
        numba = None
else:
    numba = None


def jit(function):
    """A function the kernels call: compiled by numba into each kernel that calls it (ahead of time it is
    compiled into the extension module; the Python function is kept, never called)."""
    return numba.njit(cache=True)(function) if numba is not None else function


def kernel(*argtypes: str):
    """A kernel Python calls, compiled for ``argtypes`` (numba's spelling: ``"int64[::1]"`` a C-contiguous
    vector, ``"float64[:, ::1]"`` a C matrix, ``"float64[::1, :]"`` a Fortran one, ``"uint64"``,
    ``"boolean"``; a trailing ``!`` marks an array the kernel writes into)."""
    def decorate(function):
        name = f"{function.__module__.rsplit('.', 1)[-1]}__{function.__name__}"
        ENTRIES[name] = (function, argtypes)
        if MODE == "aot":
            return _Compiled(getattr(_AOT, name), function, argtypes)
        if numba is None:
            return _Missing(function)
        return numba.njit(cache=True)(function)
    return decorate


_RECORDS: dict = {}


def record(kernel) -> type:
    """The record of ``kernel``'s arguments: a named tuple of its parameters, in their order."""
    function = kernel.py_func
    if function not in _RECORDS:
        _RECORDS[function] = collections.namedtuple(f"{function.__name__}_arguments",
                                                    list(inspect.signature(function).parameters))
    return _RECORDS[function]


def call(kernel, **arguments):
    """``kernel`` run on its arguments given by name: their record (:func:`record`; a missing or unknown name is
    a TypeError naming it), flattened into the positional arguments of the compiled function."""
    return kernel(*record(kernel)(**arguments))


_NUMPY = {"int8": np.int8, "uint8": np.uint8, "int32": np.int32, "int64": np.int64, "uint64": np.uint64,
          "float32": np.float32, "float64": np.float64, "boolean": np.bool_}
_TYPE = re.compile(r"(\w+)(?:\[(.*)\])?(!?)")


def _argument(spelling: str):
    """(dtype, ndim, order, written) of an array type; (dtype, 0, None, False) of a scalar."""
    base, dims, written = _TYPE.fullmatch(spelling.replace(" ", "")).groups()
    if dims is None:
        return _NUMPY[base], 0, None, False
    axes = dims.split(",")
    return _NUMPY[base], len(axes), "F" if len(axes) > 1 and axes[0] == "::1" else "C", bool(written)


class _Compiled:
    """An entry of the compiled module: its arguments checked and converted (see the module docstring)."""

    def __init__(self, compiled, function, argtypes):
        self._compiled, self.py_func = compiled, function
        self.__name__, self.__doc__ = function.__name__, function.__doc__
        self._arguments = [_argument(t) for t in argtypes]

    def __call__(self, *args):
        if len(args) != len(self._arguments):
            raise TypeError(f"{self.__name__}() takes {len(self._arguments)} arguments, got {len(args)}")
        converted = []
        for position, (value, (dtype, ndim, order, written)) in enumerate(zip(args, self._arguments)):
            if ndim == 0:
                converted.append(dtype(value) if dtype is not np.bool_ else bool(value))
                continue
            fits = (isinstance(value, np.ndarray) and value.dtype == dtype and value.ndim == ndim
                    and value.flags["C_CONTIGUOUS" if order == "C" else "F_CONTIGUOUS"] and value.flags.aligned)
            if not fits:
                if written:
                    raise TypeError(f"{self.__name__}(): argument {position} must be a {order}-contiguous "
                                    f"{np.dtype(dtype).name} array of {ndim} dimension(s) (the kernel writes into "
                                    f"it), got {type(value).__name__} {getattr(value, 'dtype', '')}")
                value = np.asarray(value)
                if not np.can_cast(value.dtype, dtype, "same_kind"):
                    raise TypeError(f"{self.__name__}(): argument {position} must be {np.dtype(dtype).name}, got "
                                    f"{value.dtype} (a conversion would change its values)")
                value = np.array(value, dtype=dtype, order=order, copy=True)
                if value.ndim != ndim:
                    raise TypeError(f"{self.__name__}(): argument {position} must have {ndim} dimension(s), "
                                    f"got {value.ndim}")
            converted.append(value)
        return self._compiled(*converted)


class _Missing:
    """A kernel that can run neither ahead of time nor under numba: calling it says how to mend that."""

    def __init__(self, function):
        self.py_func, self.__name__ = function, function.__name__

    def __call__(self, *args):
        raise ImportError(f"stratbench's kernel {self.__name__} cannot run: {WHY_JIT}, and numba is not "
                          "installed to compile it. Install stratbench from its wheel (pip install --force-reinstall "
                          "stratbench) or install numba")


_PREPARED: set = set()


def compile_once(name: str, kernels, here=None, elsewhere=(), seconds: float = 0.0) -> None:
    """Under the JIT (ahead of time it does nothing), before a method's first split in a process: where one of
    the ``kernels`` it will call has no copy in numba's on-disk cache (``cache=True``: beside the sources, or a
    user-wide folder where they are read-only), one line on stderr says that they are compiled now, once, and
    about how long it takes; then ``here`` (a callable that runs some of them on a tiny problem) runs in this
    process while each ``"module:function"`` of ``elsewhere`` runs in a process of its own, all at once, and the
    split loads what they compiled from disk. A part that fails elsewhere is only compiled later, here: the folds never depend on it.

    Processes that make the same first split at once (a study's first jobs) take turns on a lock file
    beside the cache: one compiles, the others wait and load its kernels.
    """
    if MODE == "aot" or numba is None or (name, kernels) in _PREPARED:
        return
    _PREPARED.add((name, kernels))
    if all(_on_disk(k) for k in kernels):
        return
    with _lock(kernels[0], name):
        if all(_on_disk(k) for k in kernels):
            return  # another process compiled them while this one waited
        print(f"stratbench: compiling {name}'s kernels, once for this environment ({WHY_JIT}): about "
              f"{seconds:g} s", file=sys.stderr, flush=True)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        children = []
        for part in elsewhere:  # stderr to a file: a full pipe would stall the child
            err = tempfile.TemporaryFile()
            children.append((part, err, subprocess.Popen(
                [sys.executable, "-c", "import importlib, sys; m, f = sys.argv[1].split(':'); "
                 "getattr(importlib.import_module(m), f)()", part], env=env, stdout=subprocess.DEVNULL, stderr=err)))
        try:
            if here is not None:
                here()
        except Exception:  # noqa: BLE001 - the split itself compiles what is left, and says what is wrong
            pass
        finally:
            for part, err, child in children:
                with err:
                    if child.wait():
                        err.seek(0)
                        last = (err.read().decode(errors="replace").strip().splitlines() or ["no message"])[-1]
                        print(f"stratbench: compiling {part} in a second process failed ({last}); it compiles "
                              "here", file=sys.stderr, flush=True)


def _on_disk(dispatcher) -> bool:
    """Whether numba's on-disk cache holds an index for ``dispatcher`` (True where that cannot be told)."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:
        return True


@contextlib.contextmanager
def _lock(dispatcher, name: str):
    """An exclusive lock on ``<the dispatcher's cache folder>/stratbench-<name>.lock`` for as long as the block
    runs; no lock where there is no such folder to write or no ``fcntl`` (Windows)."""
    try:
        import fcntl

        folder = dispatcher._cache._cache_path
        os.makedirs(folder, exist_ok=True)
        handle = open(os.path.join(folder, f"stratbench-{name}.lock"), "a")
    except (ImportError, AttributeError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
