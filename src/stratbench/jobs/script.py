"""The job side of the workflow: what every script under workflow/scripts calls first (:func:`setup`: its log,
the user's import paths, its usage line at exit) and last (:func:`finish`); :func:`use_import_paths` is also
called by a study's check (:func:`stratbench.study.plans.kind_of`), for the kinds and methods a config names by
dotted path. Nothing here touches Snakemake itself."""

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


_SETUP_TIME = time.time()  # the job's start where psutil cannot say (set again by setup: a forked job's)


def setup(smk) -> None:
    """Start of every script: where the run's job server can run the job, hand it over and leave with its
    status (:func:`stratbench.jobs.server.delegate`); otherwise, or in the server's child, log to the rule's log
    file; make the user's method modules importable; draw figures off screen (read by matplotlib when a figure
    script imports it); at exit, log the job's exact wall and CPU time (see :func:`usage_line`)."""
    global _SETUP_TIME
    from stratbench.jobs.server import delegate

    delegate()
    _SETUP_TIME = time.time()
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
    """``stratbench-usage rule=… <wildcards> threads=… wall_s=… cpu_s=… max_rss_mb=… ended=…``: the process's
    wall time since it started, the CPU time of it and its finished children (worker processes included), and
    the time it ended (ISO 8601, UTC). Snakemake's benchmark files sample CPU every 0.5 s, then every 30 s, and lose the last
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
    from datetime import datetime

    return (f"stratbench-usage rule={rule} {keys} threads={threads} wall_s={wall:.3f} cpu_s={cpu:.3f} "
            f"max_rss_mb={max(me.ru_maxrss, children.ru_maxrss) / 1024:.0f} "
            f"ended={datetime.now(UTC).isoformat(timespec='seconds')}")
