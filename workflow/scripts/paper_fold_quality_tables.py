"""Fold-quality tables laid out as the three papers print them."""
from stratbench._snakemake import log_to

log_to(snakemake.log[0])

import pandas as pd  # noqa: E402

from stratbench.io import write_text  # noqa: E402
from stratbench.tables import paper_fold_quality_markdown  # noqa: E402

write_text(snakemake.output[0], paper_fold_quality_markdown(pd.read_csv(snakemake.input.summary),
                                                            pd.read_csv(snakemake.input.runtime)))
