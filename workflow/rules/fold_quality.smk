rule gather_fold_quality:
    input:
        expand(
            f"{study.results}/fold_quality/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
            dataset=study.datasets,
            stratifier=study.stratifiers,
            repeat=study.repeats,
        ),
    output:
        csv=f"{study.results}/tables/fold_quality.csv",
        summary=f"{study.results}/tables/fold_quality_summary.csv",
        md=f"{study.results}/tables/fold_quality_summary.md",
    log:
        f"logs/{study.name}/gather_fold_quality.log",
    benchmark:
        f"{study.results}/benchmarks/gather_fold_quality.tsv"
    conda:
        ENV
    resources:
        **asks("gather_fold_quality"),
    script:
        "../scripts/gather_fold_quality.py"


rule compare_fold_quality:
    input:
        summary=f"{study.results}/tables/fold_quality_summary.csv",
        code=code("stats.py", "measures/fold_quality.py"),
    output:
        ranks=f"{study.results}/tables/fold_quality_ranks.csv",
        tests=f"{study.results}/tables/fold_quality_friedman_nemenyi.csv",
        pairs=f"{study.results}/tables/fold_quality_nemenyi_pairwise.csv",
    log:
        f"logs/{study.name}/compare_fold_quality.log",
    benchmark:
        f"{study.results}/benchmarks/compare_fold_quality.tsv"
    conda:
        ENV
    resources:
        **asks("compare_fold_quality"),
    params:
        groups=study.groups,
        alpha=study.alpha,
    script:
        "../scripts/compare_fold_quality.py"
