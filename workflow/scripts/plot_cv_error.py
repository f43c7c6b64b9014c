"""The figures of the "does it matter" study: the error term by term for each estimator, the count model, the
choice of model."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.figures import count_model, decomposition, model_choice
from stratbench.cv_error.verdict import recommended_estimators
from stratbench.figures import FigureStyle, save_figure

style = FigureStyle.from_config(snakemake.params.style)
out, baseline = snakemake.output, snakemake.params.baseline
errors, choices, theory, estimators = (pd.read_csv(getattr(snakemake.input, name))
                                       for name in ("errors", "choices", "theory", "estimators"))
chosen = recommended_estimators(estimators, baseline)
choices = choices[choices["estimator"] == choices["measure"].map(chosen)]
for estimator in ("pooled", "part_mean"):
    save_figure(decomposition(errors, baseline, estimator, style), getattr(out, f"cv_error_decomposition_{estimator}"),
                getattr(out, f"cv_error_decomposition_{estimator}_pdf"), style)
save_figure(count_model(theory, baseline, style), out.cv_error_count_model, out.cv_error_count_model_pdf, style)
save_figure(model_choice(choices, baseline, style), out.cv_error_model_choice, out.cv_error_model_choice_pdf, style)
finish()
