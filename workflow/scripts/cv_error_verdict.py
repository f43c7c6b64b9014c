"""The generated "Does it matter?" section: every number in it a value of the study's tables or config."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.verdict import verdict
from stratbench.io import write_text

i, p = snakemake.input, snakemake.params
tables = {name: pd.read_csv(getattr(i, name)) for name in ("summary", "headline", "datasets", "controls")}
write_text(snakemake.output[0], verdict(tables["summary"], tables["headline"], tables["datasets"], tables["controls"],
                                        p.baseline, p.setup, p.alpha))
finish()
