"""The kernels compiled ahead of time: ``stratbench._aot``, built by ``setup.py`` with numba's ``pycc``.

Every :func:`~stratbench._kernels._compile.kernel` of the kernel modules is exported under
``<module>__<name>`` for the argument types it declares (its return type as numba infers it), with
``source_digest()``: the digest of the sources it was built from, which :mod:`~stratbench._kernels._compile`
compares with the installed sources before it uses the module. The code is generic for the architecture
(``x86-64``, ``aarch64``): the wheel runs on any machine of it.
"""

from __future__ import annotations

import importlib
import os

MODULES = ("common", "combinations", "fold_quality", "synthetic", "iterative", "sois", "optisplit", "group_search",
           "ld_polish", "hybrid")


def compiled_module():
    """The ``numba.pycc.CC`` of ``stratbench._aot`` with every entry exported (to build with its
    ``distutils_extension()`` or ``compile()``); imports the kernel modules under numba's JIT."""
    os.environ["STRATBENCH_KERNELS"] = "jit"
    import warnings

    import numba
    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():  # pycc is pending deprecation; the JIT is the fallback if it goes
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        from numba.pycc import CC

    from stratbench._kernels import _compile

    if _compile.MODE != "jit" or _compile.numba is None:
        raise RuntimeError(f"the kernels must be imported under numba's JIT to be compiled ({_compile.WHY_JIT})")
    for name in MODULES:
        importlib.import_module(f"stratbench._kernels.{name}")
    cc = CC("_aot", source_module="stratbench._kernels")
    for name, (function, argtypes) in sorted(_compile.ENTRIES.items()):
        types = tuple(eval(t.rstrip("!"), {}, vars(numba.types)) for t in argtypes)  # noqa: S307 - our literals
        dispatcher = numba.njit(function)
        dispatcher.compile(types)
        cc.export(name, dispatcher.overloads[types].signature.return_type(*types))(function)
    digest = _compile.source_digest()
    signed = digest - (1 << 64) if digest >= 1 << 63 else digest

    def source_digest():  # pragma: no cover - compiled
        return signed

    cc.export("source_digest", "int64()")(source_digest)
    return cc
