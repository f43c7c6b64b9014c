"""Draw figures of the study from its tables, by the recipe `stratbench figure` uses too
(stratbench.study.figures): the rule lists the (figure, subject) pairs it draws in the order of its
outputs (each pair's png, then its pdf), a subject being a classifier, fold_quality, a dataset, a k, an
estimator, or "" for a figure of the whole study; a dataset's figure also gets its label matrix (input
``labels``) and its stratifiers' repeat-0 folds (input ``folds``, in the order of params ``stratifiers``)."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import sys
from pathlib import Path

from stratbench.figures import FigureStyle, caption_notes, save_figure
from stratbench.study.figures import Facts, draw, table_reader

p, inp = snakemake.params, snakemake.input
extra = {"labels": inp.labels} if "labels" in inp.keys() else {}
if "folds" in inp.keys():
    extra["folds"] = dict(zip(p.stratifiers, inp.folds))
read = table_reader({Path(f).name: f for f in inp if str(f).endswith(".csv")}, **extra)
facts = Facts(p.get("paper"), p.get("baseline"))
style = FigureStyle.from_config(p.style)
outputs = list(snakemake.output)
for (figure, subject), png, pdf in zip(p.drawn, outputs[0::2], outputs[1::2]):
    fig = draw(figure, read, subject, style, facts)
    for note in caption_notes(fig):  # also in the file's description (PNG Description, PDF Subject)
        print(f"{png}: caption: {note}", file=sys.stderr)
    save_figure(fig, png, pdf, style)
finish()
