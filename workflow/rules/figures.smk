# A kind of figure drawn per classifier is one job that draws every classifier's in turn: one start-up
# (about 1 s of imports) for under a second of drawing each. They read the same tables, so they were
# never made apart anyway. Fold quality's rank figures are a job of their own: they do not wait for the
# classifiers.

# The figures drawn per classifier, one rule each, made from this table: the rule, the recipe it draws
# (stratbench.study.figures; its report caption workflow/report/<recipe>.rst), the tables it reads, the
# classifiers it draws, its report category and label, and whether the report files it under the classifier.
CLASSIFIER_FIGURES = (
    ("plot_std_by_stratifier", "std_by_stratifier", ["summary.csv"], EVALUATED, "Evaluation", "std over folds", True),
    (
        "plot_fold_distribution",
        "fold_distribution",
        ["scores.csv"],
        EVALUATED,
        "Evaluation",
        "values over folds",
        True,
    ),
    (
        "plot_rank_bars",
        "rank_bars",
        ["average_ranks.csv"],
        RANKED_CLASSIFIERS,
        "Ranks and tests",
        "average ranks",
        False,
    ),
    (
        "plot_cd_diagrams",
        "critical_difference",
        ["average_ranks.csv", "friedman_nemenyi.csv"],
        RANKED_CLASSIFIERS,
        "Ranks and tests",
        "critical differences",
        False,
    ),
)

for plot, recipe, tables, subjects, category, label, under_classifier in CLASSIFIER_FIGURES:
    if not subjects:
        continue

    rule:
        name:
            plot
        input:
            *(f"{study.results}/tables/{table}" for table in tables),
            code=code("figures.py", "study/figures.py"),
        output:
            *subject_figures(
                recipe,
                subjects,
                caption=f"../report/{recipe}.rst",
                category=category,
                label=label,
                under_classifier=under_classifier,
            ),
        log:
            f"logs/{study.name}/{plot}.log",
        benchmark:
            f"{study.results}/benchmarks/{plot}.tsv"
        conda:
            ENV
        resources:
            **asks(plot),
        params:
            style=FIGURE_STYLE,
            drawn=[(recipe, c) for c in subjects],
        script:
            "../scripts/plot_figure.py"


rule plot_fold_quality_ranks:
    input:
        ranks=f"{study.results}/tables/fold_quality_ranks.csv",
        tests=f"{study.results}/tables/fold_quality_friedman_nemenyi.csv",
        code=code("figures.py", "study/figures.py"),
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
        code=code("figures.py", "study/figures.py"),
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
        code=code("figures.py", "study/figures.py"),
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
