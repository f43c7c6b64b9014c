"""The link check of CI: every relative link and image of README.md, config/README.md and docs/**/*.md (the
gallery's generated pages aside) names a file that exists, and every #anchor a heading of that file, slugged as
MkDocs' toc extension slugs it. Links to other sites are not fetched (CI has no network beyond the registries).

    python .ci/check_links.py [ROOT]      # exit 1 and one line per broken link
"""
import re
import sys
from pathlib import Path

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCED = re.compile(r"```.*?```", re.S)
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
SNIPPET = re.compile(r'^--8<-- "([^"]+)"\s*$', re.M)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def slug(heading: str) -> str:
    """Python-Markdown's toc slug: markup dropped, lower case, punctuation removed, spaces as hyphens."""
    text = re.sub(r"`|\*\*|\*|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading)
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    text = FENCED.sub("", path.read_text(encoding="utf-8"))  # a heading's inline code is part of its slug
    return {slug(h) for h in HEADING.findall(text)} | set(re.findall(r'id="([^"]+)"', text))


def pages(root: Path) -> list[Path]:
    """The pages checked; docs/published/ holds snippets, checked inside the pages that include them."""
    docs = [p for p in sorted((root / "docs").rglob("*.md"))
            if not {"generated", "published"} & set(p.relative_to(root).parts)]
    return [root / "README.md", root / "config" / "README.md", *docs]


def broken(root: Path) -> list[str]:
    problems = []
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        if page.parent == root / "docs":  # snippets (pymdownx.snippets, docs/hooks.py) are read as this page's text
            text = SNIPPET.sub(lambda m: (root / m.group(1)).read_text(encoding="utf-8").replace("](../docs/", "]("), text)
        text = CODE.sub("", text)
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                continue  # another site, mail: not fetched
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(root)}: ({target})"
            if path and "generated" in Path(path).parts:
                continue  # the gallery's pages exist once mkdocs has built them
            if not file.exists():
                problems.append(f"{where}: no file {path}")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                problems.append(f"{where}: no heading #{anchor} in {path or page.name}")
    return problems


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
    problems = broken(root)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"links: {len(problems)} broken in {len(pages(root))} pages", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
