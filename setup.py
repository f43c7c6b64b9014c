"""Builds ``stratbench._aot``: the kernels of ``src/stratbench/_kernels`` compiled ahead of time by numba's pycc
(:mod:`stratbench._kernels._build`), so that an installed stratbench splits without numba and without a
compilation. Everything else about the package is in pyproject.toml."""

import glob
import os
import sys

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "src"))

from stratbench._kernels._build import compiled_module  # noqa: E402

# every kernel source, so that a build folder's module older than any of them is rebuilt, not packed again
KERNELS = sorted(glob.glob(os.path.join(HERE, "src", "stratbench", "_kernels", "*.py")))

setup(ext_modules=[compiled_module().distutils_extension(depends=KERNELS)])
