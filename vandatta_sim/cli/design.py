"""``vandatta-sim design SPEC.toml``: search the rule space for the house rules a table wants.

A thin layer over :mod:`vandatta_sim.design`: the spec is checked in full before any game
(one ``Error:`` line, exit 2, nothing written), the study runs (resumable), the finalists are
measured again on fresh seeds, and the ranked table, the verdict, one rules file per finalist
and the figure are written.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import click

from .interrupts import interrupts_end_the_run
from .builders import check_store_path
from .errors import usage_errors
from .paramtypes import CountType
from .options import dry_run_option, json_option, store_option, sweep_threads_option

#: The folder for the rules files and the figure when --out-dir is not given: DEFAULT_OUT/SPEC-STEM.
DEFAULT_OUT = "design-out"


@click.command("design")
@click.argument("spec_file", metavar="SPEC.toml", type=click.Path(dir_okay=False))
@store_option
@click.option("--storage", metavar="URL",
              help="Optuna storage of the study (an RDB URL such as sqlite:///study.db or "
                   "postgresql://…, shared by several workers); default: SQLite in "
                   "STORE/designs/.")
@click.option("--out-dir", "out_dir", metavar="DIR",
              help=f"Folder for the rules files (rank-1.toml, …) and the figure (front.png); "
                   f"default {DEFAULT_OUT}/SPEC-NAME.")
@click.option("--trials", type=CountType("trials", 1, 10**9, "10^9"), metavar="N",
              help="Trials in all (the spec's [search] trials otherwise): more continues a "
                   "finished study, as editing the spec's count would.")
@sweep_threads_option
# the shared flag (here: the trials and games still to run, with a time estimate)
@dry_run_option
@click.option("--no-progress", is_flag=True,
              help="No progress lines (trial by trial: the best so far, or a front's size) "
                   "on stderr.")
@json_option
def design_cmd(spec_file, store, storage, out_dir, trials, threads, dry_run, no_progress,
               as_json):
    """Search the free rule parameters of SPEC.toml for the rules that best meet its goals.

    Each trial is one candidate rule set, played on the same deals as every other (one seed)
    through the result store; the best candidates are measured again on fresh seeds before
    they are reported. Rerun the same command after an interrupt to continue; a finished
    design runs no new trials. Spec format: examples/README.md. Example:

    \b
    vandatta-sim design examples/fair-two-player-design.toml
    """
    from ..design import SpecError, load_spec
    from ..sweep import check_run_settings

    try:
        spec = load_spec(spec_file)
    except SpecError as exc:
        raise click.UsageError(str(exc)) from None
    if trials is not None:  # not part of the study's name: the same study, run longer or shorter
        from ..design.spec import MAX_TRIALS

        if trials > MAX_TRIALS:
            raise click.UsageError(f"--trials {trials} is not allowed; allowed: 1–{MAX_TRIALS:,}")
        spec = dataclasses.replace(spec, trials=trials)
    out = Path(out_dir) if out_dir is not None else Path(DEFAULT_OUT) / Path(spec_file).stem
    with usage_errors():
        check_run_settings(games=1, threads=threads)
        if not dry_run:
            check_store_path(store)
            from ..paths import check_store_folder

            check_store_folder(out, "--out-dir")
            _check_out_files(out, spec.finalists)
    if storage is not None and "://" not in storage:
        raise click.UsageError(f"--storage {storage!r}: allowed: an RDB URL such as "
                               "sqlite:///study.db or postgresql://user@host/db")
    from ..design.search import StudyStorageError, storage_errors

    try:
        if dry_run:
            from ..design.plan import dry_run_text

            with storage_errors(storage):
                click.echo(dry_run_text(spec, store, storage, threads))
            return
        message = ("interrupted: the finished trials are stored in the study; run the same "
                   "command again to continue")
        # a storage error anywhere (a bad URL, a damaged study file, a full disk), or rules
        # no trial could deal: one line
        with interrupts_end_the_run(message), usage_errors(), storage_errors(storage):
            _design(spec, store, storage, out, threads, no_progress, as_json)
    except StudyStorageError as exc:
        raise click.ClickException(str(exc)) from None


def _check_out_files(out: Path, finalists: int) -> None:
    """The files the design will write in an existing --out-dir, checked before any trial."""
    from ..paths import check_output_file

    if out.is_dir():
        for name in [f"rank-{k}.toml" for k in range(1, finalists + 1)] + ["front.png"]:
            check_output_file(out / name, "--out-dir")


def _design(spec, store, storage, out, threads, no_progress, as_json):
    from ..design.report import design_json, design_text, plot_design, write_rules_files
    from ..design.search import run_design

    log = None if no_progress else (lambda line: click.echo(line, err=True))
    result = run_design(spec, store=store, storage=storage, threads=threads, log=log)
    files = write_rules_files(result, out)
    figure = out / "front.png"
    plot_design(result, figure)
    if as_json:
        click.echo(json.dumps(design_json(result, files) | {"figure": str(figure)}, indent=2,
                              ensure_ascii=False))
    else:
        click.echo(design_text(result, files))
        click.echo(f"figure: {figure}")
