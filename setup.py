"""Builds ``stratbench._aot``: the kernels of ``src/stratbench/_kernels`` compiled ahead of time by numba's pycc
(:mod:`stratbench._kernels._build`), so that an installed stratbench splits without numba and without a
compilation. Everything else about the package is in pyproject.toml."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from stratbench._kernels._build import compiled_module  # noqa: E402

setup(ext_modules=[compiled_module().distutils_extension()])
