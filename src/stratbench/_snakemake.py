"""Helpers for the thin scripts under workflow/scripts (not used outside Snakemake jobs)."""

from __future__ import annotations

import logging
import os
import sys
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


def setup(smk) -> None:
    """Start of every script: log to the rule's log file; make the user's method modules importable;
    draw figures off screen (read by matplotlib when a figure script imports it)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    log_to(smk.log[0])
    use_import_paths(smk.config.get("import_paths"))


def build(registry_module, name: str, spec: dict, **fixed):
    """Instantiate a method from its config entry: ``class`` (default ``name``) and ``params``."""
    params = {**spec.get("params", {}), **fixed}
    return registry_module.get(spec.get("class", name), **params)
