"""The workflow's job side: what every script a rule runs calls first and last (:mod:`~stratbench.jobs.script`),
and the warm process that starts a local run's script jobs by forking (:mod:`~stratbench.jobs.server`)."""
