"""The front door: README and docs numbers that come from a dry run or a registry stay true,
the lists that name methods follow the registries, the release is licensed and citable with one version,
the docs' figures are at print resolution, and the workflow runs as a Snakemake module in another folder."""
import ast
import importlib
import json
import re
import struct
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from conftest import REPO, tiny_config

import stratbench
from stratbench import classifiers, stratifiers

DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
DOCS = [p for p in DOCS if "generated" not in p.parts]
HISTORY = re.compile(r"before this issue|since fixed|later sessions?|\(was [^)]*\)|this session|issue \d+", re.I)


@pytest.mark.workflow
def test_the_job_counts_in_the_readme_are_todays_dry_runs():
    from stratbench.cost.jobs import workflow_plan

    rows = re.findall(r"^\|[^|\n]*\| `(config/[\w.-]+\.yaml)` \| (\d+) \|", (REPO / "README.md").read_text(), re.M)
    assert len(rows) >= 6, rows  # the three papers and the three other studies

    def total(path: str) -> int:
        return sum(workflow_plan(yaml.safe_load((REPO / path).read_text()), REPO).values())

    with ThreadPoolExecutor(max_workers=2) as pool:
        found = dict(zip([p for p, _ in rows], pool.map(total, [p for p, _ in rows])))
    assert {p: int(n) for p, n in rows} == found


def test_the_lists_of_methods_follow_the_registries():
    config = (REPO / "config" / "config.yaml").read_text()
    listed = re.search(r"stratifiers: +# registered \(python -m stratbench list\):((?:.|\n)*?)\n  random", config).group(1)
    assert sorted(listed.replace("#", " ").split()) == sorted(stratifiers.names())
    assert sorted(re.search(r"classifiers: +# registered: (.*)", config).group(1).split()) == sorted(classifiers.names())
    table = (REPO / "config" / "README.md").read_text()
    in_table = set(re.findall(r"^\| `([\w]+)`(?:, `([\w]+)`)? \|", table, re.M))
    names = {n for pair in in_table for n in pair if n}
    assert set(stratifiers.names()) <= names, set(stratifiers.names()) - names
    assert set(classifiers.names()) <= names, set(classifiers.names()) - names


def test_the_package_docstring_names_modules_that_exist():
    named = re.findall(r":mod:`(stratbench[\w.]*)`", stratbench.__doc__)
    assert len(named) >= 10
    for module in named:
        importlib.import_module(module)


