"""Command line (or ``python -m stratbench …``):

``stratbench check --configfile config/X.yaml`` reads and checks a study as the workflow does before any
job (YAML syntax with the file, line and column of an error; the schema; datasets, methods and their
parameters) and prints what it would run.

``stratbench figure rank_bars --configfile config/X.yaml --width one --out fig.pdf`` redraws one figure
of a finished study from its tidy tables (the config's ``figures:`` style, the width and dpi overridden).

``stratbench certify`` checks every splitter, ours and the installed peers', for the properties a
cross-validator is trusted for (:mod:`stratbench.model_selection.conformance`).

``stratbench list`` prints every registered stratifier: what it is, its reference and its guarantees
(:mod:`stratbench.stratifiers.catalog`). ``stratbench --version`` prints the version.

``stratbench mirror FOLDER [DATASET …]`` downloads the pinned MULAN files (sha256-checked) into FOLDER laid out
as a mirror (``<folder>/<dataset>/<file>``), for ``STRATBENCH_DATA_MIRROR`` or ``data.mirror`` on a machine
without network, and for the real-data tests.

``stratbench verify results/<study>`` checks a finished study's folder against the manifest its run wrote
(every output's sha256) and names each file that changed or is missing (exit status 1).

``stratbench export-splits results/<study>`` writes a finished study's folds as OpenML split files (type,
rowid, repeat, fold) under ``results/<study>/splits/``, for R, Weka or MEKA users, and for a study of its own
(the ``from_file`` stratifier reads them).

``stratbench bundle results/<study>`` writes the finished study as one Workflow Run RO-Crate (Provenance Run
Crate profile): the workflow, the config as run, every output, the run and its jobs (:mod:`stratbench.records.bundle`).

``stratbench estimate --configfile config/X.yaml [--cores N]`` prints the study's cost (CPU hours per
dataset × classifier, the fold jobs, a total line with the wall time on N cores) from a short
calibration on this machine, and writes it under
``estimates/<study>/`` (beside ``results/``, never in it: a machine's calibration is not a study's output):
``summary.{csv,md}``, ``jobs.csv`` (every job: threads, CPU and wall
seconds, memory; the workflow's rules read their ``mem_mb`` and ``runtime`` from it) and
``calibration.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path

from stratbench import StratbenchError


def _load_study(path):
    """The study of ``path`` read and checked as Snakemake reads it (its ``import_paths`` first on the path)."""
    from stratbench.study import Study
    from stratbench.study.config import read_config

    return Study.checked(read_config(path), files=[path])


def _estimate(args) -> int:
    import pandas as pd

    from stratbench import cost
    from stratbench.io import write_csv, write_text

    study = _load_study(args.configfile)
    config = study.config
    out = Path(args.out or Path(args.directory) / cost.estimate_folder(study.name))
    if too_many := more_cores_than_here(args.cores):
        print(too_many, file=sys.stderr)
    print(f"calibrating {study.name} on this machine ({args.cores} cores for the wall time)…", file=sys.stderr)
    jobs, table, calibration = cost.estimate(config, args.cores, args.directory, args.samples,
                                             log=lambda m: print(m, file=sys.stderr))
    shown = table.assign(cpu_hours=table["cpu_hours"].map(lambda h: f"{h:.3g}"),
                         longest_job_min=table["longest_job_min"].map(lambda m: f"{m:.1f}"))
    markdown = (f"Estimated cost of the study `{config['study']}` ({args.configfile}), calibrated on this machine\n\n"
                + shown.to_markdown(index=False) + f"\n\nWall time on {args.cores} cores (the plan's jobs scheduled as "
                f"Snakemake runs them): {cost.duration(calibration['wall_s'])}\n")
    print(markdown)
    write_csv(out / "summary.csv", table)
    write_text(out / "summary.md", markdown)
    frame = pd.DataFrame([{k: v for k, v in asdict(j).items() if k != "after"} for j in jobs])
    write_csv(out / "jobs.csv", frame)
    write_text(out / "calibration.json", json.dumps(calibration, indent=1, default=float) + "\n")
    print(f"written: {out}/summary.md, jobs.csv, calibration.json", file=sys.stderr)
    return 0


def more_cores_than_here(cores: int) -> str | None:
    """The warning for an estimate asked for more cores than this machine gives this process, else None."""
    here = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if cores <= here:
        return None
    return (f"warning: --cores {cores} is more than the {here} cores this machine gives this process: the wall time is "
            f"of a machine with {cores} cores as fast as these, timed here")


def _mirror(args) -> int:
    """Download the pinned files of ``args.datasets`` (default: every pinned one) into a mirror folder."""
    from stratbench.datasets import registry
    from stratbench.datasets.fetch import fetch

    pinned = [n for n in registry.names() if all(f.sha256 for f in registry.entry(n).files)]
    names = args.datasets or pinned
    unknown = [n for n in names if n not in pinned]
    if unknown:
        raise StratbenchError(f"{unknown[0]!r} is not a pinned MULAN dataset; these are: {', '.join(pinned)}")
    folder, fetched, total = Path(args.folder), 0, 0
    for name in names:
        for remote in registry.entry(name).files:
            dest = folder / remote.path
            if not dest.is_file():
                fetch(remote, dest, mirror=None)
                fetched += 1
            total += dest.stat().st_size
        print(f"{name}: {', '.join(f.path for f in registry.entry(name).files)}", file=sys.stderr)
    print(f"{folder}: {len(names)} datasets ({total / 1e6:.1f} MB), {fetched} files downloaded; use it with "
          f"STRATBENCH_DATA_MIRROR={folder.resolve()}")
    return 0


def _verify(args) -> int:
    """Check a results folder against its manifest; name every file that changed or is missing."""
    from stratbench.records.provenance import verify

    found = verify(args.folder)
    for kind in ("changed", "missing", "unlisted"):
        for name in found[kind]:
            print(f"{kind}: {args.folder}/{name}")
    bad = len(found["changed"]) + len(found["missing"])
    print(f"{args.folder}: {'OK' if not bad else f'{bad} files differ from the manifest'}"
          + (f"; {len(found['unlisted'])} files the manifest does not list" if found["unlisted"] else ""))
    return 1 if bad else 0


def _export_splits(args) -> int:
    """Write a finished study's folds as OpenML split files."""
    from stratbench.records.provenance import export_splits

    written = export_splits(args.folder)
    print(f"written: {len(written)} OpenML split files under {args.folder}/splits/ (and the manifest again)")
    return 0


