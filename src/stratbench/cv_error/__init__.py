"""Does stratification make the CV estimate better? The bias, split variance and total error of
multi-label k-fold CV estimates against a held-out truth, and how often CV picks the learner the truth
picks, per stratifier (docs/ALGORITHMS.md §12; ``config/cv_error.yaml``)."""
