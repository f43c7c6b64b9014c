"""The generated "Does it matter?" section."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.verdict import verdict
from stratbench.io import write_text

i, p = snakemake.input, snakemake.params
tables = {name: pd.read_csv(getattr(i, name)) for name in ("errors", "paired", "estimators", "choices", "theory")}
write_text(snakemake.output[0], verdict(tables["errors"], tables["paired"], tables["estimators"], tables["choices"],
                                        tables["theory"], p.baseline, p.setup, p.alpha))
finish()
