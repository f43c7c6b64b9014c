"""CPU efficiency per rule from Snakemake's ``benchmark:`` files of a finished (or partial) study,
and the estimate beside the measured wall time of every job (run by hand; figures go in issue notes).

    python benchmarks/job_efficiency.py --configfile config/sechidis2011.yaml [--directory .]

Efficiency = CPU time / (wall time × threads), per job, summarised per rule (jobs, total wall and CPU
seconds, median and pooled efficiency), twice: from the ``benchmark:`` files, and from the exact
``stratbench-usage`` line every job logs at exit (getrusage of the job and its worker processes).
Snakemake samples a job's processes every 0.5 s for about 15 s and then every 30 s, and the interval
before a job ends is lost, so the benchmark files under-count the CPU time of jobs shorter than a few
minutes (a 40-s job is last sampled at 15 s). With ``estimates/<study>/jobs.csv`` present
(``stratbench estimate``), the evaluation and fold jobs are also listed with their estimated
and measured wall time and the ratio, and the share of jobs within ±30%.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

from stratbench.cost.requests import EVALUATION_RULES
from stratbench.study import Study

KEYS = {
    "evaluate": r"evaluate/(?P<dataset>[^/]+)/(?P<stratifier>[^/]+)/(?P<classifier>[^/]+)/rep(?P<repeat>\d+)\.tsv",
    "evaluate_repeats": r"evaluate/(?P<dataset>[^/]+)/(?P<stratifier>[^/]+)/(?P<classifier>[^/]+)\.tsv",  # every repeat
    "make_folds": r"folds/(?P<dataset>[^/]+)/(?P<stratifier>[^/]+)\.tsv",  # every repeat of a dataset × stratifier
    "make_folds_per_repeat": r"folds/(?P<dataset>[^/]+)/(?P<stratifier>[^/]+)/rep(?P<repeat>\d+)\.tsv",
    "network_stability": r"network_stability/(?P<dataset>[^/]+)/(?P<stratifier>[^/]+)\.tsv",
}


def measured(root: Path, config: dict) -> pd.DataFrame:
    """One row per benchmark file: rule, wildcards, wall s, CPU s, threads, max RSS."""
    rows = []
    bench = root / "results" / config["study"] / "benchmarks"
    for path in sorted(bench.rglob("*.tsv")):
        rel = path.relative_to(bench).as_posix()
        rule, keys = rel.split("/")[0].removesuffix(".tsv"), {}
        for name, pattern in KEYS.items():
            m = re.fullmatch(pattern, rel)
            if m:
                rule, keys = name, m.groupdict()
        t = pd.read_csv(path, sep="\t")
        threads = config.get("threads", 1) if rule in EVALUATION_RULES else 1
        rows.append(dict(rule=rule, **keys, wall_s=float(t["s"].iloc[-1]), cpu_s=float(t["cpu_time"].iloc[-1]),
                         threads=threads, max_rss_mb=float(pd.to_numeric(t["max_rss"], errors="coerce").iloc[-1])))
    frame = pd.DataFrame(rows)
    frame["efficiency"] = frame["cpu_s"] / (frame["wall_s"] * frame["threads"])
    return frame


def usage(root: Path, config: dict) -> pd.DataFrame:
    """The exact ``stratbench-usage`` line of every job's log."""
    rows = []
    for path in sorted((root / "logs" / config["study"]).rglob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("stratbench-usage "):
                rows.append(dict(item.split("=", 1) for item in line.split()[1:]))
    frame = pd.DataFrame(rows)
    for c in ("threads", "wall_s", "cpu_s", "max_rss_mb"):
        frame[c] = pd.to_numeric(frame[c])
    frame["efficiency"] = frame["cpu_s"] / (frame["wall_s"] * frame["threads"])
    return frame


def per_rule(frame: pd.DataFrame) -> pd.DataFrame:
    g = frame.groupby("rule")
    out = g.agg(jobs=("wall_s", "size"), threads=("threads", "max"), wall_s=("wall_s", "sum"), cpu_s=("cpu_s", "sum"),
                median_efficiency=("efficiency", "median"), min_efficiency=("efficiency", "min"),
                max_rss_mb=("max_rss_mb", "max"))
    out["pooled_efficiency"] = out["cpu_s"] / (frame.assign(t=frame.wall_s * frame.threads).groupby("rule")["t"].sum())
    return out.reset_index()


def against_estimate(exact: pd.DataFrame, estimate: pd.DataFrame) -> pd.DataFrame:
    """Each job's estimated and measured CPU and wall seconds (measured: its ``stratbench-usage`` line)."""
    keys = ["rule", "dataset", "stratifier", "classifier"]
    est = estimate.groupby(keys, as_index=False)[["cpu_s", "wall_s"]].mean().rename(
        columns={"cpu_s": "estimated_cpu_s", "wall_s": "estimated_wall_s"})
    jobs = exact[exact["rule"].isin([*EVALUATION_RULES, "make_folds", "make_folds_per_repeat", "network_stability",
                                     "grid_quality"])].copy()
    for key in keys[1:]:
        jobs[key] = jobs[key].fillna("") if key in jobs else ""
    both = jobs.merge(est, on=keys, how="inner")
    both["cpu_ratio"] = both["estimated_cpu_s"] / both["cpu_s"]
    both["wall_ratio"] = both["estimated_wall_s"] / both["wall_s"]
    return both


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--configfile", required=True)
    parser.add_argument("--directory", default=".")
    parser.add_argument("--min-seconds", type=float, default=0.0, help="compare with the estimate only jobs this long")
    args = parser.parse_args()
    config = Study.load(args.configfile).config
    root = Path(args.directory)
    frame = measured(root, config)
    print(f"## CPU efficiency per rule, Snakemake benchmark files ({config['study']}, {len(frame)} jobs)\n")
    print(per_rule(frame).to_markdown(index=False, floatfmt=".3g"))
    exact = usage(root, config)
    if len(exact):
        print(f"\n## CPU efficiency per rule, exact (getrusage at job exit; {len(exact)} jobs)\n")
        print(per_rule(exact).to_markdown(index=False, floatfmt=".3g"))
    est_path = root / "estimates" / config["study"] / "jobs.csv"
    if est_path.is_file() and len(exact):
        est = pd.read_csv(est_path, keep_default_na=False)
        both = against_estimate(exact, est)
        both = both[both["wall_s"] >= args.min_seconds]
        cpu = both["cpu_ratio"].between(1 / 1.3, 1.3).mean() if len(both) else float("nan")
        wall = both["wall_ratio"].between(1 / 1.3, 1.3).mean() if len(both) else float("nan")
        print(f"\n## Estimate against the jobs as they ran ({len(both)} jobs of at least {args.min_seconds:g} s; "
              f"CPU time within ±30%: {cpu:.0%}, wall time: {wall:.0%})\n")
        cols = ["rule", "dataset", "stratifier", "classifier", "threads", "estimated_cpu_s", "cpu_s", "cpu_ratio",
                "estimated_wall_s", "wall_s", "wall_ratio"]
        print(both[cols].sort_values("cpu_s").to_markdown(index=False, floatfmt=".3g"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
