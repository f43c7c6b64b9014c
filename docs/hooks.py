"""MkDocs hooks: the site's title carries the package's version, read from the source (the one
``stratbench --version`` prints), so the docs cannot show another; Markdown included from outside ``docs/``
(``config/README.md`` into ``config.md``) links to the site's pages as ``../docs/<page>``, which is right where
GitHub shows the file and is rewritten to ``<page>`` on the site."""

import re
from pathlib import Path

INIT = Path(__file__).resolve().parents[1] / "src" / "stratbench" / "__init__.py"


def on_config(config, **kwargs):
    version = re.search(r'^__version__ = "([^"]+)"', INIT.read_text(encoding="utf-8"), re.M).group(1)
    config["site_name"] = f"stratbench {version}"
    config.setdefault("extra", {})["version"] = version
    return config



SNIPPET = re.compile(r'^--8<-- "(?!docs/)([^"]+)"\s*$', re.M)  # a whole file included from outside docs/


def on_page_markdown(markdown, page, **kwargs):
    """Include each file from outside ``docs/`` here (before pymdownx.snippets would), its ``../docs/<page>`` links
    made the site's, so that MkDocs checks them as links of this page."""
    root = INIT.parents[2]
    prefix = "../" * page.file.src_uri.count("/")  # a page at docs/ root reaches docs/<page> as <page>

    def include(match):
        return (root / match.group(1)).read_text(encoding="utf-8").replace("](../docs/", "](" + prefix)

    return SNIPPET.sub(include, markdown)
