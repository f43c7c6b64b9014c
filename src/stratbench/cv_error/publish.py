"""The study's tables and its page recomputed from the jobs' rows it publishes (``tables/cv_error_inputs/``):
what ``python -m stratbench cv-error-tables`` does, byte for byte as the workflow's tables and verdict jobs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from stratbench.cv_error.summary import INPUTS, tables
from stratbench.cv_error.verdict import verdict
from stratbench.io import write_csv, write_text

TABLE_FILES = {"errors": "cv_error.csv", "paired": "cv_error_paired.csv", "estimators": "cv_error_estimators.csv",
               "choices": "cv_error_choice.csv", "theory": "cv_error_theory.csv", "controls": "cv_error_controls.csv",
               "datasets": "cv_error_datasets.csv", "headline": "cv_error_headline.csv",
               "summary": "cv_error_summary.csv"}
"""Each table's file under ``results/<study>/tables/`` (the names the workflow's rule gives them)."""
PAGE = "does_it_matter.md"


def read_inputs(folder: str | Path) -> dict[str, pd.DataFrame]:
    """The jobs' rows of :data:`stratbench.cv_error.summary.INPUTS` from ``folder/<name>.csv.gz``."""
    return {name: pd.read_csv(Path(folder) / f"{name}.csv.gz") for name in INPUTS}


def recompute(config: dict, inputs: str | Path, out: str | Path) -> list[Path]:
    """Every table (:data:`TABLE_FILES`) and the page of the study of ``config`` from its published ``inputs``,
    written under ``out``; the files written."""
    from stratbench.study import Study
    from stratbench.study.plans import CvErrorPlan

    study = Study.checked(config)
    cv = study.cv_error
    made = tables(read_inputs(inputs), list(study.stratifiers), cv["baseline"], cv.get("controls", []), study.alpha,
                  study.seed)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in made.items():
        write_csv(out / TABLE_FILES[name], frame)
        written.append(out / TABLE_FILES[name])
    page = verdict(made["summary"], made["headline"], made["datasets"], made["controls"], cv["baseline"],
                   CvErrorPlan(study).verdict_setup(), study.alpha)
    write_text(out / PAGE, page)
    return [*written, out / PAGE]