def _bundle(args) -> int:
    """Write a finished study's Workflow Run RO-Crate (a zip to deposit), its jobs those of the study's current plan
    (the config as run, from its provenance.json); with ``--validate``, check it with roc-validator offline."""
    from collections import Counter

    from stratbench.records.bundle import IN_CRATE, OFFLINE, Deposit, bundle, in_crate, validate
    from stratbench.records.provenance import PROVENANCE
    from stratbench.study import Study
    from stratbench.study.plans import plan

    record = Path(args.folder) / PROVENANCE
    targets = None
    if record.is_file():  # else bundle() says what is missing
        cwd = Path.cwd()
        try:  # the plan's files are named from the workflow's working directory, as its jobs name them
            os.chdir(args.directory)
            targets = plan(Study(json.loads(record.read_text(encoding="utf-8"))["config"])).targets()
        finally:
            os.chdir(cwd)
    deposit = Deposit(author=args.author, orcid=args.orcid, affiliation=args.affiliation, publisher=args.publisher,
                      publisher_url=args.publisher_url, license=args.license)
    out = bundle(args.folder, args.out, args.directory, args.workflow, targets, deposit)
    print(f"written: {out}")
    if not args.validate:
        return 0
    issues = validate(out, args.validator or os.environ.get("STRATBENCH_ROC_VALIDATOR"))
    for (severity, check, message), n in Counter((i.severity, i.check, i.message) for i in issues).items():
        print(f"{n:6d} × {severity} {check}: {message}")  # an issue of many entities, once with its count
    for check, why in IN_CRATE.items():  # what no crate with its workflow inside passes (crs4/rocrate-validator#51)
        if n := sum(in_crate(i) and i.check == check for i in issues):
            print(f"{n:6d} of {check} are of the workflow or its rules' tools in the crate: {why}")
    if n := sum(i.check == OFFLINE for i in issues):
        print(f"{n:6d} of {OFFLINE} are web data entities (MULAN's pinned files) that an offline check cannot reach: "
              "not checked")
    missing = [option for option, value in (("--author", args.author), ("--publisher", args.publisher)) if not value]
    if missing:
        print(f"the crate names no {' and no '.join(o[2:] for o in missing)}: give {' and '.join(missing)}")
    left = [i for i in issues if not in_crate(i) and i.check != OFFLINE]
    print(f"roc-validator, Provenance Run Crate 0.5, RECOMMENDED, offline: {len(issues)} issues, {len(left)} beyond "
          f"those of the workflow in the crate and the web's: {'passed' if not left else 'failed'}")
    return 0 if not left else 1


def _list(args) -> int:
    from stratbench.stratifiers.catalog import markdown

    print(markdown(), end="")
    return 0


