"""The study and its plan: a study's config (:mod:`~stratbench.study.config`: read, validated, checked), the
:class:`Study` built from it once (:mod:`~stratbench.study.core`), what each kind of study makes
(:mod:`~stratbench.study.plans`) and every figure it draws (:mod:`~stratbench.study.figures`)."""

from stratbench.study.core import GENERATED, Study

__all__ = ["GENERATED", "Study"]
