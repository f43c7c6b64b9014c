import contextlib
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR_ENV = "STRATBENCH_DATA_MIRROR"


def _mirror() -> Path | None:
    value = os.environ.get(MIRROR_ENV)
    if value and Path(value).is_dir():
        return Path(value).resolve()
    default = REPO.parent / "shared" / "datasets" / "mulan"
    return default if default.is_dir() else None


GET_A_MIRROR = (f"set {MIRROR_ENV} to a MULAN mirror folder (`python -m stratbench mirror <folder>` downloads one, "
                "27 MB), or keep one at ../shared/datasets/mulan beside the checkout")


# Under pytest-xdist (README's test command: -n auto --dist loadgroup) the finished tiny study (two Snakemake runs,
# about 3 minutes) is made once for the session, by the first worker that needs it, under a lock in the session's
# folder (finished_runs); any worker's tests read it. The tests that run Snakemake or write inside its folder form one
# group (one worker, one at a time), as do the SLURM tests (each needs the node idle; tests/test_slurm.py) and a module
# that names its own group (the conformance marks). pytest is kept below 9.2, whose node ids undo the groups
# (pytest-xdist#1386); `made_once` fails where a group is found on a second worker.
SHARED_STUDY = {"finished_runs", "finished_study"}
WRITE_IN_THE_STUDY = ("tests/test_workflow.py", "tests/test_report.py")  # Snakemake, LaTeX or a report in its folder
ORDER = {"slurm": 0, None: 1, "finished_study": 2}  # the longest serial stretch first; the writers' group last


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        if SHARED_STUDY & set(item.fixturenames) and item.nodeid.split("::")[0] in WRITE_IN_THE_STUDY:
            item.add_marker(pytest.mark.xdist_group("finished_study"))

    items.sort(key=lambda item: ORDER.get(group_of(item), 1))  # the order within each part kept


def group_of(node) -> str | None:
    """The xdist group a test is marked with, or None."""
    marker = node.get_closest_marker("xdist_group")
    return None if marker is None else marker.args[0] if marker.args else marker.kwargs.get("name")


