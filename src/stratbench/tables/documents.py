"""Tables as documents: a self-contained HTML page (the Snakemake report) and one LaTeX document that
inputs every table of a study."""

from __future__ import annotations

import html

from stratbench.tables.format import PaperTable, latex_escape

_CSS = """body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:1em 0}
caption{text-align:left;font-weight:bold;padding:.4em 0;max-width:60em}
th,td{padding:.2em .7em;text-align:right;white-space:nowrap}.key{text-align:left}
table.report td:last-child{white-space:normal;text-align:left;min-width:16em;max-width:36em}
thead tr{border-top:2px solid #000;border-bottom:1px solid #000}tbody tr:last-child{border-bottom:2px solid #000}
tr.block{border-top:1px solid #000}"""


def html_document(title: str, body: str) -> str:
    """A self-contained HTML page (for the Snakemake report)."""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n{body}\n</body></html>\n")


def html_page(tables: list[PaperTable], title: str) -> str:
    """The tables on one HTML page."""
    return html_document(title, "\n".join(t.html() for t in tables))


def latex_document(names: list[str], title: str) -> str:
    """A LaTeX document that \\input{}s the tables ``names`` (files ``<name>.tex`` beside it)."""
    body = "\n".join(rf"\input{{{n}}}" + "\n\\clearpage" for n in names)
    return (r"""\documentclass[a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{booktabs}
\usepackage[margin=1.5cm]{geometry}
\title{""" + latex_escape(title) + r"""}
\date{}
\begin{document}
\maketitle
""" + body + "\n\\end{document}\n")
