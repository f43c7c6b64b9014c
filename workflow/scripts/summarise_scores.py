"""Mean ± std per dataset × stratifier × classifier × measure, and average ranks of the std."""
from stratbench._snakemake import log_to

log_to(snakemake.log[0])

import pandas as pd  # noqa: E402

from stratbench.io import write_csv, write_text  # noqa: E402
from stratbench.tables import average_ranks, summarise_scores, summary_markdown  # noqa: E402

summary = summarise_scores(pd.read_csv(snakemake.input.scores))
ranks = average_ranks(summary, "std", groups=snakemake.params.groups)
write_csv(snakemake.output.summary, summary)
write_csv(snakemake.output.ranks, ranks)
write_text(snakemake.output.md, summary_markdown(summary, ranks))
