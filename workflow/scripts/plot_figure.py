"""Draw figures of the study from its tidy tables, by the recipe `stratbench figure` uses too
(stratbench.study_figures): the rule names the figure and, for a figure drawn per subject (a classifier,
or fold_quality), lists its subjects in the order of its outputs (each subject's png, then its pdf)."""
from stratbench._snakemake import finish, setup

setup(snakemake)

from pathlib import Path

from stratbench.figures import FigureStyle, save_figure
from stratbench.study_figures import draw, table_reader

p = snakemake.params
tables = table_reader({Path(f).name: f for f in snakemake.input if str(f).endswith(".csv")})
style = FigureStyle.from_config(snakemake.config)
if "subjects" in p.keys():
    outputs = list(snakemake.output)
    drawn = zip(p.subjects, outputs[0::2], outputs[1::2])
else:
    drawn = [("", snakemake.output.png, snakemake.output.pdf)]
for subject, png, pdf in drawn:
    save_figure(draw(p.figure, tables, subject, style, p.get("paper")), png, pdf, style)
finish()
