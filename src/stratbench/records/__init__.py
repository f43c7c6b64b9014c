"""A run's records: what produced a study's results and its manifest (:mod:`~stratbench.records.provenance`),
the versions of the software behind a method (:mod:`~stratbench.records.versions`), and a finished study as one
archive to deposit (:mod:`~stratbench.records.bundle`)."""
