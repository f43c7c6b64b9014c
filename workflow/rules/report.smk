rule reproduction_report:
    input:
        unpack(reproduction_inputs),
    output:
        md=f"{RESULTS}/report/reproduction.md",
        csv=f"{RESULTS}/report/reproduction.csv",
        html=report(f"{RESULTS}/report/reproduction.html", caption="../report/reproduction.rst", category="Reproduction",
                    labels={"report": "ours vs published", "paper": str(REPRODUCES)}),
    params:
        paper=REPRODUCES,
        study=STUDY,
        n_splits=N_SPLITS,
        stratifiers=list(STRATIFIERS),
        groups=GROUPS,
    benchmark:
        f"{RESULTS}/benchmarks/reproduction_report.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("reproduction_report", "mem_mb"),
        runtime=asked("reproduction_report", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/reproduction_report.log",
    script:
        "../scripts/reproduction_report.py"
