"""The class list: a UTF-8 CSV file with a column of names, read with errors that name the line.

One name per row. A first row whose cell says ``name`` (or ``student``,
``nombre``, ``alumno``, ``estudiante``...) is a header, and its column is the
names' column; otherwise the names are the first column. Commas separate
columns, or semicolons when the first row has semicolons and no comma (as a
spreadsheet set to Spanish exports). Blank rows are skipped. Each student
gets files named after them, so two names may not be the same, nor give the
same file name once accents and punctuation are left out.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass

from ..core.errors import GameTreeError
from ..io.files import read_input_text

__all__ = ["Student", "RosterError", "read_roster", "parse_roster", "file_stem"]

_HEADERS = {"name", "names", "student", "students", "student name", "full name", "nombre", "nombres",
            "nombre completo", "nombre y apellidos", "apellidos y nombre", "alumno", "alumna", "alumnos",
            "alumnado", "estudiante", "estudiantes"}
_LONGEST = 120


class RosterError(GameTreeError):
    """The roster cannot be read, or lists no usable names (exit 2)."""


@dataclass(frozen=True)
class Student:
    """One student: the name as written (NFC), its line in the roster, and a file-name stem."""

    name: str
    line: int
    stem: str


def file_stem(name: str) -> str:
    """``"José Pérez-Núñez"`` -> ``"Jose-Perez-Nunez"``: letters and digits of any script, accents
    dropped, everything else a single dash (a file name that survives zip files and mail)."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return re.sub(r"[\W_]+", "-", plain).strip("-")


def read_roster(path: str) -> list[Student]:
    """The students of the roster file ``path``, in file order.

    Raises:
        RosterError: unreadable, not UTF-8, not CSV, no names, a bad or repeated name (file:line).
    """
    return parse_roster(read_input_text(path, error=RosterError, what="a roster"), path)


def parse_roster(text: str, name: str) -> list[Student]:
    """The students of a roster's text (``name`` is the file, for messages)."""
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ";" if ";" in first_line and "," not in first_line else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    column: int | None = None
    students: list[Student] = []
    seen: dict[str, Student] = {}
    stems: dict[str, Student] = {}
    try:
        for row in reader:
            line = reader.line_num
            cells = [cell.strip() for cell in row]
            if not any(cells):
                continue
            if column is None:
                header = next((index for index, cell in enumerate(cells) if cell.casefold() in _HEADERS), None)
                column = 0 if header is None else header
                if header is not None:
                    continue
            student = _student(cells, column, line, name)
            if student.name in seen:
                raise RosterError(f"{student.name!r} is already on line {seen[student.name].line}: "
                                  "each student needs a name of their own", file=name, line=line)
            clash = stems.get(student.stem.casefold())
            if clash is not None:
                raise RosterError(_clash_message(student, clash), file=name, line=line)
            seen[student.name] = stems[student.stem.casefold()] = student
            students.append(student)
    except csv.Error as error:
        raise RosterError(f"not a CSV file: {error}", file=name, line=reader.line_num) from None
    if not students:
        raise RosterError("no student names (expected a UTF-8 CSV file with one name per line)", file=name)
    return students


def _clash_message(student: Student, clash: Student) -> str:
    """Two names whose file names clash: the same stem, or stems differing only in case
    (``Ann``, ``ann``: one file on Windows and macOS, whose file names ignore case)."""
    both = f"{student.name!r} and {clash.name!r} (line {clash.line})"
    if student.stem == clash.stem:
        return f"{both} would get the same file name {student.stem!r}: write them differently"
    return (f"{both} would get file names differing only in case ({student.stem!r}, {clash.stem!r}), one file "
            "where file names ignore case (Windows, macOS): write them differently")


def _student(cells: list[str], column: int, line: int, file: str) -> Student:
    """The student of one row, or the reason its name cannot be used."""
    if column >= len(cells) or not cells[column]:
        raise RosterError(f"no name in column {column + 1}", file=file, line=line)
    name = unicodedata.normalize("NFC", cells[column])
    if not name.isprintable():
        raise RosterError(f"the name {name!r} holds a control character", file=file, line=line)
    if len(name) > _LONGEST:
        raise RosterError(f"a name of {len(name)} characters (at most {_LONGEST})", file=file, line=line)
    stem = file_stem(name)
    if not stem:
        raise RosterError(f"the name {name!r} has no letter or digit to name a file after", file=file, line=line)
    return Student(name, line, stem)
