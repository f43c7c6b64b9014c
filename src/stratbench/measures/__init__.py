"""Measures, one module each, imported where used (nothing is imported here, so a job that needs one
measure does not load the others' dependencies):

- :mod:`stratbench.measures.fold_quality`: how well folds keep a dataset's label distribution (ED, LD, FZ,
  FLZ, LPD, FLPZ, rLD, DCP, …; Sechidis et al. 2011, Szymański & Kajdanowicz 2017, Tiittanen et al. 2021);
- :mod:`stratbench.measures.classification`: the evaluation measures of a classifier's predictions on a test
  fold (Hamming loss, subset accuracy, micro/macro F1 and AUC, ranking measures);
- :mod:`stratbench.measures.names`: the one table of every measure's name, label and direction.
"""
