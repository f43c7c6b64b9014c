"""Draw one figure of the study from its tidy tables, by the recipe `stratbench figure` uses too
(stratbench.study_figures): the rule names the figure, its wildcards the subject (a classifier, or
fold_quality)."""
from stratbench._snakemake import finish, setup

setup(snakemake)

from pathlib import Path

from stratbench.figures import FigureStyle, save_figure
from stratbench.study_figures import draw, table_reader

w = snakemake.wildcards
subject = w.get("subject") or w.get("classifier") or ""
tables = table_reader({Path(f).name: f for f in snakemake.input if str(f).endswith(".csv")})
style = FigureStyle.from_config(snakemake.config)
figure = draw(snakemake.params.figure, tables, subject, style, snakemake.params.get("paper"))
save_figure(figure, snakemake.output.png, snakemake.output.pdf, style)
finish()
