"""The first split of a compiled method in a fresh environment (an empty numba cache: its kernels compile)
and in a second process (they load from the cache), run by hand; figures go in issue notes.

    python benchmarks/first_call.py [--methods iterative sois hybrid optisplit_rld] [--repeats 3]

Each run is a new Python process with its own empty ``NUMBA_CACHE_DIR``: it imports the stratifiers, then
times ``fold_ids`` on a 300 × 6 label matrix (density 0.3, 5 folds) twice in the same process (the second
call is the split's own work). A second process on the same cache times the first call again. Printed per
method: the median over the repeats of the import, the first call, the split's work and the second
process's first call, in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from stratbench import stratifiers
t1 = time.perf_counter()
Y = (np.random.default_rng(0).random((300, 6)) < 0.3).astype(np.int8)
s = stratifiers.get(sys.argv[1], n_splits=5, random_state=0)
s.fold_ids(Y)
t2 = time.perf_counter()
s.fold_ids(Y)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t2 - t1, "work": t3 - t2}))
"""


def run(method: str, cache: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", CHILD, method], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", nargs="+", default=["iterative", "sois", "hybrid", "optisplit_rld"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print("| method | import s | first fold_ids, fresh cache s | its work s | second process's first fold_ids s |")
    print("|---|---|---|---|---|")
    for method in args.methods:
        fresh, second = [], []
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as cache:
                fresh.append(run(method, cache))
                second.append(run(method, cache))
        med = {key: statistics.median(r[key] for r in fresh) for key in ("import", "first", "work")}
        print(f"| {method} | {med['import']:.2f} | {med['first']:.1f} | {med['work']:.3f} | "
              f"{statistics.median(r['first'] for r in second):.3f} |", flush=True)


if __name__ == "__main__":
    main()
