rule plot_std_by_stratifier:
    input:
        summary=f"{RESULTS}/tables/summary.csv",
        code=code("figures.py"),
    output:
        png=report(f"{RESULTS}/figures/std_by_stratifier_{{classifier}}.png", caption="../report/std_by_stratifier.rst",
                   category="Evaluation", subcategory="{classifier}", labels={"figure": "std over folds", "classifier": "{classifier}"}),
        pdf=f"{RESULTS}/figures/std_by_stratifier_{{classifier}}.pdf",
    benchmark:
        f"{RESULTS}/benchmarks/plot_std_by_stratifier/{{classifier}}.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_std_by_stratifier", "mem_mb"),
        runtime=asked("plot_std_by_stratifier", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_std_by_stratifier/{{classifier}}.log",
    script:
        "../scripts/plot_std_by_stratifier.py"


rule plot_fold_distribution:
    input:
        scores=f"{RESULTS}/tables/scores.csv",
        code=code("figures.py"),
    output:
        png=report(f"{RESULTS}/figures/fold_distribution_{{classifier}}.png", caption="../report/fold_distribution.rst",
                   category="Evaluation", subcategory="{classifier}", labels={"figure": "values over folds", "classifier": "{classifier}"}),
        pdf=f"{RESULTS}/figures/fold_distribution_{{classifier}}.pdf",
    benchmark:
        f"{RESULTS}/benchmarks/plot_fold_distribution/{{classifier}}.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_fold_distribution", "mem_mb"),
        runtime=asked("plot_fold_distribution", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_fold_distribution/{{classifier}}.log",
    script:
        "../scripts/plot_fold_distribution.py"


rule plot_rank_bars:
    input:
        ranks=lambda w: rank_inputs(w)["ranks"],
        code=code("figures.py"),
    output:
        png=report(f"{RESULTS}/figures/rank_bars_{{subject}}.png", caption="../report/rank_bars.rst",
                   category="Ranks and tests", labels={"figure": "average ranks", "of": "{subject}"}),
        pdf=f"{RESULTS}/figures/rank_bars_{{subject}}.pdf",
    benchmark:
        f"{RESULTS}/benchmarks/plot_rank_bars/{{subject}}.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_rank_bars", "mem_mb"),
        runtime=asked("plot_rank_bars", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_rank_bars/{{subject}}.log",
    script:
        "../scripts/plot_rank_bars.py"


rule plot_cd_diagrams:
    input:
        unpack(rank_inputs),
        code=code("figures.py"),
    output:
        png=report(f"{RESULTS}/figures/critical_difference_{{subject}}.png", caption="../report/critical_difference.rst",
                   category="Ranks and tests", labels={"figure": "critical differences", "of": "{subject}"}),
        pdf=f"{RESULTS}/figures/critical_difference_{{subject}}.pdf",
    benchmark:
        f"{RESULTS}/benchmarks/plot_cd_diagrams/{{subject}}.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_cd_diagrams", "mem_mb"),
        runtime=asked("plot_cd_diagrams", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_cd_diagrams/{{subject}}.log",
    script:
        "../scripts/plot_cd_diagrams.py"


rule plot_label_shares:
    input:
        data=lambda w: dataset_file(w.dataset),
        folds=lambda w: [f"{RESULTS}/folds/{w.dataset}/{s}/rep0.npz" for s in STRATIFIERS],
        code=code("figures.py"),
    output:
        png=report(f"{RESULTS}/figures/label_shares_{{dataset}}.png", caption="../report/label_shares.rst",
                   category="Fold quality", labels={"figure": "label shares per fold", "dataset": "{dataset}"}),
        pdf=f"{RESULTS}/figures/label_shares_{{dataset}}.pdf",
    params:
        stratifiers=list(STRATIFIERS),
    benchmark:
        f"{RESULTS}/benchmarks/plot_label_shares/{{dataset}}.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_label_shares", "mem_mb"),
        runtime=asked("plot_label_shares", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_label_shares/{{dataset}}.log",
    script:
        "../scripts/plot_label_shares.py"


rule plot_runtime:
    input:
        runtime=f"{RESULTS}/tables/stratifier_runtime.csv",
        code=code("figures.py"),
    output:
        png=report(f"{RESULTS}/figures/stratifier_runtime.png", caption="../report/stratifier_runtime.rst",
                   category="Fold quality", labels={"figure": "stratifier runtime"}),
        pdf=f"{RESULTS}/figures/stratifier_runtime.pdf",
    benchmark:
        f"{RESULTS}/benchmarks/plot_runtime.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_runtime", "mem_mb"),
        runtime=asked("plot_runtime", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_runtime.log",
    script:
        "../scripts/plot_runtime.py"
