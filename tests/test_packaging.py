"""The conda environments mirror pyproject.toml: a dependency missing there breaks `--sdm conda` runs."""
import re
import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0].lower()


def _conda_names(path: Path) -> set[str]:
    deps = yaml.safe_load(path.read_text())["dependencies"]
    return {_name(d) for d in deps if isinstance(d, str)}


def test_conda_environments_list_every_runtime_dependency():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    project = pyproject["project"]
    light = {_name(d) for d in project["dependencies"]}  # `pip install stratbench`: the splitters and MULAN's data
    assert light == {"numpy", "scipy", "scikit-learn", "pyyaml"}  # numba builds the wheel's kernels, not run them
    assert {"numba", "numpy"} <= {_name(d) for d in pyproject["build-system"]["requires"]}
    runtime = light | {_name(d) for d in project["optional-dependencies"]["workflow"]}
    assert "networkx" in runtime  # label-space partitioning and network stability import it
    for env in (REPO / "environment.yml", REPO / "workflow" / "envs" / "stratbench.yaml"):
        missing = runtime - _conda_names(env) - {"snakemake"}  # rules run under snakemake already
        assert not missing, f"{env.name} lacks {sorted(missing)}"


def test_every_shipped_study_config_is_valid():
    """Every config a user is told to run (config/ and benchmarks/) passes the schema and the checks
    made before any job: a renamed method or key would otherwise break a paper's regeneration."""
    from stratbench.study import Study

    paths = sorted([*(REPO / "config").glob("*.yaml"), *(REPO / "benchmarks").glob("*.yaml")])
    assert {"sechidis2011.yaml", "szymanski2017.yaml", "tiittanen2021.yaml", "stratbench2026.yaml",
            "sechidis2011_hybrid.yaml", "sechidis2011_fold_quality.yaml"} <= {p.name for p in paths}
    for path in paths:
        config = Study.load(path).config
        assert config["stratifiers"], path
