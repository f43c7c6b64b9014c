"""The peers' folds, bit for bit: ports of iterative-stratification 0.1.9 (:mod:`.iterstrat`) and
scikit-multilearn 0.2.0 (:mod:`.skmultilearn`), drawing from the same numpy ``RandomState`` as they do. They
are what ``compat=`` gives in :mod:`stratbench.model_selection`; they are not registered methods."""
