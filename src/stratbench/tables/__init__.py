"""Tables, one module each, imported where used:

- :mod:`stratbench.tables.summary`: mean ± std of the scores and fold-quality measures over folds and repeats;
- :mod:`stratbench.tables.format`: a table as a paper prints it (:class:`~stratbench.tables.format.PaperTable`:
  CSV, Markdown, LaTeX booktabs, HTML; best value bold, lowest std underlined);
- :mod:`stratbench.tables.ranks`: the average-rank and Friedman/Nemenyi tables every study prints;
- :mod:`stratbench.tables.documents`: tables as one LaTeX document or one HTML page.

Each reproduced paper's own layouts live with the paper (:mod:`stratbench.papers`).
"""
