rule gather_scores:
    input:
        score_files(),
    output:
        f"{RESULTS}/tables/scores.csv",
    conda:
        ENV
    log:
        f"logs/{STUDY}/gather_scores.log",
    script:
        "../scripts/gather_scores.py"


rule summarise_scores:
    input:
        scores=f"{RESULTS}/tables/scores.csv",
        code=code("tables.py"),
    output:
        summary=f"{RESULTS}/tables/summary.csv",
        md=f"{RESULTS}/tables/summary.md",
        ranks=f"{RESULTS}/tables/average_ranks.csv",
    params:
        groups=config.get("dataset_groups"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/summarise_scores.log",
    script:
        "../scripts/summarise_scores.py"


rule plot_std_by_stratifier:
    input:
        summary=f"{RESULTS}/tables/summary.csv",
        code=code("figures.py"),
    output:
        png=f"{RESULTS}/figures/std_by_stratifier_{{classifier}}.png",
        pdf=f"{RESULTS}/figures/std_by_stratifier_{{classifier}}.pdf",
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_std_by_stratifier/{{classifier}}.log",
    script:
        "../scripts/plot_std_by_stratifier.py"
