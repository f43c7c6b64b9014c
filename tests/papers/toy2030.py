"""A toy fourth paper, declared as a paper module of stratbench.papers would be, but outside the package:
its published CSV beside it, a criterion, a comparison with one judging rule of ``papers._paper``, a
cause, and the one table it prints. Tests register it (``papers.get("toy2030.PAPER")``), and a study
reproduces it by dotted path (``import_paths: [tests/papers]``, ``reproduces: toy2030.PAPER``)."""

from pathlib import Path

import pandas as pd

from stratbench.papers import Cause, Paper
from stratbench.papers._paper import rows, within_repeats
from stratbench.tables.format import Cell, PaperTable


class Toy2030(Paper):
    name = "toy2030"
    citation = "A. Toy. Toy splits. 2030."
    tables = {"table": ("toy2030_table.csv", {"LD": str})}
    criteria = {"Toy Table": "within 2 × our std plus half the last digit"}
    prints = ("toy2030_table",)
    fold_quality_table = "toy2030_table"
    folder = Path(__file__).parent
    causes = (Cause("toy-yeast", lambda r: r["dataset"] == "yeast", "a toy reason"),)

    def compare(self, study):
        """Our LD beside the printed one, within 2 × our std over the repeats plus half the last digit."""
        published_rows = self.published()["table"]
        ours = study.fold_quality.set_index(["dataset", "stratifier", "measure"])
        out = []
        for _, row in published_rows.iterrows():
            key = (row["dataset"], row["stratification"], "LD")
            if key in ours.index:
                agrees, _ = within_repeats(ours.loc[key, "mean"], ours.loc[key, "std"], int(ours.loc[key, "repeats"]), row["LD"])
                out.append(dict(dataset=key[0], stratifier=key[1], measure="LD", ours=ours.loc[key, "mean"],
                                published=float(row["LD"]), agrees=agrees))
        return rows(table="Toy Table 1", **pd.DataFrame(out, columns=["dataset", "stratifier", "measure", "ours",
                                                                       "published", "agrees"]))

    def layouts(self, inputs, order=None):
        """Its table as it prints it: our mean LD per dataset and stratifier."""
        fq = inputs["fold_quality"]
        ld = fq[fq["measure"] == "LD"]
        table = PaperTable("toy2030_table", "Toy Table 1", ["dataset", "stratifier"], ["LD"], data=ld)
        table.blocks.append([((d, s), [Cell(f"{v:.4f}")]) for d, s, v in zip(ld["dataset"], ld["stratifier"], ld["mean"])])
        return [table]


PAPER = Toy2030()
