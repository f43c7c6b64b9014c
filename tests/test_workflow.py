"""Snakemake end to end on a tiny study in a temporary folder (real data from the mirror)."""
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, plan_changed, planned_jobs, run_snakemake, tiny_config

pytestmark = pytest.mark.workflow


def test_tables_hold_the_expected_rows(finished_runs):
    tables = finished_runs[0] / "results" / "tiny" / "tables"
    stats = pd.read_csv(tables / "dataset_statistics.csv").set_index("dataset")
    assert list(stats.index) == ["toy", "emotions"]
    assert stats.loc["emotions", ["labels", "examples", "labelsets"]].tolist() == [6, 593, 27]

    scores = pd.read_csv(tables / "scores.csv")
    assert list(scores.columns) == ["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value", "software"]
    from sklearn import __version__ as sklearn_version

    from stratbench import __version__

    assert set(scores["software"]) == {f"stratbench {__version__}; scikit-learn {sklearn_version}"}  # the forests
    assert len(scores) == 2 * 2 * 2 * 3 * 6  # datasets × stratifiers × repeats × folds × measures
    assert scores.groupby(["dataset", "stratifier", "repeat"])["fold"].nunique().eq(3).all()
    emo = scores[(scores.dataset == "emotions") & (scores.measure == "hamming_loss")]["value"]
    assert emo.between(0.1, 0.35).all()  # a real forest on emotions, not a constant

    summary = pd.read_csv(tables / "summary.csv")
    assert len(summary) == 2 * 2 * 6 and set(summary["repeats"]) == {2} and set(summary["folds"]) == {3}
    quality = pd.read_csv(tables / "fold_quality.csv")
    measures = {"ED", "LD", "FZ", "FLZ", "rLD", "DCP", "LPD", "FLPZ", "pair_zero_share", "pair_zero_share_std",
                "pair_zero_share_2dp", "pair_zero_share_2dp_std"}
    assert len(quality) == 2 * 2 * 2 * len(measures) and set(quality["measure"]) == measures
    assert set(quality["software"]) == {f"stratbench {__version__}"}  # random and iterative delegate to nothing
    runtime = pd.read_csv(tables / "stratifier_runtime.csv")
    assert len(runtime) == 8 and (runtime["seconds"] > 0).all() and (runtime["seconds"] < 60).all()
    ranks = pd.read_csv(tables / "average_ranks.csv")
    assert set(ranks["stratifier"]) == {"random", "iterative"} and len(ranks) == 12
    assert "± " in (tables / "summary.md").read_text()
    figures = finished_runs[0] / "results" / "tiny" / "figures"
    assert (figures / "std_by_stratifier_br.png").stat().st_size > 10_000
    assert (figures / "std_by_stratifier_br.pdf").read_bytes().startswith(b"%PDF")
    for rule in ("make_folds", "evaluate", "parse_mulan", "generate_dataset"):
        assert any((finished_runs[0] / "logs").rglob(f"*{rule}*")), rule


def test_fold_files_follow_the_contract(finished_runs):
    folds = finished_runs[0] / "results" / "tiny" / "folds"
    with np.load(folds / "emotions" / "iterative" / "rep1.npz") as z:
        f = z["fold"]
    assert f.shape == (593,) and set(f.tolist()) == {0, 1, 2}
    assert np.bincount(f).max() - np.bincount(f).min() <= 15  # IS trades exact sizes for label balance


MEASURED = re.compile(r"runtime|tiittanen2021_table2|fold_quality_papers\.md|paper_tables\.md")


