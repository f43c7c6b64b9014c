"""Average ranks of every fold-quality measure (lower is better) over the datasets, Friedman and
Nemenyi tests per dataset group × measure."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd  # noqa: E402

from stratbench.fold_quality import RANKED_MEASURES  # noqa: E402
from stratbench.io import write_csv  # noqa: E402
from stratbench.stats import compare  # noqa: E402

summary = pd.read_csv(snakemake.input.summary)
summary = summary[summary["measure"].isin(RANKED_MEASURES)]
ranks, tests, pairs = compare(summary, "mean", ["measure"], snakemake.params.groups, ascending=True,
                              alpha=snakemake.params.alpha)
write_csv(snakemake.output.ranks, ranks)
write_csv(snakemake.output.tests, tests)
write_csv(snakemake.output.pairs, pairs)
