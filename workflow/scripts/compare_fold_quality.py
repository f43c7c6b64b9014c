"""Average ranks of every fold-quality measure (lower is better) over the datasets, Friedman and
Nemenyi tests per dataset group × measure."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv
from stratbench.measures.names import RANKED_MEASURES
from stratbench.stats import compare

summary = pd.read_csv(snakemake.input.summary)
summary = summary[summary["measure"].isin(RANKED_MEASURES)]
ranks, tests, pairs = compare(summary, "mean", ["measure"], snakemake.params.groups, ascending=True,
                              alpha=snakemake.params.alpha)
write_csv(snakemake.output.ranks, ranks)
write_csv(snakemake.output.tests, tests)
write_csv(snakemake.output.pairs, pairs)
finish()
