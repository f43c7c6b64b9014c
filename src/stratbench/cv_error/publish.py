"""The study's tables and its page recomputed from the jobs' rows it publishes (``tables/cv_error_inputs/``):
what ``python -m stratbench cv-error-tables`` does, byte for byte as the workflow's tables and verdict jobs with
the same libraries (another build of scipy can move a float's last digits)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from stratbench import StratbenchError
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
    """The jobs' rows of :data:`stratbench.cv_error.summary.INPUTS` from ``folder/<name>.csv.gz``; one line naming
    the first file missing."""
    missing = [name for name in INPUTS if not (Path(folder) / f"{name}.csv.gz").is_file()]
    if missing:
        raise StratbenchError(f"{Path(folder) / f'{missing[0]}.csv.gz'}: not there; --inputs is a study's "
                              "tables/cv_error_inputs/ folder (or a published copy), holding "
                              f"{', '.join(f'{n}.csv.gz' for n in INPUTS)}")
    return {name: pd.read_csv(Path(folder) / f"{name}.csv.gz") for name in INPUTS}


def recompute(inputs: str | Path, out: str | Path, stratifiers: list[str], baseline: str, controls: list[str],
              alpha: float, seed: int, setup: dict) -> list[Path]:
    """Every table (:data:`TABLE_FILES`) and the page of a study from its published ``inputs``, written under
    ``out``, with the study's stratifiers (in order), baseline, controls, α, base seed and the page's ``setup``
    (:meth:`stratbench.study.plans.CvErrorPlan.table_arguments` gives them all); the files written."""
    made = tables(read_inputs(inputs), stratifiers, baseline, controls, alpha, seed)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in made.items():
        write_csv(out / TABLE_FILES[name], frame)
        written.append(out / TABLE_FILES[name])
    write_text(out / PAGE, verdict(made["summary"], made["headline"], made["datasets"], made["controls"], baseline,
                                   setup, alpha))
    return [*written, out / PAGE]
