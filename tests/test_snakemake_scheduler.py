"""The workflow's fix to Snakemake's scheduler (stratbench._snakemake.coalesce_reevaluations) and how a job
ends (stratbench._snakemake.finish)."""
import threading
from types import SimpleNamespace

import pytest
from snakemake.scheduling.job_scheduler import JobScheduler

from stratbench._snakemake import coalesce_reevaluations


def test_one_pending_reevaluation_not_one_more_per_selection():
    """50 selections that leave jobs waiting start one daemon timer, which wakes the scheduler once; once it
    has fired, the next selection that leaves jobs waiting starts the next one. Snakemake's own method
    starts a timer per call: 50 wake-ups."""
    method = JobScheduler._schedule_reevalutation
    original = getattr(method, "upstream", method)  # another test's workflow may have installed the fix
    upstream = SimpleNamespace(_open_jobs=threading.Semaphore(0))
    for _ in range(50):
        original(upstream, 0.05)
    assert sum(upstream._open_jobs.acquire(timeout=1) for _ in range(50)) == 50

    coalesce_reevaluations()
    coalesce_reevaluations()  # installed once, whatever the number of Snakefiles read
    method = JobScheduler._schedule_reevalutation
    assert method.coalesced and method is not original
    scheduler = SimpleNamespace(_open_jobs=threading.Semaphore(0))
    before = {t for t in threading.enumerate() if isinstance(t, threading.Timer)}
    for _ in range(50):
        method(scheduler, 0.3)
    timers = [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t not in before]
    assert len(timers) == 1 and timers[0].daemon
    assert scheduler._open_jobs.acquire(timeout=2)
    assert not scheduler._open_jobs.acquire(timeout=0.6)  # one wake-up for the 50
    method(scheduler, 0.05)
    assert scheduler._open_jobs.acquire(timeout=2)  # the next selection's timer


FINISHED_JOB = """
import logging, sys
from types import SimpleNamespace
from stratbench._snakemake import finish, setup

setup(SimpleNamespace(log=[sys.argv[1]], config={}, rule="demo", wildcards={"dataset": "toy"}, threads=1))
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
