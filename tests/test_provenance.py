"""Results that carry their own proof: provenance.json and the manifest beside a finished study, `stratbench
verify` naming what changed, the Workflow Run RO-Crate of `stratbench bundle` (validated by roc-validator against
the Provenance Run Crate profile), and folds other tools can use (OpenML split files, read back by `from_file`
into byte-identical fold files)."""
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, run_snakemake, tiny_config

from stratbench import StratbenchError
from stratbench.__main__ import main
from stratbench.records.provenance import MANIFEST, PROVENANCE, config_sha256, verify


@pytest.fixture
def copied_study(finished_study, tmp_path) -> Path:
    """A copy of the finished tiny study's working folder (results and logs), to change freely."""
    work = tmp_path / "work"
    for part in ("results", "logs"):
        shutil.copytree(finished_study / part, work / part)
    return work


def test_a_run_leaves_its_provenance_beside_its_results(finished_study):
    results = finished_study / "results" / "tiny"
    record = json.loads((results / PROVENANCE).read_text())
    assert record["study"] == "tiny" and record["config_sha256"] == config_sha256(record["config"])
    assert record["config"]["seed"] == 7 and record["config"]["forest"]["n_estimators"] == 5  # as run
    assert "--cores" in record["command"] and record["started"] <= record["finished"]
    assert len(record["stratbench"]["commit"] or "") in (0, 40) and record["software"]["scikit-learn"]
    assert record["machine"]["cores"] >= 1 and record["machine"]["cpu"]
    emotions = [d for d in record["data"] if d["dataset"] == "emotions"]
    assert {d["file"] for d in emotions} == {"emotions/emotions.arff", "emotions/emotions.xml"}
    assert all(d["checked"] for d in emotions)  # the workflow's copies match their pinned sha256
    hours = record["cpu_hours"]
    assert hours["make_folds"] > 0 and hours["evaluate_repeats"] > 0
    assert hours["total"] == pytest.approx(sum(v for k, v in hours.items() if k != "total"), abs=1e-5)
    listed = (results / MANIFEST).read_text().splitlines()
    assert any(line.endswith("  provenance.json") and len(line.split("  ")[0]) == 64 for line in listed)
    assert verify(results) == {"changed": [], "missing": [], "unlisted": []}


def test_a_reproduction_lists_every_claim_with_its_command_value_rule_verdict_and_cost(finished_study):
    import pandas as pd

    results = finished_study / "results" / "tiny"
    claims = pd.read_csv(results / "claims.tsv", sep="\t", keep_default_na=False)
    report = pd.read_csv(results / "report" / "reproduction.csv", keep_default_na=False)
    judged = report[~report["measure"].isin(["", "runtime_s"])]
    assert len(claims) == len(judged) > 0
    row = claims[(claims["dataset"] == "emotions") & (claims["stratifier"] == "iterative")].iloc[0]
    assert row["claim"].startswith(row["table"]) and "emotions / iterative" in row["claim"]
    assert row["command"].startswith("snakemake --cores N --configfile ") and row["command"].endswith(
        "results/tiny/report/reproduction.csv")
    assert row["rule"] and row["verdict"] in ("agrees", "unexplained", "undetermined") or row["verdict"].startswith("differs")
    assert row["cpu_hours"] > 0 and "cores" in row["machine"]
    assert "claims.tsv" in (results / MANIFEST).read_text()


def test_verify_names_a_file_that_changed_or_went_missing(copied_study, capsys):
    results = copied_study / "results" / "tiny"
    # the manifest in sha256sum's format: checked without stratbench, as BagIt's payload manifest is
    assert subprocess.run(["sha256sum", "-c", "--quiet", MANIFEST], cwd=results).returncode == 0
    scores = results / "tables" / "scores.csv"
    scores.write_text(scores.read_text().replace("0.", "1.", 1))
    (results / "tables" / "summary.md").unlink()
    assert subprocess.run(["sha256sum", "-c", "--quiet", MANIFEST], cwd=results, capture_output=True).returncode == 1
    assert main(["verify", str(results)]) == 1
    out = capsys.readouterr().out
    assert f"changed: {results}/tables/scores.csv" in out and f"missing: {results}/tables/summary.md" in out
    assert out.strip().endswith("2 files differ from the manifest")
    (results / MANIFEST).write_text("0123  tables/scores.csv\n")  # not sha256sum's format: named, with its line
    with pytest.raises(StratbenchError, match=r"manifest-sha256\.txt, line 1: not '<sha256>  <path>'"):
        verify(results)


