"""The group baselines: stratifiers that split grouped data only (``needs_groups``), each a wrapper of a
published group splitter (:mod:`.group_kfold`, :mod:`.stratified_group_kfold`, :mod:`.maestros`) over the
shared base :mod:`._baseline`."""
