"""Helpers for the thin scripts under workflow/scripts (not used outside Snakemake jobs)."""

from __future__ import annotations

import atexit
import logging
import os
import resource
import sys
import time
from datetime import UTC
from pathlib import Path


def log_to(path: str) -> None:
    """Send this job's stderr and logging to its log file (every rule has a ``log:``)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    stream = open(path, "w", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives for the job
    sys.stderr = stream
    logging.basicConfig(stream=stream, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s",
                        force=True)


def use_import_paths(paths) -> None:
    """Put the config's ``import_paths`` (folders with a user's own methods) first on ``sys.path``."""
    for path in reversed(list(paths or [])):
        resolved = str(Path(path).resolve())
        if resolved not in sys.path:
            sys.path.insert(0, resolved)


_SETUP_TIME = time.time()


def setup(smk) -> None:
    """Start of every script: log to the rule's log file; make the user's method modules importable;
    draw figures off screen (read by matplotlib when a figure script imports it); at exit, log the
    job's exact wall and CPU time (see :func:`usage_line`)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    log_to(smk.log[0])
    sys.excepthook = _one_line_for_user_errors
    use_import_paths(smk.config.get("import_paths"))
    _JOB.update(rule=smk.rule, wildcards=dict(smk.wildcards.items()), threads=smk.threads)
    print(job_line(smk), file=sys.stderr)
    atexit.register(_log_usage)


def job_line(smk) -> str:
    """``stratbench-job {…}``: the job's rule, wildcards, inputs, outputs and start, one JSON line in its log (what
    ``stratbench bundle`` records of each job in a study's RO-Crate)."""
    import json
    from datetime import datetime

    record = dict(rule=smk.rule, wildcards=dict(smk.wildcards.items()), input=[str(f) for f in smk.input],
                  output=[str(f) for f in smk.output], started=datetime.now(UTC).isoformat(timespec="seconds"))
    return "stratbench-job " + json.dumps(record, sort_keys=True)


_JOB: dict = {}  # the job whose usage line is logged (rule, wildcards, threads), until it is


def _log_usage() -> None:
    if _JOB:
        print(usage_line(_JOB["rule"], _JOB["wildcards"], _JOB["threads"]), file=sys.stderr)
        _JOB.clear()


def finish() -> None:
    """End of every script: log the job's usage line, flush its log and standard streams, and leave without
    the interpreter's teardown. Freeing every module of scikit-learn, pandas and numba one by one costs
    about 0.3 s of CPU a job (a sixth of a small job) for nothing: the outputs are written and closed
    (atomically, :mod:`stratbench.io`), worker pools joined. Reached only when the script ran to its end:
    a job that fails exits as usual, with its error and status."""
    _log_usage()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr, sys.__stderr__):
        if stream is not None:
            stream.flush()
    os._exit(0)


def _one_line_for_user_errors(kind, value, traceback):
    """A user's error (a bad file or value, :class:`StratbenchError`) ends the job with its message
    alone; anything else with the full traceback."""
    from stratbench import StratbenchError

    if isinstance(value, StratbenchError):
        print(f"error: {value}", file=sys.stderr)
    else:
        sys.__excepthook__(kind, value, traceback)


def usage_line(rule: str, wildcards: dict, threads: int) -> str:
    """``stratbench-usage rule=… <wildcards> threads=… wall_s=… cpu_s=… max_rss_mb=…``: the process's
    wall time since it started and the CPU time of it and its finished children (worker processes
    included). Snakemake's benchmark files sample CPU every 0.5 s, then every 30 s, and lose the last
    interval, so they under-count jobs shorter than a few minutes; this line does not."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    try:
        import psutil  # comes with snakemake

        started = psutil.Process().create_time()
    except ImportError:
        started = _SETUP_TIME
    wall = time.time() - started
    keys = " ".join(f"{k}={v}" for k, v in wildcards.items())
    return (f"stratbench-usage rule={rule} {keys} threads={threads} wall_s={wall:.3f} cpu_s={cpu:.3f} "
            f"max_rss_mb={max(me.ru_maxrss, children.ru_maxrss) / 1024:.0f}")


def dry_run_summary(workflow, logger) -> None:
    """Make a dry run print its plan's summary (jobs per rule, the reasons, the one-line verdict), not a block
    per job, which for a paper's study is tens of thousands of lines; ``--verbose`` prints every job again.
    A real run is untouched: its job blocks and a failed job's error and log still show (Snakemake's own
    ``--quiet rules`` would hide those too, so a profile cannot set it). Whether the run is dry is asked at
    each record, as Snakemake knows it only after the Snakefile is read. One filter per logger: a process
    that reads the workflow again (a notebook through Snakemake's API) replaces it."""
    for old in [f for f in logger.filters if isinstance(f, DryRunSummary)]:
        logger.removeFilter(old)
    logger.addFilter(DryRunSummary(workflow))


def coalesce_reevaluations() -> None:
    """Keep one pending re-evaluation timer in Snakemake's job scheduler, not one more per selection.

    Snakemake (9.27.1, measured here) runs its job selection again one ``--max-jobs-per-timespan`` span
    (1 s by default) after every selection that leaves jobs waiting. Each time it starts a new timer and
    never cancels one, so every finished job adds a timer that fires every second until the run ends. The
    selection, which stats the input files of every ready job, then ran 10,561 times in the 119-job quick
    study (29.6 CPU-s of Snakemake's own process) and 466 times for 60 jobs of 0.5 s on 2 cores. With one
    pending timer it runs when a job ends and once a second while jobs wait; a daemon timer also lets the
    run end without waiting for it. Nothing happens where the method is missing (a fixed or renamed
    Snakemake)."""
    import threading

    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:
        return
    if not hasattr(JobScheduler, "_schedule_reevalutation") or getattr(
            JobScheduler._schedule_reevalutation, "coalesced", False):
        return

    def schedule_reevaluation(self, delay) -> None:
        if getattr(self, "_stratbench_reevaluation_pending", False):
            return  # its selection comes, and schedules the next one if jobs still wait

        def reevaluate():
            self._stratbench_reevaluation_pending = False  # before the release: that selection may ask again
            self._open_jobs.release()

        self._stratbench_reevaluation_pending = True
        timer = threading.Timer(delay, reevaluate)
        timer.daemon = True
        timer.start()

    schedule_reevaluation.coalesced = True
    schedule_reevaluation.upstream = JobScheduler._schedule_reevalutation
    JobScheduler._schedule_reevalutation = schedule_reevaluation


class DryRunSummary(logging.Filter):
    """Drops the per-job records (job and group blocks, shell commands) of a dry run that is not verbose."""

    def __init__(self, workflow):
        from snakemake_interface_logger_plugins.common import LogEvent

        super().__init__()
        self.workflow = workflow
        self.per_job = {LogEvent.JOB_INFO, LogEvent.GROUP_INFO, LogEvent.SHELLCMD}

    def filter(self, record: logging.LogRecord) -> bool:
        return not (getattr(record, "event", None) in self.per_job and self.workflow.dryrun
                    and not getattr(self.workflow.output_settings, "verbose", False))
