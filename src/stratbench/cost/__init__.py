"""What a study costs before it runs: CPU time, memory and wall time of every job, and of the study
on N cores (``stratbench estimate --configfile config/X.yaml --cores N``).

- :mod:`.calibration`: a short calibration on this machine (forests, stratifiers, fold measures);
- :mod:`.jobs`: the study's jobs from Snakemake's own plan, their costs, the scheduling simulation
  and the summary table;
- :mod:`.requests`: the rule → cost-model table and the ``mem_mb``/``runtime`` every rule asks for.
"""

import importlib

# each name from its module when first used: the workflow's rules read only `requests` when a study is
# planned, and the calibration's imports (scikit-learn, networkx) would double a dry run's time
_WHERE = {
    **dict.fromkeys(["Job", "duration", "estimate", "planned_jobs", "simulate", "study_jobs", "summary", "workflow_plan"],
                    "jobs"),
    **dict.fromkeys(["BASE_MB", "ESTIMATES", "RULES", "cost_model", "estimate_folder", "read_estimate", "rule_requests", "rule_resources",
                     "shape_evaluation", "shape_forest_seconds"], "requests"),
}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'stratbench.cost' has no attribute {name!r}")
    return getattr(importlib.import_module(f"stratbench.cost.{_WHERE[name]}"), name)