def _certify(args) -> int:
    from stratbench.io import write_text
    from stratbench.model_selection.conformance import certificate, markdown

    text = markdown(certificate(real_data=args.real_data, mirror=args.mirror))
    print(text, end="")
    if args.out:
        write_text(args.out, text)
    return 0


def _check(args) -> int:
    study = _load_study(args.configfile)
    print(f"{args.configfile}: study {study.name!r} is valid: {len(study.datasets)} datasets, "
          f"{len(study.stratifiers)} stratifiers, {len(study.classifiers)} classifiers, {study.n_splits}-fold CV "
          f"× {len(study.repeats)} repeats; outputs in {study.results}/")
    for note in study.kind_class().notes(study):
        print(note)
    for name in study.datasets:
        if study.generated_spec(name):
            data = study.load_dataset(name)
            print(generated_statistics(name, *study.generated_spec(name), data.Y, data.dependence))
    return 0


def generated_statistics(name: str, kind: str, params: dict, Y, dependence: float | None = None) -> str:
    """One line of what a generated dataset realises, beside what its config asks where it asks it (the
    dependence the generator used where it is given, weakened where the cardinality asked for needs it).

    >>> import scipy.sparse as sp
    >>> generated_statistics("s", "synthetic", {"cardinality": 1.5}, sp.csr_matrix([[1, 0], [1, 1], [0, 1], [1, 0]]))
    's (synthetic): 4 examples × 2 labels; 1.25 labels a row (configured 1.5); 3 labelsets; the rarest label has 2 examples'
    >>> generated_statistics("s", "synthetic", {"dependence": 0.5}, sp.csr_matrix([[1, 0], [0, 1]]), 0.125).split("; ")[-1]
    'dependence 0.125 (configured 0.5: the strongest this cardinality allows)'
    """
    import numpy as np

    from stratbench.labels import labelset_ids

    n, q = Y.shape
    asked = f" (configured {params['cardinality']:g})" if "cardinality" in params else ""
    line = (f"{name} ({kind}): {n} examples × {q} labels; {Y.sum() / n:.3g} labels a row{asked}; "
            f"{len(np.unique(labelset_ids(Y)))} labelsets; the rarest label has "
            f"{int(np.bincount(Y.indices, minlength=q).min())} examples")
    if dependence is None:
        return line
    import inspect

    from stratbench.datasets.synthetic import generate

    configured = params.get("dependence", inspect.signature(generate).parameters["dependence"].default)
    weakened = f" (configured {configured:g}: the strongest this cardinality allows)" if configured != dependence else ""
    return f"{line}; dependence {dependence:.4g}{weakened}"


FIGURES = ("std_by_stratifier", "fold_distribution", "rank_bars", "critical_difference", "runtime", "paper_claims",
           "label_shares", "grid_critical_difference", "grid_gap", "cv_error_decomposition", "cv_error_count_model",
           "cv_error_model_choice")  # study.figures.RECIPES (not imported here: the light install has no pandas)


def _figure(args) -> int:
    """Redraw one figure of a finished study from its tables, by the workflow's own recipe
    (:mod:`stratbench.study.figures`), e.g. at one column's width."""
    import matplotlib

    matplotlib.use("Agg")
    from stratbench import figures
    from stratbench.study.figures import RECIPES, Facts, draw, file_stem, table_reader

    study = _load_study(args.configfile)
    style = figures.FigureStyle.from_config(study.config, width=args.width, dpi=args.dpi)
    root = Path(args.directory)
    of = RECIPES[args.name].of
    subject = args.subject or _default_subject(study, args.name, of)
    tables = root / study.results / "tables"
    extra = {}
    if of == "dataset":
        extra = {"labels": root / study.dataset_file(subject),
                 "folds": {s: root / study.results / "folds" / subject / s / "rep0.npz" for s in study.stratifiers}}
        missing = [p for p in [extra["labels"], *extra["folds"].values()] if not p.is_file()]
        if missing:
            raise StratbenchError(f"{missing[0]}: not found; run the study first (snakemake --cores N --configfile …)")
    read = table_reader({p.name: p for p in tables.glob("*.csv")}, **extra)
    try:
        fig = draw(args.name, read, subject, style, Facts.of(study))
    except FileNotFoundError as exc:
        raise StratbenchError(f"{tables / str(exc)}: no such table; run the study first "
                              "(snakemake --cores N --configfile …)") from None
    out = Path(args.out or f"{study.results}/figures/{file_stem(args.name, subject)}_{style.width:g}in.pdf")
    out.parent.mkdir(parents=True, exist_ok=True)
    png, pdf = (out, None) if out.suffix == ".png" else (None, out)
    caption = figures.caption_notes(fig)
    figures.save_figure(fig, png, pdf, style)
    print(f"written: {out} ({style.width:g} in wide)")
    for note in caption:  # layout notes belong to the caption the user writes, and are in the file's description
        print(f"caption: {note}")
    return 0


