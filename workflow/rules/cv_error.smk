# The "does it matter" study (config/cv_error.yaml; docs/ALGORITHMS.md §12): the truth of every development
# sample per (dataset, m), one job per (dataset, m, stratifier) for every sample × k × CV repeat's estimates,
# then the error tables, the tests, two figures and the generated "Does it matter?" section.


rule cv_truth:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=code("cv_error/run.py", "cv_error/learners.py", "cv_error/measures.py", "seeds.py"),
    output:
        f"{study.results}/cv_error/{{dataset}}/m{{m}}/truth.csv",
    log:
        f"logs/{study.name}/cv_truth/{{dataset}}/m{{m}}.log",
    benchmark:
        f"{study.results}/benchmarks/cv_truth/{{dataset}}/m{{m}}.tsv"
    conda:
        ENV
    resources:
        **asks("cv_truth"),
    params:
        samples=study.cv_error.get("samples"),
        learners=study.cv_error.get("learners"),
        seed=study.seed,
    script:
        "../scripts/cv_truth.py"


rule cv_estimates:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=lambda w: method_sources("stratifier", w.stratifier)
        + code("cv_error/run.py", "cv_error/learners.py", "cv_error/measures.py", "seeds.py"),
    output:
        estimates=f"{study.results}/cv_error/{{dataset}}/m{{m}}/estimates/{{stratifier}}.csv",
        splits=f"{study.results}/cv_error/{{dataset}}/m{{m}}/splits/{{stratifier}}.csv",
    log:
        f"logs/{study.name}/cv_estimates/{{dataset}}/m{{m}}/{{stratifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/cv_estimates/{{dataset}}/m{{m}}/{{stratifier}}.tsv"
    conda:
        ENV
    resources:
        **asks("cv_estimates"),
    params:
        spec=lambda w: study.stratifiers[w.stratifier],
        samples=study.cv_error.get("samples"),
        repeats=len(study.repeats),
        ks=study.cv_error.get("n_splits"),
        learners=study.cv_error.get("learners"),
        seed=study.seed,
    script:
        "../scripts/cv_estimates.py"


rule cv_error_tables:
    input:
        truth=cv_files("truth.csv"),
        estimates=[f for s in study.stratifiers for f in cv_files(f"estimates/{s}.csv")],
        splits=[f for s in study.stratifiers for f in cv_files(f"splits/{s}.csv")],
        code=code("cv_error/summary.py", "stats.py"),
    output:
        errors=f"{study.results}/tables/cv_error.csv",
        choices=f"{study.results}/tables/cv_error_choice.csv",
        ranks=f"{study.results}/tables/cv_error_ranks.csv",
        tests=f"{study.results}/tables/cv_error_friedman_nemenyi.csv",
        pairs=f"{study.results}/tables/cv_error_nemenyi_pairwise.csv",
        paired=f"{study.results}/tables/cv_error_paired.csv",
        md=f"{study.results}/tables/cv_error.md",
    log:
        f"logs/{study.name}/cv_error_tables.log",
    conda:
        ENV
    resources:
        **asks("cv_error_tables"),
    params:
        stratifiers=list(study.stratifiers),
        baseline=study.cv_error.get("baseline"),
        alpha=study.alpha,
    script:
        "../scripts/cv_error_tables.py"


rule plot_cv_error:
    input:
        errors=f"{study.results}/tables/cv_error.csv",
        choices=f"{study.results}/tables/cv_error_choice.csv",
        code=code("cv_error/figures.py", "figures.py"),
    output:
        bias_variance=report(
            f"{study.results}/figures/cv_error_bias_variance.png",
            caption="../report/cv_error.rst",
            category="Does it matter?",
        ),
        bias_variance_pdf=f"{study.results}/figures/cv_error_bias_variance.pdf",
        choice=report(
            f"{study.results}/figures/cv_error_model_choice.png",
            caption="../report/cv_error.rst",
            category="Does it matter?",
        ),
        choice_pdf=f"{study.results}/figures/cv_error_model_choice.pdf",
    log:
        f"logs/{study.name}/plot_cv_error.log",
    conda:
        ENV
    resources:
        **asks("plot_cv_error"),
    params:
        baseline=study.cv_error.get("baseline"),
    script:
        "../scripts/plot_cv_error.py"


rule cv_error_verdict:
    input:
        errors=f"{study.results}/tables/cv_error.csv",
        choices=f"{study.results}/tables/cv_error_choice.csv",
        tests=f"{study.results}/tables/cv_error_friedman_nemenyi.csv",
        paired=f"{study.results}/tables/cv_error_paired.csv",
        overview=f"{study.results}/tables/cv_error.md",
        code=code("cv_error/verdict.py"),
    output:
        f"{study.results}/report/does_it_matter.md",
    log:
        f"logs/{study.name}/cv_error_verdict.log",
    conda:
        ENV
    resources:
        **asks("cv_error_verdict"),
    params:
        baseline=study.cv_error.get("baseline"),
        alpha=study.alpha,
        setup=dict(
            datasets=list(study.datasets),
            sizes=study.cv_sizes,
            samples=study.cv_error.get("samples"),
            repeats=len(study.repeats),
            ks=study.cv_error.get("n_splits"),
            learners=study.cv_error.get("learners"),
        ),
    script:
        "../scripts/cv_error_verdict.py"
