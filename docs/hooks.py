"""MkDocs hook: the site's title carries the package's version, read from the source (the one
``stratbench --version`` prints), so the docs cannot show another."""

import re
from pathlib import Path

INIT = Path(__file__).resolve().parents[1] / "src" / "stratbench" / "__init__.py"


def on_config(config, **kwargs):
    version = re.search(r'^__version__ = "([^"]+)"', INIT.read_text(encoding="utf-8"), re.M).group(1)
    config["site_name"] = f"stratbench {version}"
    config.setdefault("extra", {})["version"] = version
    return config
