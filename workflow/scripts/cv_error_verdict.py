"""The generated "Does it matter?" section, with the overview table under it."""
from stratbench._snakemake import finish, setup

setup(snakemake)

from pathlib import Path

import pandas as pd

from stratbench.cv_error.verdict import verdict
from stratbench.io import write_text

i, p = snakemake.input, snakemake.params
tables = {name: pd.read_csv(getattr(i, name)) for name in ("errors", "choices", "tests", "paired")}
text = verdict(tables["errors"], tables["choices"], tables["paired"], tables["tests"], p.baseline, p.setup, p.alpha)
overview = Path(i.overview).read_text(encoding="utf-8").split("\n", 2)[2]
write_text(snakemake.output[0], f"{text}\n### Every measure and stratifier\n\n{overview}")
finish()
