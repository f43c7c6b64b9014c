"""A study's wall and CPU time from a fresh working folder, run by hand (figures go in issue notes): the
quick study's target is 2 minutes on this project's 2-core machine.

    python benchmarks/study_time.py [--configfile config/config.yaml] [--cores 2] [--runs 3] [--estimate]
                                    [--jobserver on|off|both]

Each run is ``snakemake --cores N`` on the config in a new temporary folder (datasets generated or read
from ``STRATBENCH_DATA_MIRROR`` there, nothing reused): its wall time, the CPU time of Snakemake and every
job (the process tree's getrusage), and the jobs' own CPU from their ``stratbench-usage`` lines per rule
(``benchmarks/job_efficiency.py``). ``--estimate`` runs ``stratbench estimate`` first, for the ratio.
``--jobserver both`` runs each time once with every job in a fresh Python (``STRATBENCH_JOBSERVER=0``) and once
with the jobs forked by the run's job server (the default, :mod:`stratbench.jobs.server`), in turn.
This machine's speed varies by up to 1.3× within an hour: compare commits in runs close together.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from job_efficiency import usage  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(config: Path, cores: int, jobserver: str = "on") -> dict:
    """One run of the study in a fresh folder: wall_s, cpu_s (every process: Snakemake, the job server and the
    jobs), jobs, jobs_cpu_s, by_rule."""
    with tempfile.TemporaryDirectory(prefix="study_time_") as tmp:
        work = Path(tmp)
        cpu0, t0 = children_cpu(), time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "workflow" / "Snakefile"),
             "--directory", str(work), "--configfile", str(config.resolve()), "--cores", str(cores)],
            capture_output=True, text=True, env={**os.environ, "STRATBENCH_CACHE": str(work / "cache"),
                                                 "STRATBENCH_JOBSERVER": "" if jobserver == "on" else "0"})
        wall, cpu = time.perf_counter() - t0, children_cpu() - cpu0
        if result.returncode:
            sys.exit(f"snakemake failed:\n{result.stderr[-3000:]}")
        jobs = usage(work, yaml.safe_load(config.read_text()))
    by_rule = jobs.groupby("rule")["cpu_s"].agg(["size", "sum"]).sort_values("sum", ascending=False)
    return dict(wall_s=wall, cpu_s=cpu, jobs=len(jobs), jobs_cpu_s=float(jobs["cpu_s"].sum()), by_rule=by_rule)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "config.yaml")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--estimate", action="store_true", help="run `stratbench estimate` first")
    parser.add_argument("--jobserver", choices=("on", "off", "both"), default="on",
                        help="jobs forked by the run's job server (on, the default), each in a fresh Python (off), "
                             "or both in turn")
    args = parser.parse_args()
    if args.estimate:
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, "-m", "stratbench", "estimate", "--configfile", str(args.configfile),
                            "--cores", str(args.cores), "--out", out], check=True)
    modes = ("off", "on") if args.jobserver == "both" else (args.jobserver,)
    for i in range(args.runs):
        for mode in modes:
            r = run(args.configfile, args.cores, mode)
            print(f"run {i + 1}, job server {mode} ({time.strftime('%H:%M')}): {r['wall_s']:.1f} s wall, "
                  f"{r['cpu_s']:.1f} CPU-s in every process; {r['jobs']} jobs, {r['jobs_cpu_s']:.1f} CPU-s in the jobs")
        if i == args.runs - 1:
            print(r["by_rule"].rename(columns={"size": "jobs", "sum": "cpu_s"}).round(1).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
