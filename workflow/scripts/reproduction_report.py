"""Our numbers beside the published ones of the paper the study reproduces (Markdown, CSV, HTML)."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench.io import write_csv, write_text
from stratbench.papers import StudyTables, get
from stratbench.papers.reproduction import reproduction_html, reproduction_markdown
from stratbench.records.provenance import environment_line

inp, p = snakemake.input, snakemake.params
paper = get(p.paper)
study = StudyTables.read({k: inp[k] for k in inp.keys()}, p.stratifiers, n_splits=p.n_splits, groups=p.groups)
report = paper.report(study)
made_with = environment_line(snakemake.scriptdir)
write_csv(snakemake.output.csv, report)
write_text(snakemake.output.md, reproduction_markdown(report, paper, p.study, made_with))
write_text(snakemake.output.html, reproduction_html(report, paper, p.study, made_with))
finish()
