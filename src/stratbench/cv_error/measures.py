"""The six measures of the study on one test part, and where each is undefined.

Y is the truth (n × q, 0/1), S the scores, H = [S ≥ 0.5] the predicted labels.

- hamming_loss, subset_accuracy, ranking_loss: as in :mod:`stratbench.measures.classification`
  (MULAN's conventions); always defined.
- micro_f1 = 2 ΣTP / (2 ΣTP + ΣFP + ΣFN) over all labels; undefined (NaN) when the part has no true
  and no predicted label at all.
- macro_f1 = the mean over labels of F1_ℓ = 2TP_ℓ / (2TP_ℓ + FP_ℓ + FN_ℓ), over the labels where it is
  defined: a label with no true and no predicted positive in the part is 0/0 and left out (scikit-learn
  would count it as 0 or 1 by ``zero_division``, which moves the estimate by a choice, not by data).
- macro_auc = the mean over labels of the ROC AUC of S_ℓ against Y_ℓ (tied scores count one half),
  over the labels with both a positive and a negative example in the part.

``undefined`` is the share of labels (of a macro measure) left out in the part; 1 when the whole
measure is NaN. A macro measure can be asked over some labels only (the study's one label set of a sample,
:func:`stratbench.cv_error.run.label_set`); with none of them it is NaN.
"""

from __future__ import annotations

import numpy as np

from stratbench.measures.classification import hamming_loss, label_auc, label_f1, ranking_loss, subset_accuracy
from stratbench.measures.names import LOWER_IS_BETTER as SCORE_LOWER_IS_BETTER

MEASURES = ["macro_f1", "macro_auc", "micro_f1", "hamming_loss", "subset_accuracy", "ranking_loss"]
MACRO = ("macro_f1", "macro_auc")  # the measures averaged over labels (over a sample's label set in the study)
# the package's table (stratbench.measures.names) says which are lower-is-better; the F1s and AUC are not in it
LOWER_IS_BETTER = {m for m in MEASURES if SCORE_LOWER_IS_BETTER.get(m, False)}

__all__ = ["LOWER_IS_BETTER", "MACRO", "MEASURES", "label_auc", "label_f1", "part_measures"]


def _mean_defined(values: np.ndarray) -> tuple[float, float]:
    defined = ~np.isnan(values)
    share_undefined = 1.0 - defined.mean() if values.size else 1.0
    return (float(values[defined].mean()) if defined.any() else float("nan")), float(share_undefined)


def part_measures(Y, S, labels=None) -> dict[str, tuple[float, float]]:
    """measure → (value, share undefined) on one test part; the macro measures over the columns ``labels`` (all
    where None), the others over every label."""
    Y = np.asarray(Y).astype(bool)
    S = np.asarray(S, dtype=np.float64)
    H = S >= 0.5
    macro = slice(None) if labels is None else labels
    tp, counted = (Y & H).sum(), Y.sum() + H.sum()
    micro = 2.0 * tp / counted if counted else float("nan")
    return {
        "macro_f1": _mean_defined(label_f1(Y[:, macro], H[:, macro])),
        "macro_auc": _mean_defined(label_auc(Y[:, macro], S[:, macro])),
        "micro_f1": (float(micro), float(counted == 0)),
        "hamming_loss": (hamming_loss(Y, H), 0.0),
        "subset_accuracy": (subset_accuracy(Y, H), 0.0),
        "ranking_loss": (ranking_loss(Y, S), 0.0),
    }
