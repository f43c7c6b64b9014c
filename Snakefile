# stratbench: a reproducible benchmark of multi-label cross-validation stratifiers.
#   snakemake --cores 8                                   # the quick default study (config/config.yaml)
#   snakemake --cores 8 --configfile config/sechidis2011.yaml
import sys

from snakemake.utils import min_version

min_version("8.0")


# The quick default study, unless a study is given with --configfile (a given study replaces the
# default instead of being merged into it, so no default dataset leaks into a paper's study).
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/datasets.smk"
include: "workflow/rules/folds.smk"
include: "workflow/rules/fold_quality.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/network.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/grid.smk"


report: "workflow/report/workflow.rst"


onerror:
    from stratbench._snakemake import failed_log_tails

    print(failed_log_tails(log), file=sys.stderr)


rule all:
    input:
        all_outputs(),
    default_target: True
