# A kind of figure drawn per classifier is one job that draws every classifier's in turn: one start-up
# (about 1 s of imports) for under a second of drawing each. They read the same tables, so they were
# never made apart anyway. Fold quality's rank figures are a job of their own: they do not wait for the
# classifiers.

if EVALUATED:

    rule plot_std_by_stratifier:
        input:
            summary=f"{study.results}/tables/summary.csv",
            code=code("figures.py", "study_figures.py"),
        output:
            *subject_figures(
                "std_by_stratifier",
                EVALUATED,
                caption="../report/std_by_stratifier.rst",
                category="Evaluation",
                label="std over folds",
                under_classifier=True,
            ),
        log:
            f"logs/{study.name}/plot_std_by_stratifier.log",
        benchmark:
            f"{study.results}/benchmarks/plot_std_by_stratifier.tsv"
        conda:
            ENV
        resources:
            **asks("plot_std_by_stratifier"),
        params:
            style=FIGURE_STYLE,
            drawn=[("std_by_stratifier", c) for c in EVALUATED],
        script:
            "../scripts/plot_figure.py"

    rule plot_fold_distribution:
        input:
            scores=f"{study.results}/tables/scores.csv",
            code=code("figures.py", "study_figures.py"),
        output:
            *subject_figures(
                "fold_distribution",
                EVALUATED,
                caption="../report/fold_distribution.rst",
                category="Evaluation",
                label="values over folds",
                under_classifier=True,
            ),
        log:
            f"logs/{study.name}/plot_fold_distribution.log",
        benchmark:
            f"{study.results}/benchmarks/plot_fold_distribution.tsv"
        conda:
            ENV
        resources:
            **asks("plot_fold_distribution"),
        params:
            style=FIGURE_STYLE,
            drawn=[("fold_distribution", c) for c in EVALUATED],
        script:
            "../scripts/plot_figure.py"


if RANKED_CLASSIFIERS:

    rule plot_rank_bars:
        input:
            ranks=f"{study.results}/tables/average_ranks.csv",
            code=code("figures.py", "study_figures.py"),
        output:
            *subject_figures(
                "rank_bars",
                RANKED_CLASSIFIERS,
                caption="../report/rank_bars.rst",
                category="Ranks and tests",
                label="average ranks",
            ),
        log:
            f"logs/{study.name}/plot_rank_bars.log",
        benchmark:
            f"{study.results}/benchmarks/plot_rank_bars.tsv"
        conda:
            ENV
        resources:
            **asks("plot_rank_bars"),
        params:
            style=FIGURE_STYLE,
            drawn=[("rank_bars", c) for c in RANKED_CLASSIFIERS],
        script:
            "../scripts/plot_figure.py"

    rule plot_cd_diagrams:
        input:
            ranks=f"{study.results}/tables/average_ranks.csv",
            tests=f"{study.results}/tables/friedman_nemenyi.csv",
            code=code("figures.py", "study_figures.py"),
        output:
            *subject_figures(
                "critical_difference",
                RANKED_CLASSIFIERS,
                caption="../report/critical_difference.rst",
                category="Ranks and tests",
                label="critical differences",
            ),
        log:
            f"logs/{study.name}/plot_cd_diagrams.log",
        benchmark:
            f"{study.results}/benchmarks/plot_cd_diagrams.tsv"
        conda:
            ENV
        resources:
            **asks("plot_cd_diagrams"),
        params:
            style=FIGURE_STYLE,
            drawn=[("critical_difference", c) for c in RANKED_CLASSIFIERS],
        script:
            "../scripts/plot_figure.py"


rule plot_fold_quality_ranks:
    input:
        ranks=f"{study.results}/tables/fold_quality_ranks.csv",
        tests=f"{study.results}/tables/fold_quality_friedman_nemenyi.csv",
        code=code("figures.py", "study_figures.py"),
    output:
        *subject_figures(
            "rank_bars",
            ["fold_quality"],
            caption="../report/rank_bars.rst",
            category="Ranks and tests",
            label="average ranks",
        ),
        *subject_figures(
            "critical_difference",
            ["fold_quality"],
            caption="../report/critical_difference.rst",
            category="Ranks and tests",
            label="critical differences",
        ),
    log:
        f"logs/{study.name}/plot_fold_quality_ranks.log",
    benchmark:
        f"{study.results}/benchmarks/plot_fold_quality_ranks.tsv"
    conda:
        ENV
    resources:
        **asks("plot_fold_quality_ranks"),
    params:
        style=FIGURE_STYLE,
        drawn=[("rank_bars", "fold_quality"), ("critical_difference", "fold_quality")],
    script:
        "../scripts/plot_figure.py"


rule plot_label_shares:
    input:
        labels=lambda w: study.dataset_file(w.dataset),
        folds=lambda w: [f"{study.results}/folds/{w.dataset}/{s}/rep0.npz" for s in study.stratifiers],
        code=code("figures.py", "study_figures.py"),
    output:
        png=report(
            f"{study.results}/figures/label_shares_{{dataset}}.png",
            caption="../report/label_shares.rst",
            category="Fold quality",
            labels={"figure": "label shares per fold", "dataset": "{dataset}"},
        ),
        pdf=f"{study.results}/figures/label_shares_{{dataset}}.pdf",
    log:
        f"logs/{study.name}/plot_label_shares/{{dataset}}.log",
    benchmark:
        f"{study.results}/benchmarks/plot_label_shares/{{dataset}}.tsv"
    conda:
        ENV
    resources:
        **asks("plot_label_shares"),
    params:
        style=FIGURE_STYLE,
        stratifiers=list(study.stratifiers),
        drawn=lambda w: [("label_shares", w.dataset)],
    script:
        "../scripts/plot_figure.py"


rule plot_runtime:
    input:
        runtime=f"{study.results}/tables/stratifier_runtime.csv",
        code=code("figures.py", "study_figures.py"),
    output:
        png=report(
            f"{study.results}/figures/stratifier_runtime.png",
            caption="../report/stratifier_runtime.rst",
            category="Fold quality",
            labels={"figure": "stratifier runtime"},
        ),
        pdf=f"{study.results}/figures/stratifier_runtime.pdf",
    log:
        f"logs/{study.name}/plot_runtime.log",
    benchmark:
        f"{study.results}/benchmarks/plot_runtime.tsv"
    conda:
        ENV
    resources:
        **asks("plot_runtime"),
    params:
        style=FIGURE_STYLE,
        drawn=[("runtime", "")],
    script:
        "../scripts/plot_figure.py"
