"""Do two commits give the same outputs? Runs the same studies at both, each in its own git worktree,
and compares every result file byte for byte (measured times aside).

    python benchmarks/same_outputs.py BASE [HEAD] [--mirror ../shared/datasets/mulan] [--cores 2] [--studies quick …]

Studies: the default study (``config/config.yaml``), Tables 1–2 of Sechidis et al. 2011 at full size
(``benchmarks/sechidis2011_fold_quality.yaml``), the fold-quality and network part of
``config/szymanski2017.yaml`` (2 repeats, no classifiers), ``config/tiittanen2021.yaml`` on bibtex and
delicious (2 repeats) and a two-dataset grid of ``config/stratbench2026.yaml`` (k 3 and 5, 2 seeds, the optimality
gap's solver at 5 deterministic seconds).
``--studies`` runs only those named. Prints one line per study: files compared, identical, different (named), measured (skipped).
A worktree's results are kept under ``/tmp/stratbench-same/<commit>`` and reused when present.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(os.environ.get("STRATBENCH_SAME_DIR", "/tmp/stratbench-same"))
# outputs that hold measured times: the runtime tables and figures, Snakemake's benchmark files,
# and the tables whose cells include a stratifier's seconds
MEASURED = re.compile(r"runtime|/benchmarks/|/estimate/|tiittanen2021_table2|fold_quality_papers\.md|"
                      r"paper_tables\.md|grid_quality|grid_summary|tables\.tex|recommendation\.md|report\.html|"
                      r"/provenance\.json|/manifest\.tsv|/manifest-sha256\.txt|/claims\.tsv")  # the run's record: its times and CPU
# a report's line naming the commit that made it (Markdown), and the same sentence inside the HTML report's paragraph
MADE_WITH = re.compile(rb"^Made with stratbench .*$|Made with stratbench \S+ at commit [0-9a-f]+", re.M)


def studies(tree: Path) -> dict[str, dict]:
    """study file name → config, derived from the checkout's own configs."""
    load = lambda p: yaml.safe_load((tree / p).read_text())  # noqa: E731
    szym = load("config/szymanski2017.yaml") | {"repeats": 2, "classifiers": {}}
    tiit = load("config/tiittanen2021.yaml") | {"repeats": 2}
    tiit["datasets"] = {d: v for d, v in tiit["datasets"].items() if d in ("bibtex", "delicious")}
    grid = load("config/stratbench2026.yaml") | {"repeats": 2}
    grid["datasets"] = {d: v for d, v in grid["datasets"].items() if d in ("emotions", "yeast")}
    grid["grid"] = {**grid["grid"], "n_splits": [3, 5]}
    optimum = [d for d in (grid["grid"].get("optimum") or {}).get("datasets", []) if d in grid["datasets"]]
    grid["grid"]["optimum"] = {**grid["grid"]["optimum"], "datasets": optimum, "max_time": 5} if optimum else None
    grid["grid"] = {k: v for k, v in grid["grid"].items() if v is not None}
    grid.pop("dataset_groups", None)
    return {"quick": load("config/config.yaml"), "sechidis2011_fold_quality": load("benchmarks/sechidis2011_fold_quality.yaml"),
            "szymanski2017": szym, "tiittanen2021": tiit, "stratbench2026": grid}


def run(commit: str, cores: int, mirror: str, names) -> Path:
    tree = WORK / commit
    if not tree.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], check=True)
    env = {**os.environ, "STRATBENCH_DATA_MIRROR": str(Path(mirror).resolve()), "PYTHONPATH": str(tree / "src")}
    for name, config in studies(tree).items():
        if name not in names:
            continue
        path = tree / "results" / f"same_outputs_{name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(config, sort_keys=False))
        log = tree / "results" / f"same_outputs_{name}.log"
        with open(log, "w") as fh:
            done = subprocess.run(["snakemake", "--cores", str(cores), "--configfile", str(path), "--rerun-incomplete"],
                                  cwd=tree, env=env, stdout=fh, stderr=subprocess.STDOUT)
        print(f"{commit} {name}: snakemake exit {done.returncode} ({log})", file=sys.stderr)
    return tree


SECONDS_ROWS = re.compile(rb"^[^\n]*,seconds,[^\n]*\n", re.M)  # a grid job's measured split times (its "seconds" rows)
LAST_COLUMN = re.compile(rb",[^,\n]*$", re.M)  # an optimum file's solver seconds (its last column)
RUNTIME_ROWS = re.compile(rb"^[^\n]*runtime_s[^\n]*\n", re.M)  # a report's stratifier wall times, shown beside the paper's
RUNTIME_CELLS = re.compile(rb"<tr>(?:(?!</tr>).)*?<td>runtime_s</td>.*?</tr>", re.S)  # the same rows in the HTML report


def unmeasured(path: Path) -> bytes:
    """The file's bytes without what was measured: a report's "Made with" line (the commit, which two commits
    differ in) and its rows of stratifier wall times (in its CSV, Markdown and HTML), a grid job's "seconds" rows, an optimum file's solver
    seconds."""
    data = MADE_WITH.sub(b"", path.read_bytes())
    if path.parent.parent.name == "grid" and path.suffix == ".csv":
        data = SECONDS_ROWS.sub(b"", data)
    if path.parent.name == "optimum" and path.suffix == ".csv":
        data = LAST_COLUMN.sub(b"", data)
    if path.stem == "reproduction" and path.suffix in (".csv", ".md"):
        data = RUNTIME_ROWS.sub(b"", data)
    if path.stem == "reproduction" and path.suffix == ".html":
        data = RUNTIME_CELLS.sub(b"", data)
    return data


def digests(folder: Path) -> dict[str, str]:
    """Each file's sha256, of its bytes without what was measured (:func:`unmeasured`)."""
    return {str(p.relative_to(folder)): hashlib.sha256(unmeasured(p)).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", default="HEAD")
    parser.add_argument("--mirror", default=str(ROOT.parent / "shared" / "datasets" / "mulan"))
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--studies", nargs="+", choices=list(studies(ROOT)), default=list(studies(ROOT)))
    args = parser.parse_args()
    commits = [subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", c], check=True, capture_output=True,
                              text=True).stdout.strip() for c in (args.base, args.head)]
    trees = [run(c, args.cores, args.mirror, args.studies) for c in commits]
    same = True
    for name in args.studies:
        a, b = (digests(t / "results" / name) for t in trees)
        shared = sorted(set(a) & set(b))
        measured = [f for f in shared if MEASURED.search("/" + f)]
        compared = [f for f in shared if f not in measured]
        differ = [f for f in compared if a[f] != b[f]]
        only = sorted(f for f in set(a) ^ set(b) if not MEASURED.search("/" + f))  # a job's benchmark file may move
        same &= not differ and not only
        print(f"{name}: {len(compared)} files compared, {len(compared) - len(differ)} identical, "
              f"{len(differ)} different{': ' + ', '.join(differ) if differ else ''}; {len(measured)} measured "
              f"(skipped){'; only in one: ' + ', '.join(only) if only else ''}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
