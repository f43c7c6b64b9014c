rule plot_std_by_stratifier:
    input:
        summary=f"{study.results}/tables/summary.csv",
        code=code("figures.py", "study_figures.py"),
    output:
        png=report(
            f"{study.results}/figures/std_by_stratifier_{{classifier}}.png",
            caption="../report/std_by_stratifier.rst",
            category="Evaluation",
            subcategory="{classifier}",
            labels={"figure": "std over folds", "classifier": "{classifier}"},
        ),
        pdf=f"{study.results}/figures/std_by_stratifier_{{classifier}}.pdf",
    log:
        f"logs/{study.name}/plot_std_by_stratifier/{{classifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/plot_std_by_stratifier/{{classifier}}.tsv"
    conda:
        ENV
    resources:
        **asks("plot_std_by_stratifier"),
    params:
        figure="std_by_stratifier",
    script:
        "../scripts/plot_figure.py"


rule plot_fold_distribution:
    input:
        scores=f"{study.results}/tables/scores.csv",
        code=code("figures.py", "study_figures.py"),
    output:
        png=report(
            f"{study.results}/figures/fold_distribution_{{classifier}}.png",
            caption="../report/fold_distribution.rst",
            category="Evaluation",
            subcategory="{classifier}",
            labels={"figure": "values over folds", "classifier": "{classifier}"},
        ),
        pdf=f"{study.results}/figures/fold_distribution_{{classifier}}.pdf",
    log:
        f"logs/{study.name}/plot_fold_distribution/{{classifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/plot_fold_distribution/{{classifier}}.tsv"
    conda:
        ENV
    resources:
        **asks("plot_fold_distribution"),
    params:
        figure="fold_distribution",
    script:
        "../scripts/plot_figure.py"


rule plot_rank_bars:
    input:
        ranks=lambda w: rank_inputs(w)["ranks"],
        code=code("figures.py", "study_figures.py"),
    output:
        png=report(
            f"{study.results}/figures/rank_bars_{{subject}}.png",
            caption="../report/rank_bars.rst",
            category="Ranks and tests",
            labels={"figure": "average ranks", "of": "{subject}"},
        ),
        pdf=f"{study.results}/figures/rank_bars_{{subject}}.pdf",
    log:
        f"logs/{study.name}/plot_rank_bars/{{subject}}.log",
    benchmark:
        f"{study.results}/benchmarks/plot_rank_bars/{{subject}}.tsv"
    conda:
        ENV
    resources:
        **asks("plot_rank_bars"),
    params:
        figure="rank_bars",
    script:
        "../scripts/plot_figure.py"


rule plot_cd_diagrams:
    input:
        unpack(rank_inputs),
        code=code("figures.py", "study_figures.py"),
    output:
        png=report(
            f"{study.results}/figures/critical_difference_{{subject}}.png",
            caption="../report/critical_difference.rst",
            category="Ranks and tests",
            labels={"figure": "critical differences", "of": "{subject}"},
        ),
        pdf=f"{study.results}/figures/critical_difference_{{subject}}.pdf",
    log:
        f"logs/{study.name}/plot_cd_diagrams/{{subject}}.log",
    benchmark:
        f"{study.results}/benchmarks/plot_cd_diagrams/{{subject}}.tsv"
    conda:
        ENV
    resources:
        **asks("plot_cd_diagrams"),
    params:
        figure="critical_difference",
    script:
        "../scripts/plot_figure.py"


rule plot_label_shares:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        folds=lambda w: [f"{study.results}/folds/{w.dataset}/{s}/rep0.npz" for s in study.stratifiers],
        code=code("figures.py"),
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
        stratifiers=list(study.stratifiers),
    script:
        "../scripts/plot_label_shares.py"


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
        figure="runtime",
    script:
        "../scripts/plot_figure.py"