def test_same_config_gives_byte_identical_folds_tables_figures_and_report(finished_runs):
    a, b = (run / "results" / "tiny" for run in finished_runs)
    files = sorted(p.relative_to(a) for sub in ("folds", "scores", "fold_quality", "tables", "report", "figures")
                   for p in (a / sub).rglob("*") if p.is_file())
    # 8 fold files, 8 score files, 8 fold-quality files; 18 tables, 5 paper tables (the reproduced paper's
    # and every study's) × 4 formats + their LaTeX document; 3 reproduction-report files; 9 figures × 2 formats
    assert len(files) == 8 + 8 + 8 + 18 + 21 + 3 + 18
    # wall times are measurements: the runtime table and figure, and the Tiittanen-style table (and
    # the two Markdown files that include it) differ from run to run; nothing else may
    measured = [f for f in files if MEASURED.search(f.name)]
    assert len(measured) == 6
    for rel in files:
        if rel not in measured:
            assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_jobs_forked_by_the_job_server_make_the_same_bytes_as_jobs_in_a_fresh_python(finished_runs):
    """The first run's job server forked its jobs once it listened (splits, evaluations, tables among them); the
    second had none, and the test above finds the outputs byte-identical. Each job logged its own usage."""
    forked, fresh = finished_runs
    assert not (fresh / "logs" / "tiny" / "jobserver.log").exists()
    served = (forked / "logs" / "tiny" / "jobserver.log").read_text()
    ended = re.findall(r"^child \d+ \(tmp\w+\.(\w+)\.py\) ended with status (\d+)", served, flags=re.M)
    # every job's log: the study's, and the shared dataset jobs' (logs/fetch_mulan_file, logs/parse_mulan), which
    # the server forks too where it listens before they start
    logs = [log for log in (forked / "logs").rglob("*.log") if log.name != "jobserver.log"]
    assert {status for _, status in ended} == {"0"} and len(ended) <= len(logs), served
    assert {"make_folds", "evaluate", "summarise_scores"} <= {script for script, _ in ended}, served
    usage = [line for log in logs for line in log.read_text().splitlines() if line.startswith("stratbench-usage ")]
    assert len(usage) == len(logs)


def test_a_finished_study_has_nothing_left_to_do(finished_runs, mirror):
    result = run_snakemake(finished_runs[0], tiny_config(mirror), "-n", "--cores", "1")
    assert result.returncode == 0
    assert "Nothing to be done" in result.stdout + result.stderr


def test_stratbench_plan_prints_each_table_once_and_a_finished_studys_plan_on_request(finished_runs, monkeypatch,
                                                                                      capsys):
    """Snakemake prints a dry run's job table before and after it: ``stratbench plan`` prints it once; on a finished
    study it says that nothing is due and how to see the whole plan, which ``--all`` prints."""
    from stratbench.__main__ import main

    study = finished_runs[0]
    monkeypatch.setenv("STRATBENCH_CACHE", str(study / "cache"))
    plan = ["plan", "--configfile", str(study / "config.yaml"), "--directory", str(study), "--snakefile",
            str(REPO / "workflow" / "Snakefile")]
    assert main(plan) == 0
    out = capsys.readouterr().out
    assert "Nothing to be done" in out and "stratbench plan --all" in out and "Job stats:" not in out
    assert main([*plan, "--all"]) == 0
    out = capsys.readouterr().out
    assert out.count("Job stats:") == 1 and "This was a dry-run" in out and "stratbench plan --all" not in out
    assert planned_jobs(type("Run", (), {"stdout": out, "stderr": ""}))["make_folds"] == 4