def stale_log(work: Path) -> Path:
    """A log a job no longer in the study left behind (its dataset since removed from the config), its outputs
    still on disk."""
    log = work / "logs" / "tiny" / "make_folds" / "gone" / "random.log"
    log.parent.mkdir(parents=True)
    log.write_text('stratbench-job {"input": ["results/tiny/datasets/gone.npz"], "output": '
                   '["results/tiny/folds/gone/random/rep0.npz"], "rule": "make_folds", "started": '
                   '"2026-01-01T00:00:00+00:00", "wildcards": {"dataset": "gone", "stratifier": "random"}}\n'
                   "stratbench-usage rule=make_folds dataset=gone stratifier=random threads=1 wall_s=3600.000 "
                   "cpu_s=3600.000 max_rss_mb=100 ended=2026-01-01T01:00:00+00:00\n")
    return log


def test_only_the_study_s_current_jobs_are_its_record(copied_study, monkeypatch):
    """A job counts where its outputs are the study's files or, in turn, the inputs of a job that made them (the
    plan's targets walked back through the jobs' records); a stale log's hour of CPU is not the study's."""
    from stratbench.records.provenance import cpu_hours, current_jobs, usage
    from stratbench.study import Study
    from stratbench.study.plans import plan

    logs = copied_study / "logs" / "tiny"
    before = usage(logs)
    stale_log(copied_study)
    every = usage(logs)
    record = json.loads((copied_study / "results" / "tiny" / PROVENANCE).read_text())
    monkeypatch.chdir(copied_study)  # the plan names its files from the working folder
    targets = plan(Study(record["config"])).targets()
    current = usage(logs, targets)
    assert len(every) == len(before) + 1 and any(j["wildcards"].get("dataset") == "gone" for j in every)
    assert [j["log"] for j in current] == [j["log"] for j in before]  # every job of the run, the stale one not
    assert cpu_hours(current) == pytest.approx(record["cpu_hours"], abs=1e-5)  # what the run recorded
    assert cpu_hours(every)["make_folds"] == pytest.approx(record["cpu_hours"]["make_folds"] + 1, abs=1e-5)
    assert all(j["ended"] >= j["started"] for j in current)  # each job's end, from its usage line
    # the walk: a target's job, that job's inputs' jobs, and nothing else
    jobs = [dict(rule="a", input=["x"], output=["y"]), dict(rule="b", input=[], output=["x"]),
            dict(rule="c", input=["x"], output=["z"])]
    assert [j["rule"] for j in current_jobs(jobs, ["y"])] == ["a", "b"]


