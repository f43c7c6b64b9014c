"""Draw figures of the study from its tidy tables, by the recipe `stratbench figure` uses too
(stratbench.study_figures): the rule lists the (figure, subject) pairs it draws in the order of its
outputs (each pair's png, then its pdf), a subject being a classifier, fold_quality, or "" for a figure
of the whole study."""
from stratbench._snakemake import finish, setup

setup(snakemake)

from pathlib import Path

from stratbench.figures import FigureStyle, save_figure
from stratbench.study_figures import draw, table_reader

p = snakemake.params
tables = table_reader({Path(f).name: f for f in snakemake.input if str(f).endswith(".csv")})
style = FigureStyle.from_config(snakemake.params.style)
outputs = list(snakemake.output)
for (figure, subject), png, pdf in zip(p.drawn, outputs[0::2], outputs[1::2]):
    save_figure(draw(figure, tables, subject, style, p.get("paper")), png, pdf, style)
finish()