def test_a_deleted_job_output_is_made_again_by_a_plain_run(finished_runs, mirror):
    """The documented per-job files are targets: one deleted from a finished study is planned again
    (and only its job); the file is put back after the dry run."""
    results = finished_runs[0] / "results" / "tiny"
    for rel, rule in (("folds/toy/iterative/rep1.npz", "make_folds"), ("fold_quality/toy/random/rep0.csv", "make_folds"),
                      ("scores/emotions/iterative/br/rep0.csv", "evaluate_repeats")):
        path = results / rel
        aside = path.with_name(path.name + ".aside")
        path.rename(aside)
        try:
            result = run_snakemake(finished_runs[0], tiny_config(mirror), "-n", "--cores", "1")
        finally:
            aside.rename(path)
        jobs = planned_jobs(result)
        assert jobs.get(rule) == 1, (rel, jobs)
        assert "Nothing to be done" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    "change, message",
    [
        ({"n_folds": 3}, r"config: Additional properties are not allowed \('n_folds' was unexpected\)"),
        ({"n_splits": 1}, r"config: n_splits: 1 is less than the minimum of 2"),
        ({"stratifiers": {"sois_typo": {}}}, r"stratifier 'sois_typo': unknown stratifier 'sois_typo'"),
        ({"datasets": {"emotion": {}}}, r"dataset 'emotion' is not a MULAN dataset of the registry"),
        ({"n_splits": 600}, r"config: n_splits=600 is greater than the 120 examples of dataset 'toy'"),
        ({"stratifiers": {"iterative": {"params": {"label_tie": "random"}}}},
         r"config: stratifier 'iterative' with params \{'label_tie': 'random'\}: .*unexpected keyword argument 'label_tie'"),
        ({"stratifiers": {"iterative": {"params": {"label_ties": "first"}}}},
         r"config: stratifier 'iterative' .*label_ties must be one of"),
        ({"classifiers": {"br": {"params": {"max_depht": 3}}}},
         r"config: classifier 'br' with params \{'max_depht': 3\}: .*max_depht"),
        ({"datasets": {"mine": {"files": {"X": "nowhere/X.npy", "Y": "nowhere/Y.npy"}}}},
         r"config: dataset 'mine': no such file nowhere/X.npy"),
        ({"classifiers": {"br": {"params": {"n_estimators": -1}}}},
         r"config: classifier 'br' with params \{'n_estimators': -1\}: .*'n_estimators' parameter .* range \[1, inf\)"),
        ({"study": ".."}, r"config: study: '\.\.' does not match"),
        ({"study": "."}, r"config: study: '\.' does not match"),
        ({"classifier_stratifiers": ["sois"]},
         r"config: classifier_stratifiers names stratifiers not in `stratifiers`: \['sois'\]"),
    ],
)
def test_config_errors_stop_before_any_job_with_one_line_naming_the_key(tmp_path, mirror, change, message):
    result = run_snakemake(tmp_path, tiny_config(mirror, **change), "--cores", "1")
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert re.search(message, out), out[-3000:]
    assert "Failed validating" not in out and len(out.splitlines()) < 12  # no schema dump, no traceback wall
    assert not (tmp_path / "results").exists() and not (tmp_path / "logs").exists()  # nothing ran