def _default_subject(study, name: str, of: str) -> str:
    """The first subject of figure ``name``, of ``of``: the first classifier (else fold quality; for the CD
    diagrams fold quality), dataset, k or estimator; none for a figure of the whole study."""
    if of.startswith("classifier"):
        return "fold_quality" if name == "critical_difference" else next(iter(study.classifiers), "fold_quality")
    return {"dataset": lambda: next(iter(study.datasets)), "k": lambda: str(study.grid_ks[0]),
            "estimator": lambda: "pooled"}.get(of, lambda: "")()


def _plan(args) -> int:
    """``snakemake -n --quiet rules``: the dry run's summary (jobs per rule and why) without a block per job,
    which a paper's study prints by the ten thousand (``snakemake -n`` still lists them). Snakemake prints the
    job table before and after a dry run: it is printed once. ``--all`` plans every job (``--forceall``), what a
    finished study's run made; a finished study without it says so."""
    import subprocess

    command = [sys.executable, "-m", "snakemake", "-n", "--quiet", "rules", "--directory", args.directory]
    if args.configfile:
        command += ["--configfile", args.configfile]
    if args.snakefile:
        command += ["--snakefile", args.snakefile]
    if args.all:
        command.append("--forceall")
    done = subprocess.run(command, cwd=args.directory, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(once(done.stdout), end="")
    if done.returncode == 0 and "Nothing to be done" in done.stdout:
        print("The study is finished: nothing is due. Its whole plan: stratbench plan --all")
    return done.returncode


def once(output: str) -> str:
    """``output`` without the repeats of a table that starts with a ``Job stats:`` line (to the next blank line).

    >>> once("DAG\\nJob stats:\\nall  1\\n\\nReasons\\n\\nJob stats:\\nall  1\\n\\nend\\n")
    'DAG\\nJob stats:\\nall  1\\n\\nReasons\\n\\nend\\n'
    """
    import re

    seen = set()

    def first(table):
        if table.group(0) in seen:
            return ""
        seen.add(table.group(0))
        return table.group(0)

    return re.sub(r"^Job stats:\n(?:.+\n)*\n?", first, output, flags=re.M)


def _cv_error_tables(args) -> int:
    """Recompute a does-it-matter study's tables and page from its published rows."""
    from stratbench.cv_error.publish import recompute
    from stratbench.study.plans import CvErrorPlan

    study = _load_study(args.configfile)
    if study.kind != "cv_error":
        raise StratbenchError(f"{args.configfile}: kind {study.kind!r}; cv-error-tables recomputes a cv_error study's")
    for path in recompute(args.inputs, args.out, **CvErrorPlan(study).table_arguments()):
        print(f"written: {path}")
    return 0


def _add_bundle(sub) -> None:
    """The ``bundle`` command's arguments: the folder, where the crate goes, who deposits it, its check."""
    bun = sub.add_parser("bundle", help="write a finished study's Workflow Run RO-Crate (a zip to deposit)")
    bun.add_argument("folder", help="results/<study>")
    bun.add_argument("--out", help="the zip (default results/<study>.crate.zip)")
    bun.add_argument("--directory", default=".", help="the workflow's working directory (its logs/)")
    bun.add_argument("--workflow", help="the workflow folder (default: the checkout's workflow/)")
    bun.add_argument("--author", help="the person who ran the study and deposits it: the crate's author, each action's agent")
    bun.add_argument("--orcid", help="the author's ORCID (https://orcid.org/…), their identifier in the crate")
    bun.add_argument("--affiliation", help="the author's organization (default: the publisher)")
    bun.add_argument("--publisher", help="the organization that publishes the crate")
    bun.add_argument("--publisher-url", help="the publisher's web site or ROR id (https://ror.org/…)")
    bun.add_argument("--license", default="MIT", help="the results' licence, an SPDX identifier (default MIT)")
    bun.add_argument("--validate", action="store_true",
                     help="check the crate with roc-validator, offline (Provenance Run Crate 0.5, RECOMMENDED)")
    bun.add_argument("--validator", help="a python with roc-validator (default $STRATBENCH_ROC_VALIDATOR, else this one)")


def main(argv=None) -> int:
    from stratbench import __version__
    from stratbench.stratifiers.catalog import plain

    parser = argparse.ArgumentParser(
        prog="stratbench", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=plain(__doc__),
        description="stratbench: reproducible benchmarks of multi-label cross-validation (the workflow runs with "
                    "`snakemake --cores N`; these commands check, cost and redraw its studies, and list, certify "
                    "and mirror what it uses).")
    parser.add_argument("--version", action="version", version=f"stratbench {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every registered stratifier: what it is, its reference, its guarantees")
    cert = sub.add_parser("certify", help="the conformance certificate of every splitter, ours and the installed peers'")
    cert.add_argument("--out", help="also write it to this Markdown file")
    cert.add_argument("--no-real-data", dest="real_data", action="store_false",
                      help="leave out real_sizes (the sizes on the MULAN mirror's small datasets and a 10^4-row matrix)")
    cert.add_argument("--mirror", help="the MULAN mirror for real_sizes (default: STRATBENCH_DATA_MIRROR)")
    est = sub.add_parser("estimate", help="the cost of a study before it runs")
    est.add_argument("--configfile", required=True, help="the study (e.g. config/sechidis2011.yaml)")
    est.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="cores for the wall time (default: this machine's)")
    est.add_argument("--samples", type=int, default=24, help="forests timed per dataset and classifier (default 24)")
    est.add_argument("--directory", default=".", help="the workflow's working directory (its resources/ cache)")
    est.add_argument("--out", help="output folder (default estimates/<study>)")
    mirror = sub.add_parser("mirror", help="download the pinned MULAN files into a mirror folder")
    mirror.add_argument("folder", help="where the files go, as <folder>/<dataset>/<file>")
    mirror.add_argument("datasets", nargs="*", help="MULAN datasets (default: every pinned one)")
    ver = sub.add_parser("verify", help="check a results folder against its manifest (every output's sha256)")
    ver.add_argument("folder", help="results/<study>")
    exp = sub.add_parser("export-splits", help="write a finished study's folds as OpenML split files (ARFF)")
    exp.add_argument("folder", help="results/<study>")
    _add_bundle(sub)
    plan = sub.add_parser("plan", help="the jobs a study's run would make, per rule (Snakemake's dry run, its summary)")
    plan.add_argument("--configfile", help="the study (default: the workflow's config/config.yaml)")
    plan.add_argument("--directory", default=".", help="the workflow's working directory")
    plan.add_argument("--snakefile", help="the workflow (default: Snakemake's, workflow/Snakefile in the directory)")
    plan.add_argument("--all", action="store_true", help="every job of the study, done or due (a finished study's plan)")
    cve = sub.add_parser("cv-error-tables", help="a does-it-matter study's tables and page, recomputed from its "
                         "published rows (tables/cv_error_inputs/)")
    cve.add_argument("--configfile", required=True, help="the study's config (e.g. config/cv_error.yaml)")
    cve.add_argument("--inputs", required=True, help="the folder of its rows (<name>.csv.gz)")
    cve.add_argument("--out", required=True, help="where the tables and does_it_matter.md go")
    check = sub.add_parser("check", help="read and check a study without running it")
    check.add_argument("--configfile", required=True, help="the study (e.g. config/sechidis2011.yaml)")
    fig = sub.add_parser("figure", help="redraw one figure of a finished study from its tidy tables")
    fig.add_argument("name", choices=FIGURES)
    fig.add_argument("--configfile", required=True, help="the study")
    fig.add_argument("--subject", help="what the figure is of: a classifier or fold_quality, a dataset (label_shares), "
                     "a k (grid_critical_difference), an estimator (cv_error_decomposition); default the first")
    fig.add_argument("--width", help="one (3.5 in), two (7.2 in) or inches; default the config's figures.width")
    fig.add_argument("--dpi", type=int, help="PNG resolution; default the config's (300)")
    fig.add_argument("--out", help="a .pdf or .png path (default results/<study>/figures/<name>_<subject>_<width>in.pdf)")
    fig.add_argument("--directory", default=".", help="the workflow's working directory")
    args = parser.parse_args(argv)
    try:
        return {"estimate": _estimate, "check": _check, "figure": _figure, "list": _list, "certify": _certify,
                "mirror": _mirror, "verify": _verify, "plan": _plan,
                "bundle": _bundle, "export-splits": _export_splits,
                "cv-error-tables": _cv_error_tables}[args.command](args)
    except StratbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as exc:  # the light install: the workflow's packages are an extra
        print(f"error: stratbench {args.command} needs the workflow extra ({exc.name} is not installed): "
              "pip install 'stratbench[workflow]'", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