def test_one_version_everywhere_and_a_valid_citation():
    import jsonschema

    version = stratbench.__version__
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == version
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert citation["version"] == version
    schema = json.loads((REPO / "tests" / "data" / "citation-cff-1.2.0.schema.json").read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    assert not list(validator.iter_errors(citation))
    broken = {k: v for k, v in citation.items() if k != "authors"}
    assert list(validator.iter_errors(broken))  # the schema does reject a citation without authors
    assert re.search(rf"^## \[{re.escape(version)}\]", (REPO / "CHANGELOG.md").read_text(), re.M)
    assert (REPO / "LICENSE").read_text().startswith("MIT License")
    # the docs site shows the same version (docs/hooks.py sets its title)
    sys.path.insert(0, str(REPO / "docs"))
    try:
        hooks = importlib.import_module("hooks")
    finally:
        sys.path.pop(0)
    assert hooks.on_config({"site_name": "x"})["site_name"] == f"stratbench {version}"


def test_the_front_door_tells_no_history_and_assumes_no_shared_folder():
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        assert not HISTORY.search(text), (path.name, HISTORY.search(text).group(0))
    for path in [REPO / "README.md", *sorted((REPO / "config").glob("*")), *sorted((REPO / "workflow").rglob("*.smk")),
                 *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "docs" / "papers").glob("*.md")),
                 *sorted((REPO / "src" / "stratbench" / "data").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/reference" not in text, path
    # nor do the configs, benchmarks, workflow, code and tests point at the issues they were made in
    for path in [*sorted((REPO / "config").glob("*.yaml")), *sorted((REPO / "benchmarks").glob("*")),
                 *sorted((REPO / "workflow").rglob("*.smk")), *sorted((REPO / "workflow").rglob("*.py")),
                 *sorted((REPO / "src").rglob("*.py")), *sorted((REPO / "tests").glob("*.py")),
                 *sorted((REPO / "src" / "stratbench" / "data").rglob("*.md"))]:
        if path.is_file() and path.name != "test_front_door.py":
            found = re.search(r"\(issues? \d+[^)]*\)|\bissue \d+\b", path.read_text(encoding="utf-8"))
            assert not found, (str(path.relative_to(REPO)), found.group(0))
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 180
    assert "snakemake --cores 8" in readme and "python -m pytest -q -p no:cacheprovider -n auto --dist loadgroup" in readme


def _png_dpi(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    width = struct.unpack(">I", data[16:20])[0]
    i = data.find(b"pHYs")
    x, _, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    return width, round(x * 0.0254) if unit == 1 else 0


def test_the_docs_figures_are_at_print_resolution():
    figures = sorted((REPO / "docs").rglob("*.png"))
    figures = [f for f in figures if "generated" not in f.parts]
    assert figures
    for f in figures:
        width, dpi = _png_dpi(f)
        assert dpi >= 300 and width >= 1000, (f.name, width, dpi)


def test_the_catalog_file_gives_the_standardized_usage():
    catalog = yaml.safe_load((REPO / ".snakemake-workflow-catalog.yml").read_text())
    usage = catalog["usage"]
    assert usage["software-stack-deployment"]["conda"] is True and usage["report"] is True
    assert "--configfile" in usage["mandatory-flags"]["flags"]
    assert (REPO / "workflow" / "Snakefile").is_file() and (REPO / "config" / "README.md").is_file()
    env = yaml.safe_load((REPO / "workflow" / "envs" / "stratbench.yaml").read_text())
    assert any("python" in str(d) for d in env["dependencies"])


def test_the_mkdocs_nav_names_every_page():
    config = (REPO / "mkdocs.yml").read_text()
    nav = set(re.findall(r":\s+([\w/.-]+\.md)\s*$", config, re.M))
    nav |= set(re.findall(r"^not_in_nav:[^\n]*\n((?:  [^\n]+\n)+)", config, re.M)[0].split())  # linked, not listed
    pages = {str(p.relative_to(REPO / "docs")) for p in (REPO / "docs").rglob("*.md")
             if "generated" not in p.parts and "published" not in p.parts}
    assert pages == nav, pages ^ nav


@pytest.mark.workflow
def test_the_workflow_runs_as_a_module_of_another_project(tmp_path, mirror):
    """A user's own Snakefile in another folder uses stratbench's workflow as a module with the tiny config."""
    import subprocess

    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(tiny_config(mirror), sort_keys=False))
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "Snakefile").write_text(
        'configfile: "config/config.yaml"\n\n\n'
        f'module stratbench:\n    snakefile:\n        "{REPO / "workflow" / "Snakefile"}"\n    config:\n        config\n\n\n'
        "use rule * from stratbench as stratbench_*\n")
    result = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2"], cwd=tmp_path, capture_output=True,
                            text=True, env={**__import__("os").environ, "STRATBENCH_CACHE": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr[-3000:]
    tables = tmp_path / "results" / "tiny" / "tables"
    assert (tables / "summary.md").is_file() and (tmp_path / "results" / "tiny" / "report" / "reproduction.md").is_file()
    assert (tmp_path / "logs").is_dir()


def test_the_gallery_examples_are_scripts_with_a_title():
    for path in sorted((REPO / "examples" / "gallery").glob("plot_*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and doc.lstrip().startswith("# "), path.name


def test_every_relative_link_and_anchor_of_the_readme_and_the_docs_resolves(tmp_path):
    """CI's link check (.ci/check_links.py) finds nothing today, and finds a planted broken file and anchor."""
    import importlib.util
    import shutil

    spec = importlib.util.spec_from_file_location("check_links", REPO / ".ci" / "check_links.py")
    check_links = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_links)
    assert check_links.broken(REPO) == []
    copy = tmp_path / "repo"
    shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(".git", ".venv*", "results", "resources", "logs", "site",
                                                              ".snakemake", "generated", "build", "__pycache__", "*.png"))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (copy / "README.md").write_text(readme + "\n[a](docs/nowhere.md) [b](docs/user-guide.md#no-such-heading)\n",
                                    encoding="utf-8")
    found = check_links.broken(copy)
    assert any("no file docs/nowhere.md" in line for line in found)
    assert any("no heading #no-such-heading" in line for line in found)


def _redraw_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("redraw_figures", REPO / "docs" / "redraw_figures.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_committed_figure_is_what_the_code_draws_from_its_committed_tables(tmp_path, monkeypatch):
    """docs/redraw_figures.py: each figure the README and the docs show is redrawn byte for byte from the tables
    committed under docs/published/ (or is named unpublished with a reason, only while its tables are missing); a
    changed table makes its figure stale."""
    redraw = _redraw_module()
    assert redraw.stale() == []
    listed = {f.png for f in redraw.FIGURES}
    shown = {str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*.png") if "generated" not in p.parts}
    for png in shown - listed:
        assert any(png.startswith(prefix) for prefix in redraw.UNPUBLISHED), f"{png}: drawn from no committed table"
    for prefix in redraw.UNPUBLISHED:
        assert not list((REPO / prefix).glob("*.csv")), f"{prefix}: its tables are published: list its figures"
    # a page that shows a figure says in its caption what the figure leaves out (the figure's own caption notes)
    from stratbench.figures import caption_notes

    pages = [REPO / "README.md", *(p for p in (REPO / "docs").rglob("*.md") if "published" not in p.parts)]
    for figure in redraw.FIGURES:
        notes = " ".join(caption_notes(redraw.draw(figure)))
        left_out = re.search(r"Not shown, to fit a page \([^)]*\): (.+)\.", notes)
        for page in pages:
            text = page.read_text(encoding="utf-8")
            target = figure.png if page.name == "README.md" else figure.png.removeprefix("docs/")
            for match in re.finditer(rf"!\[[^\]]*\]\((?:\.\./)*{re.escape(target)}\)", text):
                caption = text[match.end():match.end() + 700]
                if left_out:
                    assert "not shown" in caption.lower(), (page.name, figure.png)
                    for name in left_out.group(1).split(", "):
                        assert name in caption, (page.name, figure.png, name)
    # a planted defect: one number of a committed table changed
    import shutil

    published = tmp_path / "published"
    shutil.copytree(REPO / "docs" / "published", published)
    table = published / "extreme_scale" / "extreme.csv"
    table.write_text(table.read_text().replace("labels,100,IS (ours),0.15", "labels,100,IS (ours),0.30"))
    monkeypatch.setattr(redraw, "PUBLISHED", published)
    assert redraw.stale() == ["docs/figures/extreme_labels.png"]