def test_a_papers_classifier_part_and_network_part_run_on_the_stratifiers_and_datasets_it_names(tmp_path, mirror):
    """Szymański 2017's protocol: the classifiers on the paper's rows only (ranks depend on who competes),
    the network measures only where the label space is small enough (no delicious); fold quality on all."""
    config = tiny_config(mirror, classifier_stratifiers=["iterative"], network_stability={"max_labels": 5})
    result = run_snakemake(tmp_path, config, "-n", "--cores", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = planned_jobs(result)
    assert jobs["evaluate_repeats"] == 2 * 1  # datasets × the one named stratifier, both repeats in one job
    assert jobs["make_folds"] == 2 * 2  # every stratifier, one job for both repeats
    assert jobs["network_stability"] == 1 * 2  # toy (5 labels), not emotions (6); both repeats in one job


def test_the_plan_prints_jobs_per_rule_and_a_dry_run_every_job(tmp_path, mirror):
    """``stratbench plan`` (``snakemake -n --quiet rules``: Snakemake's own switch, the workflow patches no
    logger) prints the jobs per rule and no block per job; ``snakemake -n`` a block for every planned job."""
    config = tiny_config(mirror)
    short = run_snakemake(tmp_path, config, "-n", "--quiet", "rules", "--cores", "1")
    out = short.stdout + short.stderr
    assert short.returncode == 0, out[-3000:]
    assert planned_jobs(short)["make_folds"] == 4 and "This was a dry-run" in out
    assert "jobid:" not in out and "reason: Missing output files" not in out
    full = run_snakemake(tmp_path, config, "-n", "--cores", "1")
    assert (full.stdout + full.stderr).count("jobid:") == sum(planned_jobs(full).values())


def test_adding_a_classifier_runs_only_its_jobs_and_the_aggregation(finished_runs, mirror):
    config = tiny_config(mirror)
    config["classifiers"]["lp"] = {}
    result = plan_changed(finished_runs[0], config, "--cores", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = planned_jobs(result)
    assert jobs.get("evaluate_repeats") == 2 * 2 and "evaluate" not in jobs  # lp on datasets × stratifiers, both repeats
    assert "make_folds" not in jobs and "generate_dataset" not in jobs
    assert {"gather_scores", "summarise_scores"} <= set(jobs)


def test_adding_a_stratifier_runs_only_its_jobs_and_the_aggregation(finished_runs, mirror):
    config = tiny_config(mirror)
    config["stratifiers"]["sois"] = {}
    jobs = planned_jobs(plan_changed(finished_runs[0], config, "--cores", "1"))
    assert jobs.get("make_folds") == 2 and jobs.get("evaluate_repeats") == 2  # sois: a fold job and an evaluation per dataset
    assert "parse_mulan" not in jobs


def test_a_new_figure_style_redraws_the_figures_and_nothing_else(finished_runs, mirror):
    config = tiny_config(mirror)
    config["figures"] = {"width": "one"}
    jobs = planned_jobs(plan_changed(finished_runs[0], config, "--cores", "1"))
    assert jobs and all(rule.startswith("plot_") or rule in ("all", "report_html") for rule in jobs), jobs
    assert jobs.get("plot_std_by_stratifier") == 1 and "evaluate_repeats" not in jobs and "summarise" not in jobs


def test_max_labels_restricts_a_classifier_to_small_label_sets_and_one_job_draws_each_kind_of_figure(tmp_path, mirror):
    """CLR on toy only; each kind of figure drawn per classifier is one job for every classifier, fold
    quality's rank figures one job, and CLR, ranked over one dataset, gets no rank bars or CD diagrams
    (said in one line)."""
    config = tiny_config(mirror)
    config["classifiers"]["clr"] = {"max_labels": 5}  # toy has 5 labels, emotions 6
    result = run_snakemake(tmp_path, config, "-n", "--cores", "1", "--verbose")
    jobs = planned_jobs(result)
    assert jobs.get("evaluate_repeats") == 2 * 2 + 1 * 2  # br everywhere, clr on toy only
    for rule in ("plot_std_by_stratifier", "plot_fold_distribution", "plot_rank_bars", "plot_cd_diagrams", "plot_fold_quality_ranks"):
        assert jobs.get(rule) == 1, (rule, jobs)
    out = result.stdout + result.stderr
    assert "clr: no rank figures or CD diagrams: ranks over 1 dataset compare nothing" in out
    drawn = set(re.findall(r"figures/(\w+)\.png", out))
    assert {"std_by_stratifier_br", "std_by_stratifier_clr", "fold_distribution_clr", "rank_bars_br",
            "rank_bars_fold_quality", "critical_difference_br", "critical_difference_fold_quality"} <= drawn
    assert not {"rank_bars_clr", "critical_difference_clr"} & drawn


def test_a_large_datasets_evaluation_runs_a_job_per_repeat_a_small_ones_every_repeat_in_one(tmp_path, mirror):
    """CLR with 200 trees takes emotions over stratbench.study.plans.EVALUATE_PER_REPEAT_S a repeat (by the shape
    estimate), toy not: emotions gets a job per repeat, toy one job for both repeats. A per-repeat job runs
    and writes the same scores as a job of both repeats."""
    from stratbench.study import Study
    from stratbench.study.plans import EVALUATE_PER_REPEAT_S, plan

    config = tiny_config(mirror, classifiers={"clr": {"params": {"n_estimators": 200}}, "br": {}})
    sizes = plan(Study.checked(config))
    assert sizes.evaluation_seconds("emotions", "clr") >= EVALUATE_PER_REPEAT_S > sizes.evaluation_seconds("toy", "clr")
    assert sizes.evaluate_per_repeat("emotions") and not sizes.evaluate_per_repeat("toy")
    jobs = planned_jobs(run_snakemake(tmp_path, config, "-n", "--cores", "1"))
    assert jobs.get("evaluate") == 2 * 2 * 2  # emotions: (stratifiers × classifiers) × repeats
    assert jobs.get("evaluate_repeats") == 2 * 2  # toy: stratifiers × classifiers, both repeats in one job

    per_repeat = "results/tiny/scores/emotions/random/br/rep1.csv"
    result = run_snakemake(tmp_path, config, "--cores", "1", per_repeat)
    assert result.returncode == 0, result.stderr[-3000:]
    log = (tmp_path / "logs" / "tiny" / "evaluate" / "emotions" / "random" / "br" / "rep1.log").read_text()
    assert "stratbench-usage rule=evaluate dataset=emotions stratifier=random classifier=br repeat=1" in log
    together = tmp_path / "together"
    together.mkdir()
    result = run_snakemake(together, tiny_config(mirror), "--cores", "1", per_repeat)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (together / per_repeat).read_bytes() == (tmp_path / per_repeat).read_bytes()
    assert (together / per_repeat).with_name("rep0.csv").is_file()  # made by the same job


def test_study_statistics_and_paper_tables(finished_study):
    from stratbench.stats import critical_difference

    tables = finished_study / "results" / "tiny" / "tables"
    tests = pd.read_csv(tables / "friedman_nemenyi.csv")
    assert set(tests["measure"]) == {"hamming_loss", "subset_accuracy", "coverage", "ranking_loss",
                                     "mean_average_precision", "micro_auc"}
    assert set(tests["group"]) == {"all"} and (tests["methods"] == 2).all()
    full = tests[tests["datasets"] == 2]
    assert len(full) >= 5 and np.allclose(full["critical_difference"], critical_difference(2, 2))
    pairs = pd.read_csv(tables / "nemenyi_pairwise.csv")
    assert len(pairs) == len(tests) and set(pairs["stratifier_a"]) | set(pairs["stratifier_b"]) == {"iterative", "random"}
    fq = pd.read_csv(tables / "fold_quality_ranks.csv")
    assert set(fq["measure"]) >= {"ED", "LD", "FLZ", "rLD", "DCP"} and fq["average_rank"].between(1, 2).all()

    paper = tables / "paper"
    cv = (paper / "cv_estimates_br.md").read_text()
    assert "| emotions | Hamming loss |" in cv and "avg. rank of std, all" in cv and "**" in cv
    assert "Sechidis et al. 2011, Table 2" in (tables / "fold_quality_papers.md").read_text()
    tex = (paper / "tables.tex").read_text()
    assert tex.count(r"\input{") == 5 and r"\usepackage{booktabs}" in tex
    assert not (paper / "szymanski2017_table1.md").exists()  # the study reproduces Sechidis et al. 2011 only
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed: the LaTeX is checked by test_paper_tables' parser only")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-output-directory",
                             str(finished_study), "tables.tex"], cwd=paper, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-3000:]
    assert (finished_study / "tables.pdf").stat().st_size > 10_000


