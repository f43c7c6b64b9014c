"""The first split in a fresh process and a fresh environment: what a user who splits once per process waits for
(run by hand; figures go in issue notes).

    python benchmarks/first_call.py [--python LABEL=PATH …] [--methods …] [--repeats 3] [--rows 10000 --labels 100]

For each interpreter (``--python``: a label and the python of an environment with stratbench installed; by
default this one) and each method, a new process with an empty numba cache (``NUMBA_CACHE_DIR``: a JIT
compiles everything) imports the method's module, then times ``fold_ids`` on an n × q random label matrix
(density 0.05, 5 folds) twice: the first call is what a user waits for, the second the split's own work. The
peers (iterative-stratification's MultilabelStratifiedKFold, scikit-multilearn's IterativeStratification) are
timed the same way where the interpreter has them. Printed per (environment, method): the median over
``--repeats`` of the import, the first call and the second, in seconds, and how stratbench's kernels ran there
(compiled ahead of time, or numba's JIT). Every method stratbench implements but the group baselines, which
call scikit-learn or a peer, and ``from_file`` (folds read from files).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

METHODS = ["iterative", "sois", "hybrid", "optisplit_rld", "optisplit_dcp", "labelset", "labelset_sklearn2017",
           "pmbsrs", "ss", "random", "kfold"]
PEERS = ["iterstrat", "skmultilearn"]

CHILD = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
method, n, q = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t0 = time.perf_counter()
import numpy as np
import scipy.sparse as sp
if method == "iterstrat":
    from iterstrat.ml_stratifiers import MultilabelStratifiedKFold
    def split(Y):
        folds = np.empty(Y.shape[0], dtype=np.int64)
        for j, (_, test) in enumerate(MultilabelStratifiedKFold(n_splits=5, shuffle=True, random_state=0)
                                       .split(np.zeros((Y.shape[0], 1)), Y.toarray())):
            folds[test] = j
elif method == "skmultilearn":
    from skmultilearn.model_selection import IterativeStratification
    def split(Y):
        folds = np.empty(Y.shape[0], dtype=np.int64)
        for j, (_, test) in enumerate(IterativeStratification(n_splits=5, order=1)
                                       .split(np.zeros((Y.shape[0], 1)), Y.toarray())):
            folds[test] = j
else:
    from stratbench import stratifiers
    def split(Y):
        stratifiers.get(method, n_splits=5, random_state=0).fold_ids(Y)
t1 = time.perf_counter()
rng = np.random.default_rng(0)
Y = sp.csr_matrix((rng.random((n, q)) < 0.05).astype(np.int8))
t2 = time.perf_counter()
split(Y)
t3 = time.perf_counter()
split(Y)
t4 = time.perf_counter()
try:
    from stratbench._kernels import _compile
    kernels = "compiled ahead of time" if _compile.MODE == "aot" else "numba JIT"
except ImportError:
    kernels = "numba JIT"
print(json.dumps({"import": t1 - t0, "first": t3 - t2, "work": t4 - t3, "kernels": kernels}))
"""


def run(python: str, method: str, n: int, q: int) -> dict | None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        env.pop("STRATBENCH_KERNELS", None)
        out = subprocess.run([python, "-c", CHILD, method, str(n), str(q)], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        return None if "No module named" in out.stderr else {"error": out.stderr.strip().splitlines()[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", nargs="+", default=[f"this={sys.executable}"],
                        help="LABEL=PATH of the interpreters to compare")
    parser.add_argument("--methods", nargs="+", default=METHODS + PEERS)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--labels", type=int, default=100)
    args = parser.parse_args(argv)
    print(f"{args.rows} × {args.labels}, density 0.05, 5 folds; median of {args.repeats} fresh processes")
    print("| environment | kernels | method | import s | first fold_ids s | its work s |")
    print("|---|---|---|---|---|---|")
    for spec in args.python:
        label, python = spec.split("=", 1)
        for method in args.methods:
            runs = [run(python, method, args.rows, args.labels) for _ in range(args.repeats)]
            if any(r is None for r in runs):
                continue  # not installed in this environment
            if any("error" in r for r in runs):
                print(f"| {label} | – | {method} | failed: {next(r for r in runs if 'error' in r)['error']} | | |")
                continue
            med = {key: statistics.median(r[key] for r in runs) for key in ("import", "first", "work")}
            kernels = runs[0]["kernels"] if method not in PEERS else "–"
            print(f"| {label} | {kernels} | {method} | {med['import']:.2f} | {med['first']:.3f} | {med['work']:.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
