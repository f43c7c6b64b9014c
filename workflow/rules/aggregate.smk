rule gather_scores:
    input:
        score_files(),
    output:
        f"{RESULTS}/tables/scores.csv",
    benchmark:
        f"{RESULTS}/benchmarks/gather_scores.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("gather_scores", "mem_mb"),
        runtime=asked("gather_scores", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/gather_scores.log",
    script:
        "../scripts/gather_scores.py"


rule summarise_scores:
    input:
        scores=f"{RESULTS}/tables/scores.csv",
        code=code("tables.py", "stats.py"),
    output:
        summary=f"{RESULTS}/tables/summary.csv",
        md=f"{RESULTS}/tables/summary.md",
        ranks=f"{RESULTS}/tables/average_ranks.csv",
        tests=f"{RESULTS}/tables/friedman_nemenyi.csv",
        pairs=f"{RESULTS}/tables/nemenyi_pairwise.csv",
    params:
        groups=GROUPS,
        alpha=ALPHA,
    benchmark:
        f"{RESULTS}/benchmarks/summarise_scores.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("summarise_scores", "mem_mb"),
        runtime=asked("summarise_scores", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/summarise_scores.log",
    script:
        "../scripts/summarise_scores.py"


rule paper_tables:
    input:
        unpack(paper_table_inputs),
    output:
        document=f"{RESULTS}/tables/paper/tables.tex",
        markdown=f"{RESULTS}/tables/paper_tables.md",
        fold_quality_papers=f"{RESULTS}/tables/fold_quality_papers.md",
        tables=paper_table_files(),
        html=[
            report(
                f"{RESULTS}/tables/paper/{name}.html",
                caption="../report/paper_table.rst",
                category="Tables",
                labels={"table": name},
            )
            for name in PAPER_TABLES
        ],
    params:
        names=PAPER_TABLES,
        study=STUDY,
        stratifiers=list(STRATIFIERS),
    benchmark:
        f"{RESULTS}/benchmarks/paper_tables.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("paper_tables", "mem_mb"),
        runtime=asked("paper_tables", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/paper_tables.log",
    script:
        "../scripts/paper_tables.py"
