"""A user's own classifier, in its own file: binary relevance over extremely randomised trees.

Not part of stratbench — an example of adding a method by reusing one: it inherits fit, predict and
predict_scores from binary relevance and only changes the forest every label gets.
"""

from sklearn.ensemble import ExtraTreesClassifier

from stratbench.classifiers.binary_relevance import BinaryRelevance


class ExtraTreesBinaryRelevance(BinaryRelevance):
    """One ``ExtraTreesClassifier`` per label (Geurts et al. 2006) instead of a random forest."""

    def make_forest(self, seed):
        return ExtraTreesClassifier(n_estimators=self.n_estimators, max_features=self.max_features,
                                    n_jobs=self.n_jobs, random_state=int(seed), **self.forest_params)
