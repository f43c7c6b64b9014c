"""The conformance certificate of every splitter (``stratbench certify``) with its real-data sizes, written where
users read it: ``docs/conformance.md`` (dated, with the commit, the machine and the versions) and
``src/stratbench/data/measured/fold_sizes.csv`` (what ``stratbench list`` says each method keeps, as measured).

    STRATBENCH_DATA_MIRROR=../shared/datasets/mulan python benchmarks/certificate.py

About a minute on this project's 2-core machine.
"""

from __future__ import annotations

import datetime
import platform
import subprocess
from importlib import metadata
from pathlib import Path

from stratbench.io import write_rows, write_text
from stratbench.model_selection import conformance

ROOT = Path(__file__).resolve().parents[1]


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def main() -> None:
    from stratbench.datasets.fetch import MIRROR_ENV, resolve_mirror

    if resolve_mirror() is None:
        raise SystemExit(f"set {MIRROR_ENV}: the shipped sizes are measured on the MULAN mirror's datasets")
    ours = conformance.ours()
    results = conformance.certificate([*ours, *conformance.classes(), *conformance.peers()])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    versions = ", ".join(f"{p} {version(p)}" for p in ("scikit-learn", "numpy", "scipy", "iterative-stratification",
                                                         "scikit-multilearn"))
    header = (f"# Conformance certificate\n\nWritten by `python benchmarks/certificate.py` (`stratbench certify` with the "
              f"MULAN mirror) on {datetime.date.today()}, commit {commit}, {platform.machine()} "
              f"{platform.processor() or platform.platform()}; {versions}. What each property means: "
              "`stratbench.model_selection.conformance`.\n\n")
    write_text(ROOT / "docs" / "conformance.md", header + conformance.markdown(results))
    registered = {s.name for s in ours}
    rows = [(r.splitter, round(r.measured["real_sizes"][0], 3), r.measured["real_sizes"][1]) for r in results
            if r.splitter in registered and "real_sizes" in r.measured]
    write_rows(ROOT / "src" / "stratbench" / "data" / "measured" / "fold_sizes.csv", ["method", "rows_off", "where"], rows)
    print(conformance.markdown(results))


if __name__ == "__main__":
    main()
