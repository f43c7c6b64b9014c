import os
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


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The local MULAN mirror; CI must have it (a skip there would hide the real-data tests)."""
    path = _mirror()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI run without the MULAN mirror: set {MIRROR_ENV}")
        pytest.skip(f"no MULAN mirror ({MIRROR_ENV} unset)")
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
