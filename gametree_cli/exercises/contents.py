"""What a handout's folder holds: tree files, the answer file, and the LaTeX of the sheets and the key.

Without a roster::

    sheet.tex  key.tex  answers.yaml  trees/exercise-1.yaml ...

With one (a variant per student, files named after them)::

    sheets/sheet-Jose-Perez.tex ...  key.tex  answers.yaml  trees/Jose-Perez-1.yaml ...

The answer file refers to the tree files by paths relative to itself, so
``gametree check answers.yaml`` works from anywhere, and a student's answer
file written the same way is graded the same way. Everything is text made
from the exercises alone, so the same handout gives byte-identical files.
"""

from __future__ import annotations

from typing import Any

from ..search.options import Options
from ..views.answer_key import answer_key, dump_answer_file
from ..io.document_text import document_to_yaml
from .choose import HandoutSpec, Variant
from .sheet import key_document, sheet_document
from .wording import words

__all__ = ["handout_files", "sheet_name", "ANSWERS"]

ANSWERS = "answers.yaml"


def sheet_name(variant: Variant) -> str:
    """The sheet's LaTeX file (its PDF has the same name with ``.pdf``)."""
    return f"sheets/sheet-{variant.stem}.tex" if variant.stem else "sheet.tex"


def _tree_name(variant: Variant, number: int) -> str:
    return f"trees/{variant.stem}-{number}.yaml" if variant.stem else f"trees/exercise-{number}.yaml"


def exercise_name(variant: Variant, number: int, lang: str) -> str:
    label = f"{words(lang)['exercise'].lower()} {number}"
    return f"{variant.name}, {label}" if variant.name else label


def handout_files(spec: HandoutSpec, variants: list[Variant], lang: str) -> dict[str, str]:
    """Relative path -> text of every file of the handout (PDFs are compiled from the ``.tex`` ones)."""
    files: dict[str, str] = {}
    exercises: list[dict[str, Any]] = []
    for variant in variants:
        for number, chosen in enumerate(variant.exercises, start=1):
            tree_file = _tree_name(variant, number)
            title = f"{words(lang)['tree title']} {number}" + (f" ({variant.name})" if variant.name else "")
            files[tree_file] = document_to_yaml({"title": title, **chosen.document})
            form = Options(variant=spec.alphabeta_form) if chosen.algorithm == "alphabeta" else None
            exercises.append({"name": exercise_name(variant, number, lang),
                              **answer_key(chosen.record, tree=tree_file, options=form)})  # variant: so check repeats it
        files[sheet_name(variant)] = sheet_document(variant, lang)
    files["key.tex"] = key_document(variants, lang)
    algorithms = ", ".join(dict.fromkeys(spec.algorithms))
    per_student = "; a variant per student" if any(variant.name for variant in variants) else ""
    comment = (f"Answer key of a gametree handout: {spec.count} exercise{'s' if spec.count != 1 else ''} "
               f"({algorithms}) per sheet{per_student}; seed {spec.seed} (keep it private).\n"
               "Check it, or a student's answer file written the same way, with: gametree check FILE")
    files[ANSWERS] = dump_answer_file({"exercises": exercises}, comment=comment)
    return files
