"""Compile the handout's LaTeX documents with pdflatex, reproducibly and in parallel.

Each document is compiled under a plain ASCII job name in a build folder of
its own (a student's name may not suit TeX's file handling), with
``SOURCE_DATE_EPOCH`` fixed so that the same handout gives byte-identical
PDFs (pdfTeX then writes that date and a matching document id). A failure
is reported as one line: the document and LaTeX's first error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..core.errors import GameTreeError

__all__ = ["find_latex", "compile_all", "LATEX_MISSING"]

#: What to say when no pdflatex is found (the sources are written anyway).
LATEX_MISSING = ("pdflatex is not installed, so only the LaTeX sources were written: compile each with "
                 "`pdflatex FILE.tex` once LaTeX with the forest package is installed "
                 "(Debian: apt-get install texlive-latex-extra texlive-pictures; or `make latex`)")
#: A document that takes longer is taken to hang (forest lays out a page of trees in seconds).
_TIMEOUT = 600


def find_latex() -> str | None:
    """The pdflatex program, or None."""
    return shutil.which("pdflatex")


def compile_all(program: str, sources: list[Path], build: Path) -> None:
    """Compile every ``.tex`` of ``sources`` into a PDF beside it (up to one job per CPU, at most 4).

    Raises:
        GameTreeError: a document did not compile (naming it and LaTeX's first error line).
    """
    workers = max(1, min(4, os.cpu_count() or 1, len(sources)))
    jobs = [(program, source, build / f"job{number}") for number, source in enumerate(sources)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(_compile, *job) for job in jobs]:
            future.result()


def _compile(program: str, source: Path, folder: Path) -> None:
    folder.mkdir(parents=True)
    shutil.copyfile(source, folder / "doc.tex")
    environment = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    try:
        done = subprocess.run([program, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=folder,
                              stdin=subprocess.DEVNULL, capture_output=True, env=environment, timeout=_TIMEOUT,
                              check=False)
    except subprocess.TimeoutExpired:
        raise GameTreeError(f"pdflatex took more than {_TIMEOUT} s and was stopped", file=source.name) from None
    except OSError as error:
        raise GameTreeError(f"cannot run pdflatex: {error.strerror or error}", file=source.name) from None
    output = folder / "doc.pdf"
    if done.returncode != 0 or not output.exists():
        log = done.stdout.decode("utf-8", "replace").splitlines()
        first = next((line[2:].strip() for line in log if line.startswith("! ")), f"exit status {done.returncode}")
        raise GameTreeError(f"pdflatex could not compile it: {first} (--no-pdf writes the sources only)",
                            file=source.name)
    os.replace(output, source.with_suffix(".pdf"))
