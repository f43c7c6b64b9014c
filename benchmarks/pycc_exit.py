"""The exit from numba's ``pycc`` (announced for removal), prototyped on one kernel and measured against today's
(run by hand; figures in docs/benchmarks.md, "Leaving numba.pycc").

    python benchmarks/pycc_exit.py [--rows 2000000] [--combos 5000] [--folds 10] [--repeats 7]

It needs uv (to build the prototype) and, for pycc, setuptools in the environment (``uv pip install setuptools``).

The kernel is ``fold_counts`` (combinations × folds counts; every fold-quality measure and the hybrid read it),
written in Cython (``benchmarks/pycc_exit/stratbench_cython_prototype.pyx``) and built by meson-python, as scikit-learn builds its
compiled code. Against it: today's ahead-of-time module of the installed stratbench (``stratbench._aot``), and the
same kernel compiled alone by ``pycc``. Printed: each build's wall time (the Cython one includes uv's isolated
build environment: meson, ninja, Cython), each extension's size, and the best of ``--repeats`` calls on a random
problem of ``--rows`` rows with 1–5 combinations each; the three outputs must be equal, byte for byte.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent / "pycc_exit"


def uv() -> str:
    found = shutil.which("uv") or str(pathlib.Path(sys.prefix).parent / ".venv.uv" / "bin" / "uv")
    if not os.path.exists(found):
        sys.exit("benchmarks/pycc_exit.py needs uv on PATH (or the checkout's .venv.uv) to build the Cython prototype")
    return found


def build_cython(tmp: pathlib.Path) -> tuple[float, pathlib.Path]:
    start = time.perf_counter()
    subprocess.run([uv(), "build", "--quiet", "--wheel", "--python", sys.executable, "-o", str(tmp / "dist"),
                    str(HERE)], check=True)
    seconds = time.perf_counter() - start
    wheel = next((tmp / "dist").glob("*.whl"))
    subprocess.run([uv(), "pip", "install", "--quiet", "--python", sys.executable, "--no-deps", "--target",
                    str(tmp / "site"), str(wheel)], check=True)
    sys.path.insert(0, str(tmp / "site"))
    return seconds, next((tmp / "site").glob("stratbench_cython_prototype*.so"))


def build_pycc(tmp: pathlib.Path) -> tuple[float, pathlib.Path]:
    import warnings

    from numba.core.errors import NumbaPendingDeprecationWarning

    from stratbench._kernels.combinations import fold_counts

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        from numba.pycc import CC
    cc = CC("pycc_fold_counts")
    cc.output_dir = str(tmp / "pycc")
    # the kernel's Python function (compiled or JIT, either keeps it), as _kernels/_build.py exports it
    cc.export("fold_counts", "int32[:, ::1](int64[::1], int32[::1], int64[::1], int64, int64)")(fold_counts.py_func)
    start = time.perf_counter()
    cc.compile()
    seconds = time.perf_counter() - start
    sys.path.insert(0, cc.output_dir)
    return seconds, next(pathlib.Path(cc.output_dir).glob("pycc_fold_counts*.so"))


def problem(rows: int, combos: int, folds: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    per_row = rng.integers(1, 6, rows)
    row_ptr = np.concatenate([[0], np.cumsum(per_row)]).astype(np.int64)
    row_combos = rng.integers(0, combos, row_ptr[-1]).astype(np.int32)
    return row_ptr, row_combos, rng.integers(0, folds, rows).astype(np.int64)


def best(function, args, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--combos", type=int, default=5000)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    aot = importlib.import_module("stratbench._aot")  # today's: the installed wheel's (before the JIT is chosen)
    with tempfile.TemporaryDirectory() as folder:
        tmp = pathlib.Path(folder)
        cython_s, cython_so = build_cython(tmp)
        pycc_s, pycc_so = build_pycc(tmp)
        import pycc_fold_counts
        import stratbench_cython_prototype

        row_ptr, row_combos, fold = problem(args.rows, args.combos, args.folds)
        call = (row_ptr, row_combos, fold, args.folds, args.combos)
        kernels = {"stratbench._aot (today's wheel, pycc)": (aot.combinations__fold_counts, pathlib.Path(aot.__file__), None),
                   "pycc, this kernel alone": (pycc_fold_counts.fold_counts, pycc_so, pycc_s),
                   "Cython + meson-python": (stratbench_cython_prototype.fold_counts, cython_so, cython_s)}
        reference = aot.combinations__fold_counts(*call)
        print(f"fold_counts on {args.rows:,} rows ({row_ptr[-1]:,} combinations), {args.combos:,} combinations × "
              f"{args.folds} folds; best of {args.repeats} calls\n")
        print("| build | build (s) | extension (KiB) | a call (ms) | output |")
        print("|---|---|---|---|---|")
        for name, (function, so, built) in kernels.items():
            out = function(*call)
            same = out.dtype == reference.dtype and np.array_equal(out, reference)
            print(f"| {name} | {'—' if built is None else f'{built:.1f}'} | {so.stat().st_size / 1024:,.0f} | "
                  f"{1000 * best(function, call, args.repeats):.1f} | {'equal' if same else 'DIFFERENT'} |")
            if not same:
                sys.exit(f"{name}: its counts differ from today's kernel")


if __name__ == "__main__":
    main()
