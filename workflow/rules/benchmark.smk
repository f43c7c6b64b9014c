# What the benchmark kind's rule files read (stratbench.study.plans.BenchmarkPlan), its first rule file.
EVALUATED = PLAN.evaluated_classifiers()  # the classifiers that run on some dataset
RANKED = PLAN.ranked_subjects()  # fold_quality and classifiers with rank figures: ranks over 2+ datasets
RANKED_CLASSIFIERS = PLAN.ranked_classifiers()
SPLIT_PER_REPEAT = [d for d in study.datasets if PLAN.split_per_repeat(d)]  # a job per repeat: large label matrices
SPLIT_TOGETHER = [d for d in study.datasets if d not in SPLIT_PER_REPEAT]  # every repeat in one job
EVALUATE_PER_REPEAT = [d for d in study.datasets if PLAN.evaluate_per_repeat(d)]  # large forests: a job per repeat
EVALUATE_TOGETHER = [d for d in study.datasets if d not in EVALUATE_PER_REPEAT]  # every repeat in one job
PAPER_TABLES = PLAN.paper_tables()  # as the papers declare them (stratbench.papers): each paper's, then every study's
for subject, n in PLAN.rank_counts().items():
    if subject not in RANKED:
        logger.info(f"{subject}: no rank figures or CD diagrams: ranks over {n} dataset compare nothing")
