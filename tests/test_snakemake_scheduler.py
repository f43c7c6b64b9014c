"""How the workflow sets Snakemake's scheduler (its profile, nothing patched) and how a job ends
(stratbench.jobs.script.finish)."""
from pathlib import Path

import pytest
import yaml
from snakemake.scheduling.job_scheduler import JobScheduler

REPO = Path(__file__).resolve().parents[1]


def test_snakemakes_scheduler_is_its_own():
    """The workflow replaces nothing of Snakemake's scheduler (its timer cost is Snakemake's, measured and reported
    in docs/contributing.md), and its profile leaves Snakemake's job rate as it is."""
    profile = yaml.safe_load((REPO / "workflow" / "profiles" / "default" / "config.yaml").read_text())
    assert JobScheduler._schedule_reevalutation.__module__ == "snakemake.scheduling.job_scheduler"
    assert "max-jobs-per-timespan" not in profile
    for path in [*(REPO / "workflow").rglob("*.smk"), *(REPO / "src" / "stratbench").rglob("*.py")]:
        assert "JobScheduler" not in path.read_text(encoding="utf-8"), path


FINISHED_JOB = """
import logging, sys
from types import SimpleNamespace
from stratbench.jobs.script import finish, setup

setup(SimpleNamespace(log=[sys.argv[1]], config={}, rule="demo", wildcards={"dataset": "toy"}, threads=1, input=[],
                    output=["out.csv"]))
logging.getLogger("demo").info("logged")
print("to stderr, buffered", end="", file=sys.stderr)
print("to stdout, buffered", end="")
if sys.argv[2] == "fail":
    raise ValueError("broken")
finish()
print("never")
"""


@pytest.mark.parametrize("ending", ["finish", "fail"])
def test_a_job_that_finishes_leaves_at_once_with_its_log_whole_and_a_failure_still_fails(tmp_path, ending):
    """``finish()`` ends a job without the interpreter's teardown: its log (logging, stderr, the usage line)
    and stdout are flushed, the status is 0, nothing after it runs; a job that fails before it keeps its
    traceback, its usage line and a non-zero status."""
    import subprocess
    import sys

    log = tmp_path / "job.log"
    done = subprocess.run([sys.executable, "-c", FINISHED_JOB, str(log), ending], capture_output=True, text=True)
    text = log.read_text()
    assert "INFO logged" in text and "to stderr, buffered" in text
    assert text.count("stratbench-usage rule=demo dataset=toy threads=1 ") == 1
    if ending == "finish":
        assert done.returncode == 0 and done.stdout == "to stdout, buffered"
    else:
        assert done.returncode == 1 and "ValueError: broken" in text and "never" not in done.stdout
