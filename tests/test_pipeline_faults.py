"""The pipeline under the faults users meet: a file changed after it was fetched, a user's own dataset,
a failed job, a study killed mid-run, scikit-learn's expected warnings; and the user guide's faults (a second run,
the job server or a job killed, a full disk, a read-only folder), each with its documented recovery."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import REPO, run_snakemake, tiny_config

pytestmark = pytest.mark.workflow


def toy_only(mirror, **changes):
    config = tiny_config(mirror, **changes)
    config["datasets"] = {"toy": config["datasets"]["toy"]}
    config.pop("reproduces")
    return config


def test_a_raw_file_changed_after_its_fetch_stops_the_parse_naming_it(tmp_path, mirror):
    raw = tmp_path / "resources" / "mulan" / "raw" / "emotions"
    raw.mkdir(parents=True)
    source = mirror / "emotions"
    shutil.copy(source / "emotions.xml", raw)
    (raw / "emotions.arff").write_bytes((source / "emotions.arff").read_bytes()[:200_000])  # cut short
    config = tiny_config(mirror)
    config["datasets"] = {"emotions": {}}
    result = run_snakemake(tmp_path, config, "--cores", "1", "--until", "parse_mulan")
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert re.search(r"emotions\.arff: does not match its pinned sha256 \(200,000 of 380,476 bytes\)", out), out[-3000:]
    assert not (tmp_path / "resources" / "mulan" / "emotions.npz").exists()


def test_a_users_own_dataset_arff_and_matrix_pair(tmp_path, mirror):
    """emotions as the user's own ARFF+XML (same rows and labels as the registry's), and a random
    matrix pair (X dense .npy, Y scipy.sparse .npz); folds and fold quality for both."""
    shutil.copytree(mirror / "emotions", tmp_path / "data")
    rng = np.random.default_rng(0)
    np.save(tmp_path / "data" / "X.npy", rng.random((40, 3)))
    sp.save_npz(tmp_path / "data" / "Y.npz", sp.csr_matrix((rng.random((40, 4)) < 0.3).astype(np.int8)))
    config = toy_only(mirror, classifiers={})
    config["datasets"] = {"my_emotions": {"files": {"arff": "data/emotions.arff", "xml": "data/emotions.xml"}},
                          "my_pair": {"files": {"X": "data/X.npy", "Y": "data/Y.npz"}}}
    result = run_snakemake(tmp_path, config, "--cores", "2", "results/tiny/tables/fold_quality.csv",
                           "results/tiny/tables/dataset_statistics.csv")
    assert result.returncode == 0, result.stderr[-3000:]
    import pandas as pd

    stats = pd.read_csv(tmp_path / "results" / "tiny" / "tables" / "dataset_statistics.csv").set_index("dataset")
    assert stats.loc["my_emotions", ["examples", "labels", "labelsets"]].tolist() == [593, 6, 27]
    assert stats.loc["my_pair", ["examples", "labels"]].tolist() == [40, 4]
    quality = pd.read_csv(tmp_path / "results" / "tiny" / "tables" / "fold_quality.csv")
    assert set(quality["dataset"]) == {"my_emotions", "my_pair"}

    sp.save_npz(tmp_path / "data" / "Y.npz", sp.csr_matrix(np.full((40, 4), 2, dtype=np.int8)))  # not 0/1
    result = run_snakemake(tmp_path, config, "--cores", "1", "results/tiny/tables/dataset_statistics.csv")
    out = result.stdout + result.stderr
    assert result.returncode != 0 and re.search(r"data/Y\.npz: label column 0 is not 0/1 \(value 2 at row 0\)", out), out[-2000:]


def test_a_failed_job_shows_the_end_of_its_log_on_screen(tmp_path, mirror):
    config = toy_only(mirror)
    assert run_snakemake(tmp_path, config, "--cores", "1", "results/tiny/datasets/toy.npz").returncode == 0
    from stratbench.io import save_npz

    folds = tmp_path / "results" / "tiny" / "folds" / "toy" / "random" / "rep0.npz"
    save_npz(folds, fold=np.zeros(120, dtype=np.int32), n_splits=np.int64(3), seed=np.int64(0))  # folds 1, 2 empty
    # repeat 1 is read by the same evaluation job (toy: both repeats in one job), and sound
    save_npz(folds.with_name("rep1.npz"), fold=np.arange(120, dtype=np.int32) % 3, n_splits=np.int64(3), seed=np.int64(1))
    result = run_snakemake(tmp_path, config, "--cores", "1", "results/tiny/scores/toy/random/br/rep0.csv")
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Logfile logs/tiny/evaluate/toy/random/br.log:" in out  # the default profile's show-failed-logs
    assert re.search(r"error: results/tiny/folds/toy/random/rep0\.npz: fold ids must be 0…2 with no fold empty", out)
    assert "Found array with 0 sample" not in out


def test_expected_scikit_learn_warnings_do_not_fill_the_logs(tmp_path, mirror):
    """LP and FG on emotions: every training part has labelsets with one example ("classes > 50% of
    samples" from scikit-learn, 1,743 lines on the default study before)."""
    config = tiny_config(mirror, classifiers={"lp": {}, "fg": {}})
    config["datasets"] = {"emotions": {}}
    config.pop("reproduces")
    result = run_snakemake(tmp_path, config, "--cores", "2", "results/tiny/tables/scores.csv")
    assert result.returncode == 0, result.stderr[-3000:]
    logs = "".join(p.read_text() for p in (tmp_path / "logs" / "tiny" / "evaluate").rglob("*.log"))
    assert "stratbench-usage rule=evaluate_repeats" in logs and "Warning" not in logs


def test_sigkill_mid_study_then_the_readme_command_finishes_identically(tmp_path, mirror, finished_runs):
    """kill -9 of snakemake (and its running job) mid-study; the README's one rerun line finishes it;
    every output is byte-identical to an uninterrupted run, and no job that had finished runs again
    (at most the one in flight when killed, whose output may be complete but unrecorded)."""
    readme = (REPO / "README.md").read_text()
    rerun = re.search(r"^(snakemake --unlock && snakemake .*--rerun-incomplete.*)$", readme, re.M).group(1)
    import yaml

    (tmp_path / "config.yaml").write_text(yaml.safe_dump(tiny_config(mirror), sort_keys=False))
    env = {**os.environ, "STRATBENCH_CACHE": str(tmp_path / "cache")}
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "workflow" / "Snakefile"), "--directory", str(tmp_path),
           "--configfile", str(tmp_path / "config.yaml"), "--cores", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    scores = tmp_path / "results" / "tiny" / "scores"
    deadline = time.time() + 300
    while time.time() < deadline and len(list(scores.rglob("*.csv"))) < 3:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "results").rglob("*") if p.is_file()}
    assert 3 <= len(list(scores.rglob("*.csv"))) < 8  # killed mid-study

    line = rerun.replace("snakemake ", f"{sys.executable} -m snakemake --snakefile {REPO / 'workflow' / 'Snakefile'} "
                                     f"--directory {tmp_path} --configfile {tmp_path / 'config.yaml'} ")
    line = line.replace("--cores 8", "--cores 1")
    result = subprocess.run(line, shell=True, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    again = [p for p, t in before.items() if p.exists() and p.stat().st_mtime_ns != t and "benchmarks" not in p.parts]
    # the job in flight at most: an evaluation job's score file, or a fold job's files (every repeat's folds,
    # runtime and fold quality of one dataset × stratifier)
    in_flight = {p.relative_to(tmp_path / "results" / "tiny").parts[1:3] for p in again}
    assert len(in_flight) <= 1 and len(again) <= 3 * 2, again

    assert _same_outputs(tmp_path, finished_runs[0]) >= 78  # every output of the tiny study but the measured ones


def _same_outputs(run, reference) -> int:
    """Every output of ``reference``'s study but the measured ones (times) is byte-identical in ``run``'s;
    no temporary file is left. The count compared."""
    from test_workflow import MEASURED

    a, b = run / "results" / "tiny", reference / "results" / "tiny"
    compared = 0
    for sub in ("folds", "scores", "fold_quality", "tables", "report", "figures"):
        for p in (b / sub).rglob("*"):
            if p.is_file() and not MEASURED.search(p.name):
                assert (a / p.relative_to(b)).read_bytes() == p.read_bytes(), p.relative_to(b)
                compared += 1
    assert not [p for p in (run / "results").rglob("*.tmp")]
    return compared


def _can_mount() -> bool:
    """Whether this machine lets a test mount in a namespace of its own (``unshare``: a full disk as a small
    tmpfs, a read-only results folder as a read-only bind mount), as Linux does for root or with user namespaces."""
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rm", "mount", "-t", "tmpfs", "tmpfs", "/mnt"], capture_output=True).returncode == 0


def _recovery(fault: str) -> str:
    """The recovery the user guide's table gives for ``fault`` (its first column)."""
    guide = (REPO / "docs" / "user-guide.md").read_text()
    row = next(line for line in guide.splitlines() if line.startswith(f"| {fault} |"))
    return re.findall(r"`([^`]+)`", row.split("|")[-2])[-1]


def test_round_four_faults_each_recovered_by_the_documented_step_byte_identically(tmp_path, mirror, finished_runs):
    """One study through the faults of the user guide's table, each followed by its documented recovery: a second
    run on the study while one runs, the job server killed, a job killed mid-write, a full disk, a read-only results
    folder. Each fault stops with its cause on screen and leaves no partial file; after the recoveries every output
    is byte-identical to an uninterrupted run's."""
    if not _can_mount():
        if os.environ.get("CI"):
            pytest.fail("CI cannot mount in a namespace of its own (unshare -rm): the full-disk and read-only faults")
        pytest.skip("no unshare -rm here: the full-disk and read-only faults need a mount namespace")
    import yaml

    (tmp_path / "config.yaml").write_text(yaml.safe_dump(tiny_config(mirror), sort_keys=False))
    env = {**os.environ, "STRATBENCH_CACHE": str(tmp_path / "cache")}
    snakemake = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "workflow" / "Snakefile"), "--directory",
                 str(tmp_path), "--configfile", str(tmp_path / "config.yaml"), "--cores", "1"]
    results = tmp_path / "results" / "tiny"
    rerun = _recovery("a job killed mid-write")
    assert rerun == "snakemake --cores 8" and all(
        _recovery(f) == rerun for f in ("the job server killed", "a full disk", "a read-only results folder"))

    def run(mounts="", **more):
        command = snakemake if not mounts else ["unshare", "-rm", "sh", "-c", f"{mounts} && exec {shlex.join(snakemake)}"]
        done = subprocess.run(command, capture_output=True, text=True, env={**env, **more}, cwd=tmp_path)
        return done.returncode, done.stdout + done.stderr

    def wait_for(condition, what):
        deadline = time.time() + 300
        while not condition():
            assert time.time() < deadline, f"waited 300 s for {what}"
            time.sleep(0.1)

    # 1. the job server killed mid-run (its command line names the run's pid), once it has served a job: the jobs
    # it ran fail, the later ones run in their own Python, the run ends
    first = subprocess.Popen(snakemake, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                             start_new_session=True)

    def server():
        for p in Path("/proc").iterdir():
            try:
                if p.name.isdigit() and (p / "cmdline").read_bytes().split(b"\0")[2:5:2] == [
                        b"stratbench.jobs.server", str(first.pid).encode()]:
                    return int(p.name)
            except OSError:
                pass
        return None

    wait_for(server, "the first run's job server")
    wait_for(lambda: len(list((results / "scores").rglob("*.csv"))) >= 1, "the first run's first scores")
    os.kill(server(), signal.SIGKILL)
    # 2. a second run on the study while the first runs: it stops at once, naming the lock; the first goes on
    assert first.poll() is None
    code, out = run()
    assert code != 0 and "cannot be locked" in out, out[-2000:]
    out = first.communicate(timeout=600)[0]
    code, out = run()
    assert code == 0 and not [p for p in results.rglob("*.tmp")], out[-3000:]  # a killed child's removed as its job reran
    # 3. a job killed mid-write, a writer's temporary file left beside an output: the run ends with the job's
    # error; the rerun removes the stale file and makes the output again
    shutil.rmtree(results / "scores")
    stale = results / "scores" / "emotions" / "iterative" / "br" / ".rep0.csv.killed.tmp"
    stale.parent.mkdir(parents=True)
    stale.write_text("half a file")
    third = subprocess.Popen(snakemake, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env={**env, "STRATBENCH_JOBSERVER": "0"}, start_new_session=True)

    def evaluation_job():
        """An evaluation job of this run: in the session the run leads (never another test's, beside it)."""
        for p in Path("/proc").iterdir():
            if p.name.isdigit():
                try:
                    if b".evaluate.py" in (p / "cmdline").read_bytes() and os.getsid(int(p.name)) == third.pid:
                        return int(p.name)
                except OSError:
                    pass
        return None

    wait_for(evaluation_job, "an evaluation job")
    os.kill(evaluation_job(), signal.SIGKILL)
    out = third.communicate(timeout=600)[0]
    assert third.returncode != 0 and "Error in rule evaluate_repeats" in out, out[-3000:]
    code, out = run()
    assert code == 0 and not stale.exists(), out[-3000:]
    # 4. a full disk (a 4 KiB file system on the scores folder): the job's log says so; nothing half-written
    shutil.rmtree(results / "scores")
    (results / "scores").mkdir()
    code, out = run(f"mount -t tmpfs -o size=4k tmpfs {shlex.quote(str(results / 'scores'))}")
    assert code != 0 and "No space left on device" in out, out[-3000:]
    code, out = run()  # the space freed (the small file system gone)
    assert code == 0, out[-3000:]
    # 5. a read-only results folder: Snakemake stops before any job, naming the files it could not replace
    figure = next(results.glob("figures/*.png"))
    figure.unlink()
    where = shlex.quote(str(results))
    code, out = run(f"mount --bind {where} {where} && mount -o remount,bind,ro {where}")
    assert code != 0 and "Write-protected output files" in out and "affected files:" in out, out[-3000:]
    assert not figure.exists()
    code, out = run()
    assert code == 0, out[-3000:]

    assert _same_outputs(tmp_path, finished_runs[0]) >= 78
