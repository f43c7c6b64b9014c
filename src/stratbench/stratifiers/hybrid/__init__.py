"""The hybrid stratifier (``hybrid``): the stratifier itself (:mod:`.stratifier`), the group search it
runs on grouped data (:mod:`.group_search`) and the LD polish it ends with (:mod:`.ld_polish`)."""

from stratbench._warn import renamed
from stratbench.stratifiers.hybrid.stratifier import HybridStratifier

__all__ = ["HybridStratifier"]

__getattr__ = renamed(__name__, {"HybridStratification": "HybridStratifier"})  # the old name, for one release