def test_the_bundle_is_a_provenance_run_crate(copied_study, tmp_path, capsys):
    """The crate of a study holds its current jobs (a stale log's is not one) and passes roc-validator's RECOMMENDED
    checks offline (``bundle --validate``) but those no crate with its workflow inside can pass; without an author
    and a publisher it fails, naming the options that give them."""
    results = copied_study / "results" / "tiny"
    stale_log(copied_study)
    validator = os.environ.get("STRATBENCH_ROC_VALIDATOR")  # a python with roc-validator (rich < 14: its own venv)
    if not validator and os.environ.get("CI"):
        pytest.fail("CI run without roc-validator: set STRATBENCH_ROC_VALIDATOR (.ci/run makes its venv)")
    # the copy has no workflow/ beside it, and an installed wheel (as in CI) no checkout: the folder is given
    bundle = ["bundle", str(results), "--directory", str(copied_study), "--workflow", str(REPO / "workflow")]
    deposit = ["--author", "Ada Lovelace", "--orcid", "https://orcid.org/0000-0002-1825-0097", "--publisher",
               "University of Somewhere", "--publisher-url", "https://ror.org/000000000"]
    check = ["--validate", "--validator", validator] if validator else []
    assert main([*bundle, *deposit, "--out", str(tmp_path / "tiny.zip"), *check]) == 0
    said = capsys.readouterr().out
    assert not (copied_study / ".snakemake").exists()  # the crate's own files made aside, not in the run's folder
    with zipfile.ZipFile(tmp_path / "tiny.zip") as z:
        names = set(z.namelist())
        graph = json.loads(z.read("ro-crate-metadata.json"))["@graph"]
    assert {"workflow/Snakefile", "config.json", "README.md", "results/tables/scores.csv",
            "results/provenance.json"} <= names
    by_id = {e["@id"]: e for e in graph}
    root = by_id["./"]
    assert {"@id": "https://w3id.org/ro/wfrun/provenance/0.5"} in root["conformsTo"]
    assert root["mainEntity"] == {"@id": "workflow/Snakefile"}
    assert by_id[root["author"]["@id"]] == {"@id": "https://orcid.org/0000-0002-1825-0097", "@type": "Person",
                                            "name": "Ada Lovelace", "affiliation": {"@id": "#publisher"}}
    assert by_id[root["license"]["@id"]]["@type"] == "CreativeWork"
    jobs = [e for e in graph if e["@type"] == "CreateAction" and e["@id"].startswith("#job-")]
    controls = [e for e in graph if e["@type"] == "ControlAction"]
    assert len(jobs) == len(controls) > 10  # every job of the run, each under its rule's step
    assert not any("gone" in e["name"] for e in jobs)  # the stale log's job is not the study's
    assert all(e["endTime"] >= e["startTime"] and e["agent"] == root["author"] and e["description"] for e in jobs)
    mentioned = {m["@id"] for m in root["mentions"]}
    assert {e["@id"] for e in jobs} | {"#run", "#orchestration"} <= mentioned
    files = [e for e in graph if e["@type"] == "File" or "File" in e["@type"]]
    assert files and all(e.get("encodingFormat") for e in files)
    assert by_id["#tool-make_folds"]["url"] == "workflow/rules/folds.smk"  # each rule's tool by the file declaring it
    made = by_id["#tool-plot_std_by_stratifier"]  # a rule made in a loop of figures.smk: no file named for it
    assert made["url"] == "workflow/Snakefile" and "declared in" not in made["description"]
    folds = next(e for e in jobs if e["name"].startswith("make_folds dataset=emotions stratifier=iterative"))
    assert {"@id": "results/folds/emotions/iterative/rep0.npz"} in folds["result"]
    assert by_id["#orchestration"]["@type"] == "OrganizeAction" and by_id["#run"]["instrument"] == {
        "@id": "workflow/Snakefile"}
    if not validator:
        pytest.skip("roc-validator not set up: STRATBENCH_ROC_VALIDATOR names a python that has it")
    assert said.strip().endswith("beyond those of the workflow in the crate and the web's: passed"), said
    assert "2 of ro-crate-1.1_28.1 are web data entities (MULAN's pinned files)" in said  # emotions' two files
    assert "× REQUIRED" not in said
    # planted: no author and no publisher; the same crate otherwise
    assert main([*bundle, "--out", str(tmp_path / "anonymous.zip"), *check]) == 1
    said = capsys.readouterr().out
    assert "ro-crate-1.1_22.2: The Root Data Entity SHOULD have a link to a Contextual Entity representing the `author`" in said
    assert "the crate names no author and no publisher: give --author and --publisher" in said
    assert said.strip().endswith("failed")


def test_folds_exported_as_openml_splits_come_back_byte_identical(copied_study, mirror, tmp_path):
    """export-splits writes every (dataset, stratifier)'s folds as an OpenML split file (listed in the manifest);
    a study whose stratifier is from_file on those files makes the same fold files, byte for byte."""
    results = copied_study / "results" / "tiny"
    assert main(["export-splits", str(results)]) == 0
    split = results / "splits" / "emotions" / "iterative.arff"
    lines = split.read_text().splitlines()
    assert lines[:4] == ["@RELATION Split", "", "@ATTRIBUTE type {TRAIN,TEST}", "@ATTRIBUTE rowid INTEGER"]
    assert sum(line.startswith("TEST,") for line in lines) == 593 * 2  # each row once a repeat
    assert verify(results)["unlisted"] == []  # the manifest now lists the split files
    config = tiny_config(mirror, stratifiers={"copied": {"class": "from_file", "params": {
        "path": str(results / "splits" / "{dataset}" / "iterative.arff")}}}, classifiers={"br": {}})
    config.pop("reproduces")
    targets = [f"results/tiny/folds/{d}/copied/rep{r}.npz" for d in ("toy", "emotions") for r in (0, 1)]
    run = run_snakemake(tmp_path / "again", config, "--cores", "2", *targets)
    assert run.returncode == 0, run.stderr[-3000:]
    for target in targets:
        original = results / target.replace("results/tiny/", "").replace("copied", "iterative")
        assert (tmp_path / "again" / target).read_bytes() == original.read_bytes(), target
    with np.load(tmp_path / "again" / targets[0]) as z:
        assert z["fold"].shape == (120,)
