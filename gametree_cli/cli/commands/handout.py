"""``gametree handout``: an exercise sheet, its key and answer file, a variant per student.

Chooses the exercises (:mod:`gametree_cli.exercises.choose`), writes the
tree files, ``answers.yaml`` and the LaTeX documents, compiles them with
pdflatex where it is installed, and moves the lot into the folder only when
all of it worked (docs/exercises.md).
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..exits import reports_errors
from ..options import Language, Variant
from ...generate.random_tree import parse_range

__all__ = ["handout_command"]


@reports_errors
def handout_command(
    output: Annotated[str, typer.Option("--output", "-o", metavar="DIR", help="Folder to write the handout in (new or empty; --force to replace a handout).")],
    count: Annotated[int, typer.Option("--count", "-n", help="Exercises per sheet.")],
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed and options give the same handout. Keep it private: it makes the key.")],
    algo: Annotated[str, typer.Option("--algo", "-a", help="What to ask: minimax, alphabeta or expectiminimax; several comma-separated take turns.")] = "alphabeta",
    variant: Annotated[Variant, typer.Option("--variant", help="The alpha-beta asked: soft (AIMA), hard (fail-hard) or practical (the course notes': each call returns its own alpha/beta); the sheet says which, the key and answers.yaml use it.")] = Variant.soft,
    depth: Annotated[int, typer.Option("--depth", "-d", help="Plies from the root to every leaf of each tree (chance edges count).")] = 3,
    branching: Annotated[str, typer.Option("--branching", "-b", help="Children per inner node: B, or a range LOW..HIGH drawn per node.")] = "2..3",
    values: Annotated[str, typer.Option("--values", metavar="LO..HI", help="Range of leaf values, whole numbers.")] = "0..9",
    lang: Annotated[Language, typer.Option("--lang", help="Language of the sheets and the key: en or es.")] = Language.en,
    students: Annotated[Optional[str], typer.Option("--students", metavar="ROSTER.csv", help="UTF-8 CSV with a column of names: a variant and a sheet for each student.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into a folder that holds files: replaces a previous handout's files.")] = False,
    no_pdf: Annotated[bool, typer.Option("--no-pdf", help="Write the LaTeX sources only, without running pdflatex.")] = False,
) -> None:
    """Write an exercise sheet (PDF and LaTeX), its key and answers.yaml into DIR; with --students, one variant per student."""
    from ...exercises.choose import HandoutSpec, choose_variant, parse_algorithms
    from ...exercises.contents import handout_files
    from ...exercises.folder import check_folder, publish, staging
    from ...exercises.pdf import LATEX_MISSING, compile_all, find_latex
    from ...exercises.roster import read_roster

    spec = HandoutSpec(count=count, seed=seed, algorithms=parse_algorithms(algo), depth=depth,
                       branching=parse_range(branching, "--branching", "2..3"), values=parse_range(values, "--values"),
                       alphabeta_form=variant.value)
    spec.check()
    roster = read_roster(students) if students is not None else None
    check_folder(output, force=force)  # refused before the work, not after
    if roster is None:
        variants = [choose_variant(spec)]
    else:
        variants = [choose_variant(spec, student.name, student.stem) for student in roster]
    files = handout_files(spec, variants, lang.value)
    latex = None if no_pdf else find_latex()
    with staging(output) as staged:
        for name, text in files.items():
            path = staged / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        sources = [name for name in files if name.endswith(".tex")]
        written = list(files)
        if latex is not None:
            compile_all(latex, [staged / name for name in sources], staged / ".build")
            written += [str(Path(name).with_suffix(".pdf").as_posix()) for name in sources]
        publish(staged, output, sorted(written), force=force, protect=(students,))
    sheets = len(variants)
    sys.stderr.write(f"wrote {output}: {sheets} sheet{'s' if sheets != 1 else ''} of {count} exercise"
                     f"{'s' if count != 1 else ''}, key.{'pdf' if latex else 'tex'}, answers.yaml "
                     f"(check it with: gametree check {Path(output) / 'answers.yaml'})\n")
    if latex is None and not no_pdf:
        sys.stderr.write(LATEX_MISSING + "\n")
