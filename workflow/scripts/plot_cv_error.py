"""The two figures of the "does it matter" study: bias² and split variance per stratifier; model choice."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.figures import bias_variance, model_choice
from stratbench.figures import FigureStyle, save_figure

style = FigureStyle.from_config(snakemake.config)
out, baseline = snakemake.output, snakemake.params.baseline
errors = pd.read_csv(snakemake.input.errors)
choices = pd.read_csv(snakemake.input.choices)
save_figure(bias_variance(errors, baseline, style), out.bias_variance, out.bias_variance_pdf, style)
save_figure(model_choice(choices, baseline, style), out.choice, out.choice_pdf, style)
finish()