def test_study_reproduction_report(finished_study):
    report = pd.read_csv(finished_study / "results" / "tiny" / "report" / "reproduction.csv")
    table1 = report[report["table"] == "Table 1"]
    assert set(table1["dataset"]) == {"emotions"} and len(table1) == 10 and table1["agrees"].all()
    # 3-fold CV here: no Table 2 row (the paper's are 10-fold); BR on emotions with random and iterative
    assert "Table 2" not in set(report["table"])
    table4 = report[report["table"] == "Table 4 (BR)"]
    assert set(table4["stratifier"]) == {"random", "iterative"} and set(table4["dataset"]) == {"emotions"}
    assert len(table4) == 11  # the published cells of emotions (BR subset accuracy of random is missing)
    assert np.allclose(table4["difference"], table4["ours"] - table4["published"])
    md = (finished_study / "results" / "tiny" / "report" / "reproduction.md").read_text()
    assert "## Summary" in md and "- Table 1: 10 of 10 cells agree" in md


def test_stratbench_figure_redraws_the_workflows_figures_byte_for_byte(finished_study, tmp_path, capsys):
    """`stratbench figure` draws through the workflow's own recipes (stratbench.study.figures): at the
    config's style its PNG and PDF equal the workflow's files byte for byte; --width one redraws it narrower."""
    from stratbench.__main__ import FIGURES, main
    from stratbench.study.figures import RECIPES, file_stem

    assert FIGURES == tuple(RECIPES)
    drawn = finished_study / "results" / "tiny" / "figures"
    for name, subject in (("rank_bars", "br"), ("rank_bars", "fold_quality"), ("critical_difference", "fold_quality"),
                          ("critical_difference", "br"), ("std_by_stratifier", "br"), ("fold_distribution", "br"),
                          ("label_shares", "emotions")):
        for ext in ("png", "pdf"):
            out = tmp_path / f"{name}_{subject}.{ext}"
            assert main(["figure", name, "--configfile", str(finished_study / "config.yaml"), "--directory",
                         str(finished_study), "--subject", subject, "--out", str(out)]) == 0
            assert out.read_bytes() == (drawn / f"{file_stem(name, subject)}.{ext}").read_bytes(), (name, subject, ext)
    narrow = tmp_path / "narrow.pdf"
    assert main(["figure", "critical_difference", "--configfile", str(finished_study / "config.yaml"), "--directory",
                 str(finished_study), "--width", "one", "--subject", "fold_quality", "--out", str(narrow)]) == 0
    assert narrow.read_bytes().startswith(b"%PDF") and "(3.5 in wide)" in capsys.readouterr().out
    png = tmp_path / "runtime.png"
    assert main(["figure", "runtime", "--configfile", str(finished_study / "config.yaml"), "--directory",
                 str(finished_study), "--dpi", "150", "--out", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_fourth_paper_gets_its_tables_and_report_with_no_edit_to_the_workflow(tmp_path, mirror):
    """A paper declared outside the package (tests/papers/toy2030.py) and named by dotted path: the
    workflow writes the table it declares, in every format and in the study's documents, and its
    reproduction report — all read from the paper's module."""
    from conftest import REPO

    config = tiny_config(mirror, study="toy_paper", classifiers={}, repeats=2, reproduces="toy2030.PAPER",
                         import_paths=[str(REPO / "tests" / "papers")])
    config["datasets"] = {"toy": config["datasets"]["toy"]}
    result = run_snakemake(tmp_path, config, "--cores", "2")
    assert result.returncode == 0, result.stderr[-4000:]
    tables = tmp_path / "results" / "toy_paper" / "tables"
    assert {p.suffix for p in (tables / "paper").glob("toy2030_table.*")} == {".csv", ".md", ".tex", ".html"}
    assert r"\input{toy2030_table}" in (tables / "paper" / "tables.tex").read_text()
    assert "Toy Table 1" in (tables / "fold_quality_papers.md").read_text()
    report = (tmp_path / "results" / "toy_paper" / "report" / "reproduction.md").read_text()
    assert "A. Toy. Toy splits. 2030." in report
    assert re.search(r"Toy Table 1: \d of 2 cells agree", report)
