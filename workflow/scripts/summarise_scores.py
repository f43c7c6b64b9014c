"""Mean ± std per dataset × stratifier × classifier × measure; average ranks of the std, Friedman and
Nemenyi tests per classifier × dataset group × measure."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv, write_text
from stratbench.stats import compare
from stratbench.tables.summary import summarise_scores, summary_markdown

summary = summarise_scores(pd.read_csv(snakemake.input.scores))
ranks, tests, pairs = compare(summary, "std", ["classifier", "measure"], snakemake.params.groups,
                              ascending=True, alpha=snakemake.params.alpha)
write_csv(snakemake.output.summary, summary)
write_csv(snakemake.output.ranks, ranks)
write_csv(snakemake.output.tests, tests)
write_csv(snakemake.output.pairs, pairs)
write_text(snakemake.output.md, summary_markdown(summary, ranks))
finish()
