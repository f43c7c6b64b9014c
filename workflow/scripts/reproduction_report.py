"""Our numbers beside the published ones of the paper the study reproduces (Markdown, CSV, HTML)."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv, write_text
from stratbench.provenance import environment_line
from stratbench.reproduction import reproduction, reproduction_html, reproduction_markdown

inp, p = snakemake.input, snakemake.params
optional = {k: pd.read_csv(inp[k]) for k in ("summary", "ranks", "runtime", "scores", "network") if k in inp.keys()}
report = reproduction(p.paper, pd.read_csv(inp.statistics), pd.read_csv(inp.fold_quality), p.n_splits,
                      p.stratifiers, **optional, groups=p.groups)
write_csv(snakemake.output.csv, report)
write_text(snakemake.output.md, reproduction_markdown(report, p.paper, p.study, environment_line(snakemake.scriptdir)))
write_text(snakemake.output.html, reproduction_html(report, p.paper, p.study))
finish()
