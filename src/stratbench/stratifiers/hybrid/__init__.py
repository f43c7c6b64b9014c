"""The hybrid stratifier (``hybrid``): the stratifier itself (:mod:`.stratifier`), the group search it
runs on grouped data (:mod:`.group_search`) and the LD polish it ends with (:mod:`.ld_polish`)."""

from stratbench.stratifiers.hybrid.stratifier import HybridStratification

__all__ = ["HybridStratification"]
