# The "does it matter" study (config/cv_error.yaml; docs/ALGORITHMS.md §12): the truths of every development
# sample per (dataset, m), one job per (dataset, m, stratifier) for every sample × k × CV repeat's estimates,
# then the tables and their paired tests, three figures and the generated "Does it matter?" section.


rule cv_truth:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=code("cv_error/run.py", "cv_error/learners.py", "cv_error/measures.py", "cv_error/theory.py", "seeds.py"),
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
        learners=lambda w: cv_truth_learners(w.dataset, int(w.m)),
        ks=study.cv_error.get("n_splits"),
        truth_size=study.cv_error.get("truth_size"),
        seed=study.seed,
    script:
        "../scripts/cv_truth.py"


rule cv_estimates:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=lambda w: method_sources("stratifier", w.stratifier)
        + code("cv_error/run.py", "cv_error/learners.py", "cv_error/measures.py", "cv_error/theory.py", "seeds.py"),
    output:
        **{part: f"{study.results}/cv_error/{{dataset}}/m{{m}}/{part}/{{stratifier}}.csv" for part in CV_PARTS},
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
        learners=lambda w: cv_learners(w.dataset, int(w.m)),
        truth_size=study.cv_error.get("truth_size"),
        stream=lambda w: PLAN.streams()[w.stratifier],
        seed=study.seed,
    script:
        "../scripts/cv_estimates.py"


rule cv_error_tables:
    input:
        **{part: [f for s in study.stratifiers for f in cv_files(f"{part}/{s}.csv")] for part in CV_PARTS},
        truth=cv_files("truth.csv"),
        code=code("cv_error/summary.py", "cv_error/verdict.py"),
    output:
        **{f"input_{name}": f"{study.results}/tables/cv_error_inputs/{name}.csv.gz" for name in CV_INPUTS},
        errors=f"{study.results}/tables/cv_error.csv",
        paired=f"{study.results}/tables/cv_error_paired.csv",
        estimators=f"{study.results}/tables/cv_error_estimators.csv",
        choices=f"{study.results}/tables/cv_error_choice.csv",
        theory=f"{study.results}/tables/cv_error_theory.csv",
        controls=f"{study.results}/tables/cv_error_controls.csv",
        datasets=f"{study.results}/tables/cv_error_datasets.csv",
        headline=f"{study.results}/tables/cv_error_headline.csv",
        summary=f"{study.results}/tables/cv_error_summary.csv",
    log:
        f"logs/{study.name}/cv_error_tables.log",
    conda:
        ENV
    resources:
        **asks("cv_error_tables"),
    params:
        stratifiers=list(study.stratifiers),
        baseline=study.cv_error.get("baseline"),
        controls=study.cv_error.get("controls", []),
        alpha=study.alpha,
        seed=study.seed,
    script:
        "../scripts/cv_error_tables.py"


rule plot_cv_error:
    input:
        errors=f"{study.results}/tables/cv_error.csv",
        choices=f"{study.results}/tables/cv_error_choice.csv",
        theory=f"{study.results}/tables/cv_error_theory.csv",
        estimators=f"{study.results}/tables/cv_error_estimators.csv",
        code=code("cv_error/figures.py", "cv_error/verdict.py", "figures.py", "study/figures.py"),
    output:
        *[
            path
            for name in PLAN.figure_stems()
            for path in (
                report(
                    f"{study.results}/figures/{name}.png",
                    caption="../report/cv_error.rst",
                    category="Does it matter?",
                ),
                f"{study.results}/figures/{name}.pdf",
            )
        ],
    log:
        f"logs/{study.name}/plot_cv_error.log",
    conda:
        ENV
    resources:
        **asks("plot_cv_error"),
    params:
        style=FIGURE_STYLE,
        baseline=study.cv_error.get("baseline"),
        drawn=PLAN.drawn,
    script:
        "../scripts/plot_figure.py"


rule cv_error_verdict:
    input:
        summary=f"{study.results}/tables/cv_error_summary.csv",
        headline=f"{study.results}/tables/cv_error_headline.csv",
        datasets=f"{study.results}/tables/cv_error_datasets.csv",
        controls=f"{study.results}/tables/cv_error_controls.csv",
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
        setup=PLAN.verdict_setup(),
    script:
        "../scripts/cv_error_verdict.py"