def pytest_report_header(config):
    path = _mirror()
    return f"MULAN mirror: {path}" if path else f"MULAN mirror: none, so the real-data tests skip; {GET_A_MIRROR}"


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The local MULAN mirror; CI must have it (a skip there would hide the real-data tests)."""
    path = _mirror()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI run without the MULAN mirror: {GET_A_MIRROR}")
        pytest.skip(f"no MULAN mirror: {GET_A_MIRROR}")
    return path


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    path = REPO.parent / "shared" / "reference"
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail("CI run without ../shared/reference")
        pytest.skip("no ../shared/reference")
    return path


@pytest.fixture(scope="session")
def mulan_cache(tmp_path_factory, mirror):
    """Load a MULAN dataset through fetch → parse → cache (one cache for the session)."""
    from stratbench.datasets import load_mulan

    cache = tmp_path_factory.mktemp("stratbench-cache")
    return lambda name: load_mulan(name, cache_dir=cache, mirror=str(mirror))


# --- Snakemake on a tiny study in a temporary folder (shared by the workflow, report, example and
# notebook tests) ---------------------------------------------------------------------------------

def tiny_config(mirror, **changes) -> dict:
    """A study small enough for CI: a synthetic dataset and emotions (from the mirror), random and
    iterative 3-fold CV, 2 repeats, BR with 5 trees; compared with Sechidis et al. 2011."""
    config = {
        "study": "tiny",
        "reproduces": "sechidis2011",
        "seed": 7,
        "n_splits": 3,
        "repeats": 2,
        "threads": 1,
        "data": {"mirror": str(mirror)},
        "datasets": {
            "toy": {"synthetic": {"examples": 120, "labels": 5, "features": 6, "cardinality": 1.7,
                                  "dependence": 0.3, "seed": 3, "census": 2000, "centroids": 4}},
            "emotions": {},
        },
        "stratifiers": {"random": {}, "iterative": {}},
        "classifiers": {"br": {}},
        "forest": {"n_estimators": 5},
    }
    config.update(changes)
    for kind in ("grid", "cv_error"):  # a grid or cv_error study: its kind, without the keys it does not read
        if kind in changes:
            from stratbench.study.plans import PLANS

            config["kind"] = kind
            for key in [key for key in config if PLANS[kind].refused(key)]:
                config.pop(key)
    return config


def run_snakemake(workdir: Path, config: dict, *args: str, snakefile: Path | None = None, env: dict | None = None):
    """Run Snakemake on ``config`` in ``workdir`` (the dataset cache inside it; ``env`` added to the
    environment); return the process."""
    import subprocess
    import sys

    import yaml

    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(snakefile or REPO / "workflow" / "Snakefile"),
         "--directory", str(workdir), "--configfile", str(workdir / "config.yaml"), *args],
        capture_output=True, text=True, env={**os.environ, "STRATBENCH_CACHE": str(workdir / "cache"), **(env or {})},
    )


def plan_changed(finished: Path, config: dict, *args: str):
    """A dry run of a changed ``config`` in the ``finished`` study's folder, whose config.yaml (the one it ran
    with, which later tests read) is put back after."""
    kept = (finished / "config.yaml").read_bytes()
    try:
        return run_snakemake(finished, config, "-n", *args)
    finally:
        (finished / "config.yaml").write_bytes(kept)


def figure_heights(results: Path) -> dict[str, float]:
    """Every PNG figure a run wrote under ``results`` (its ``figures/``) with its height in inches (pixels over
    the dpi it was saved at), for the page limit ``figures.MAX_HEIGHT``; at least one must exist."""
    from PIL import Image

    heights = {}
    for png in sorted(results.rglob("figures/**/*.png")):
        with Image.open(png) as image:
            heights[str(png.relative_to(results))] = image.size[1] / image.info["dpi"][1]
    assert heights, f"no figure under {results}"
    return heights


def planned_jobs(result) -> dict[str, int]:
    """Job counts from the 'Job stats' table of a dry run."""
    from stratbench.cost import planned_jobs as parse

    return parse(result.stdout + result.stderr)


def made_once(tmp_path_factory, group: str) -> None:
    """Under pytest-xdist, fail where a second worker runs a test of ``group``: the grouping has stopped (as pytest
    9.2's node ids silently undid pytest-xdist's --dist loadgroup, pytest-xdist#1386), and the group's tests would
    run side by side."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return
    mark = tmp_path_factory.getbasetemp().parent / f"group-{group}"  # the session's folder, every worker's
    try:
        fd = os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        first = mark.read_text()
        if first != worker:
            pytest.fail(f"a test of the group {group!r} runs on {worker}, another on {first}: pytest-xdist's --dist "
                        "loadgroup is not keeping the group on one worker (pytest-xdist#1386: pytest < 9.2, as "
                        "pyproject.toml pins it)")
        return
    os.write(fd, worker.encode())
    os.close(fd)


@pytest.fixture(autouse=True)
def _one_worker_per_group(request, tmp_path_factory):
    group = group_of(request.node)
    if group is not None:
        made_once(tmp_path_factory, group)


@contextlib.contextmanager
def _session_lock(path: Path):
    """An exclusive lock on ``path`` for as long as the block runs (the xdist workers of one session take turns)."""
    import fcntl

    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def finished_runs(tmp_path_factory, mirror) -> list[Path]:
    """The tiny study run twice, in two folders: with 1 core, its jobs forked by the run's job server
    (stratbench.jobs.server, the default), and with 2 cores, each job in a fresh Python (no job server)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # every worker's session folder
    folder = root / "finished-tiny-study"
    runs = [folder / "run1", folder / "run2"]
    with _session_lock(root / "finished-tiny-study.lock"):
        if not (folder / "finished").exists():  # the first worker to need it makes it, the others wait and read it
            shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
            for workdir, (cores, server) in zip(runs, (("1", ""), ("2", "0"))):
                result = run_snakemake(workdir, tiny_config(mirror), "--cores", cores,
                                       env={"STRATBENCH_JOBSERVER": server})
                assert result.returncode == 0, result.stderr[-4000:]
            (folder / "finished").write_text("")
    return runs


@pytest.fixture(scope="session")
def finished_study(finished_runs) -> Path:
    """The working folder of one finished tiny study (results/tiny/…)."""
    return finished_runs[0]
