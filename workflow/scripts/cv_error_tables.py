"""The error of the CV estimate per stratifier, the choice of learner, and their tests."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.summary import choice_table, error_table, friedman_tables, overview_markdown, paired_tests
from stratbench.io import write_csv, write_text

i, p, out = snakemake.input, snakemake.params, snakemake.output
truth, estimates, splits = (pd.concat([pd.read_csv(f) for f in files], ignore_index=True)
                            for files in (i.truth, i.estimates, i.splits))
errors = error_table(truth, estimates, splits, p.stratifiers, p.baseline)
choices = choice_table(truth, estimates, p.stratifiers)
ranks, tests, pairs = friedman_tables(errors, choices, p.alpha)
paired = paired_tests(errors, p.baseline, p.alpha)
for name, frame in dict(errors=errors, choices=choices, ranks=ranks, tests=tests, pairs=pairs, paired=paired).items():
    write_csv(getattr(out, name), frame)
write_text(out.md, "# The error of the CV estimate per stratifier\n\n" + overview_markdown(errors, choices, p.baseline))
finish()
