"""A job's start-up as the estimate's calibration measures it (``stratbench.cost.calibration.job_startup_seconds``),
with the jobs forked by a run's job server (``stratbench.jobs.server``, the default on Linux) and with each job in a
fresh Python (``STRATBENCH_JOBSERVER=0``), in turn; targets: a split job ≤ 0.5 s, an evaluation job ≤ 1.2 s.

    python benchmarks/job_startup.py [--runs 5]

Each run times every kind of job (best of two, as the estimate does) plus Snakemake's own work per job, both
ways; the table gives the median and range over the runs, in wall seconds (run it on an idle machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from stratbench.cost.calibration import job_startup_seconds
from stratbench.cost.calibration import snakemake_job_seconds as snakemake_share

TARGETS = {"split": 0.5, "job": 1.2}
NAMES = {"split": "a dataset or fold job", "job": "an evaluation job", "network": "network stability",
         "aggregate": "a table or figure"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    seconds = {"fresh Python": [], "job server": []}
    shares = []
    for i in range(args.runs):
        for way, server in (("fresh Python", False), ("job server", True)):
            seconds[way].append(job_startup_seconds(server=server))
        shares.append(snakemake_share())
        print(f"run {i + 1} ({time.strftime('%H:%M')}): " + "; ".join(
            f"{way} " + ", ".join(f"{kind} {s:.2f}" for kind, s in runs[-1].items()) for way, runs in seconds.items()),
            flush=True)
    print(f"\nSnakemake's own work per job, timed once more each run (each figure below holds its own timing of it): "
          f"median {statistics.median(shares):.2f} s, {min(shares):.2f}-{max(shares):.2f}\n")
    print("| job | target | each job in a fresh Python | forked by the job server |")
    print("|---|---|---|---|")
    for kind, name in NAMES.items():
        cells = []
        for runs in seconds.values():
            values = [run[kind] for run in runs]
            cells.append(f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})")
        target = f"≤ {TARGETS[kind]} s" if kind in TARGETS else ""
        print(f"| {name} | {target} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
