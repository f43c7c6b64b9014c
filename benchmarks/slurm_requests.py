"""What a study asks of a SLURM cluster through workflow/profiles/slurm (run by hand; figures for notes).

    python benchmarks/slurm_requests.py --configfile config/szymanski2017.yaml

Needs the study's estimate (``stratbench estimate --configfile …`` writes
estimates/<study>/jobs.csv). Prints, from a dry run's job counts and the profile's grouping:

- submissions without grouping (one sbatch per job) and with it: evaluation jobs alone; every
  (dataset, stratifier, repeat)'s fold, fold-quality and network jobs one component of group
  ``folds``, 20 components a submission; the dataset jobs (``data``) 20 a submission; the
  aggregation (``aggregate``) 100 components a submission;
- CPU hours requested (threads × the runtime each rule asks for, :func:`stratbench.cost.rule_resources`;
  a group submission one core for the sum of its members' runtimes, whole minutes each) against the
  CPU hours the estimate says the jobs use.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd

from stratbench import cost
from stratbench.jobs.script import planned_jobs
from stratbench.study import Study

GROUP_OF = {"make_folds": "folds", "network_stability": "folds", "grid_quality": None,
            "dataset": "data", "aggregate": "aggregate"}
COMPONENTS = {"folds": 20, "data": 20, "aggregate": 100}


def planned(configfile: str) -> dict[str, int]:
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--configfile", configfile],
                         capture_output=True, text=True)
    counts = planned_jobs(out.stdout + out.stderr)
    counts.pop("all", None)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--configfile", required=True)
    args = parser.parse_args()
    study = Study.load(args.configfile)
    config = study.config
    jobs_csv = Path("estimates") / config["study"] / "jobs.csv"
    jobs = pd.read_csv(jobs_csv, keep_default_na=False)
    counts = planned(args.configfile)
    # the dry run counts a whole study; a partly finished one plans fewer: count from the estimate
    rows = jobs.assign(group=jobs["rule"].map(GROUP_OF))
    estimate = cost.read_estimate(jobs_csv)
    rule_of = {"dataset": "parse_mulan", "aggregate": "gather_scores"}
    rows["minutes"] = [cost.rule_resources(rule_of.get(r.rule, r.rule), {"dataset": r.dataset, "stratifier": r.stratifier,
                                                                         "classifier": r.classifier},
                                           None, r.threads, study, estimate)[1] for r in rows.itertuples()]
    evaluate = rows[rows["group"].isna()]
    grouped = rows[rows["group"].notna()]
    components = {"folds": int((rows["rule"] == "make_folds").sum()), "data": int((rows["rule"] == "dataset").sum()),
                  "aggregate": 1 + int(config.get("network_stability", False)) + len(config["datasets"])}
    with_groups = len(evaluate) + sum(math.ceil(n / COMPONENTS[g]) for g, n in components.items() if n)
    requested = (evaluate["threads"] * evaluate["minutes"]).sum() / 60 + grouped["minutes"].sum() / 60
    used = rows["cpu_s"].sum() / 3600
    print(f"study {config['study']}: {sum(counts.values())} jobs planned by a dry run "
          f"({len(rows)} in the estimate)")
    print(f"submissions: {sum(counts.values())} without grouping, {with_groups} with the profile's groups")
    print(f"CPU hours requested {requested:.1f}, used (estimated) {used:.1f}: "
          f"{used / requested:.0%} of the request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
