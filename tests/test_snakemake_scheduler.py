"""The workflow's fix to Snakemake's scheduler (stratbench._snakemake.coalesce_reevaluations)."""
import threading
from types import SimpleNamespace

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
