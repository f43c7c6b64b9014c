"""A study on a real SLURM cluster (the single-node one of .ci/slurm-up) through Snakemake's SLURM
executor, killed mid-run and finished with the README's line: the same bytes as the finished local run of the
same study, nothing lost.

Skipped, saying so, where no SLURM node is idle (CI runs .ci/slurm-up wherever apt-get works and sets
STRATBENCH_SLURM=1, which turns a missing cluster into a failure)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import REPO, tiny_config

# one SLURM node, which the test needs idle: in one worker's group, never beside another test of this file
pytestmark = [pytest.mark.workflow, pytest.mark.xdist_group("slurm")]
MEASURED = re.compile(r"runtime|tiittanen2021_table2|fold_quality_papers\.md|paper_tables\.md")
COMMIT = re.compile(rb"at commit (?:[0-9a-f]{7}(?: with uncommitted changes)?|unknown)")  # "Made with stratbench … at commit …" of a report


def _slurm_idle() -> bool:
    if not shutil.which("sinfo"):
        return False
    out = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True)
    return out.returncode == 0 and "idle" in out.stdout.split()


@pytest.fixture(scope="module")
def slurm():
    if not _slurm_idle():
        if os.environ.get("STRATBENCH_SLURM") == "1":
            pytest.fail("STRATBENCH_SLURM=1 but no idle SLURM node (did .ci/slurm-up fail?)")
        pytest.skip("skipped: no SLURM (no idle node; start one with .ci/slurm-up)")
    pytest.importorskip("snakemake_executor_plugin_slurm", reason="skipped: no SLURM executor plugin (pip install -e '.[slurm]')")


def checkout(dest: Path) -> Path:
    """A copy of the repository's tracked files (what a user has after git clone)."""
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    for rel in files:
        if (REPO / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, dest / rel)
    return dest


def snakemake(cwd: Path, *args, **kw):
    return subprocess.run([sys.executable, "-m", "snakemake", *args], cwd=cwd, capture_output=True, text=True, **kw)


def same_results(a: Path, b: Path) -> int:
    """Assert that every fold file, score, fold-quality row, table, report and figure of b is in a
    with the same bytes (wall-time files aside, and the commit a report names: a copy of the checkout has no
    git history to name it from); return how many were compared."""
    compared = 0
    for sub in ("folds", "scores", "fold_quality", "tables", "report", "figures", "network"):
        for p in sorted((b / sub).rglob("*")):
            if p.is_file() and not MEASURED.search(p.name):
                ours, theirs = (COMMIT.sub(b"at commit -", f.read_bytes()) for f in (a / p.relative_to(b), p))
                assert ours == theirs, p.relative_to(b)
                compared += 1
    return compared


def test_a_study_on_slurm_with_the_profile_alone_killed_mid_run_finishes_with_the_local_bytes(slurm, tmp_path, mirror,
                                                                                                 finished_runs):
    """A fresh checkout runs the tiny study with the profile alone (`--profile workflow/profiles/slurm`, the
    study's config its only other argument). SIGKILL snakemake once some results exist, cancel its jobs, rerun with
    the README's line: the bytes of the finished local run, no finished job redone, no partial file, and the
    profile's groups submit far fewer jobs than the rerun has. One run for both properties: a study on SLURM costs
    minutes of start-ups, and the rerun is a plain run of what is left. (The default study on SLURM is the same
    rules on another config; its local run is the other Pythons' legs' quick study, .ci/pythons.)"""
    cluster = checkout(tmp_path / "cluster")
    (cluster / "tiny.yaml").write_text(yaml.safe_dump(tiny_config(mirror), sort_keys=False))
    common = ["--profile", "workflow/profiles/slurm", "--configfile", "tiny.yaml"]
    env = {**os.environ, "STRATBENCH_CACHE": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "snakemake", *common], cwd=cluster, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    scores = cluster / "results" / "tiny" / "scores"
    deadline = time.time() + 600
    while time.time() < deadline and len(list(scores.rglob("*.csv"))) < 2 and proc.poll() is None:
        time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    # cancel what the killed run left queued or running (the README's advice)
    subprocess.run(["scancel", "--user", os.environ.get("USER", "root")], capture_output=True)
    while subprocess.run(["squeue", "-h"], capture_output=True, text=True).stdout.strip():
        time.sleep(1)
    before = {p: p.stat().st_mtime_ns for p in (cluster / "results").rglob("*") if p.is_file()}
    assert len(list(scores.rglob("*.csv"))) < 8  # killed mid-study

    unlock = snakemake(cluster, *common, "--unlock", env=env)
    assert unlock.returncode == 0, unlock.stderr[-2000:]
    start = time.perf_counter()
    result = snakemake(cluster, *common, env=env)
    cluster_s = time.perf_counter() - start
    assert result.returncode == 0, result.stderr[-4000:]
    redone = [p for p, t in before.items() if p.exists() and p.stat().st_mtime_ns != t and "benchmarks" not in p.parts]
    assert len(redone) <= 4, redone  # at most the outputs of the submissions cut off by the kill
    assert not list((cluster / "results").rglob("*.tmp"))
    out = result.stdout + result.stderr
    submitted = len(re.findall(r"has been submitted with SLURM jobid", out))
    # the evaluation jobs go alone; every other job travels in a group: far fewer submissions than jobs
    total = int(re.search(r"^total\s+(\d+)", out, re.M).group(1))
    evaluate = sum(int(n) for n in re.findall(r"^evaluate(?:_repeats)?\s+(\d+)", out, re.M))
    assert 0 < submitted - evaluate < (total - evaluate) / 2, (submitted, evaluate, total)
    # every file of the finished local run (78 for this config), none missing, the same bytes
    assert same_results(cluster / "results" / "tiny", finished_runs[0] / "results" / "tiny") > 60
    print(f"tiny study's rest on SLURM: {cluster_s:.0f} s, {submitted} submissions for {total} jobs")
