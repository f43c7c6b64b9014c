"""What a study costs before it runs: CPU time, memory and wall time of every job, and of the study
on N cores (``stratbench estimate --configfile config/X.yaml --cores N``).

- :mod:`.calibration`: a short calibration on this machine (forests, stratifiers, fold measures);
- :mod:`.jobs`: the study's jobs from Snakemake's own plan, their costs, the scheduling simulation
  and the summary table;
- :mod:`.requests`: the rule → cost-model table and the ``mem_mb``/``runtime`` every rule asks for.
"""

from stratbench.cost.jobs import Job, estimate, planned_jobs, simulate, study_jobs, summary, workflow_plan
from stratbench.cost.requests import (
                                      BASE_MB,
                                      RULES,
                                      cost_model,
                                      read_estimate,
                                      rule_requests,
                                      rule_resources,
                                      shape_evaluation,
                                      shape_forest_seconds,
)

__all__ = ["BASE_MB", "RULES", "Job", "cost_model", "estimate", "planned_jobs", "read_estimate", "rule_requests",
           "rule_resources", "shape_evaluation", "shape_forest_seconds", "simulate", "study_jobs", "summary",
           "workflow_plan"]
