"""``render --steps DIR``: the folder's rules (a whole set or nothing; ``--force`` replaces the old set
and nothing else), the caption inside the picture, and PNG pictures too wide for rsvg-convert.

tests/test_page.py checks what each step picture shows; tests/test_page_browser.py
measures the captions and pruning tests with a real browser's fonts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gametree_cli.cli.app import app
from gametree_cli.views import steps as steps_view
from gametree_cli.views.slide_frame import CHAR_WIDTH, MARGIN, SlideFrame

from .conftest import TREES

RSVG = shutil.which("rsvg-convert")
needs_rsvg = pytest.mark.skipif(RSVG is None, reason="rsvg-convert (librsvg2-bin) is not installed; make test installs it")


def steps(runner, folder: Path, tree: str, *args: str):
    return runner.invoke(app, ["render", str(TREES / tree), "--steps", str(folder), "--format", "svg", *args])


def listing(folder: Path) -> dict[str, bytes | str]:
    return {entry.name: (os.readlink(entry) if entry.is_symlink() else entry.read_bytes() if entry.is_file() else "dir")
            for entry in folder.iterdir()}


def test_force_replaces_the_previous_set_and_nothing_else(runner, tmp_path: Path) -> None:
    """QA's case: the course tree's 20 slides, then AIMA's 17 with --force: step-017..019 must go;
    the user's own files, look-alike names, the other format's steps and links stay."""
    folder = tmp_path / "sl"
    assert steps(runner, folder, "course.yaml").exit_code == 0
    assert len(list(folder.iterdir())) == 20
    mine = {"notes.txt": b"mine", "step-1.svg": b"<svg/>", "step-001-notes.svg": b"x", "step-000.png": b"png",
            "step-17.svg": b"y"}
    for name, data in mine.items():
        (folder / name).write_bytes(data)
    (folder / "step-900.svg").symlink_to(folder / "notes.txt")
    (folder / "step-901.svg").mkdir()
    before = listing(folder)
    refused = steps(runner, folder, "aima-5-2.yaml")  # without --force: nothing is overwritten
    assert refused.exit_code == 2 and "--force" in refused.output and "step-000.svg exists" in refused.output
    assert listing(folder) == before
    result = steps(runner, folder, "aima-5-2.yaml", "--force")
    assert result.exit_code == 0, result.output
    after = listing(folder)
    drawn = sorted(name for name in after if re.fullmatch(r"step-\d{3}\.svg", name) and isinstance(after[name], bytes))
    assert drawn == [f"step-{k:03d}.svg" for k in range(17)]
    assert steps(runner, tmp_path / "fresh", "aima-5-2.yaml").exit_code == 0
    assert {name: after[name] for name in drawn} == listing(tmp_path / "fresh")  # AIMA's pictures, all of them
    for name, data in mine.items():
        assert after[name] == data, name
    assert after["step-900.svg"] == str(folder / "notes.txt") and after["step-901.svg"] == "dir"
    assert set(after) == set(drawn) | set(mine) | {"step-900.svg", "step-901.svg"}


def test_a_folder_with_steps_of_another_width_is_refused_without_force(runner, tmp_path: Path) -> None:
    """A longer search numbered its slides with four digits: no name clashes, still another run's set."""
    folder = tmp_path / "wide"
    folder.mkdir()
    (folder / "step-0000.svg").write_text("<svg/>")
    result = steps(runner, folder, "aima-5-2.yaml")
    assert result.exit_code == 2 and "--force" in result.output
    assert sorted(os.listdir(folder)) == ["step-0000.svg"]
    assert steps(runner, folder, "aima-5-2.yaml", "--force").exit_code == 0
    assert "step-0000.svg" not in os.listdir(folder) and len(os.listdir(folder)) == 17


def failing_converter(tmp_path: Path) -> Path:
    """An rsvg-convert that writes part of its output, then fails as the real one does on a huge picture."""
    script = tmp_path / "bin" / "rsvg-convert"
    script.parent.mkdir()
    script.write_text('#!/bin/sh\nfor last; do :; done\nprintf "\\211PNG" > "$last"\n'
                      'echo "Please specify a smaller size." >&2\nexit 1\n')
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "old-set"])
def test_a_failed_png_leaves_no_file_and_the_folder_as_it_was(runner, tmp_path: Path, monkeypatch, existing: bool) -> None:
    folder = tmp_path / "m"
    if existing:
        folder.mkdir()
        (folder / "step-000.png").write_bytes(b"old slide")
        (folder / "notes.txt").write_bytes(b"mine")
    before = listing(folder) if existing else None
    converter = failing_converter(tmp_path)
    monkeypatch.setattr(steps_view.shutil, "which", lambda name: str(converter) if name == "rsvg-convert" else None)
    result = runner.invoke(app, ["render", str(TREES / "aima-5-2.yaml"), "--steps", str(folder), "--format", "png",
                                 "--force"])
    assert result.exit_code == 2
    assert f"rsvg-convert could not write {folder / 'step-000.png'}: Please specify a smaller size." in result.output
    if existing:
        assert listing(folder) == before  # no partial file, no private folder, the old set untouched
    else:
        assert not folder.exists()


def test_png_zoom_keeps_every_side_under_rsvg_convert_limit() -> None:
    assert steps_view.png_zoom(656, 500) == steps_view.PNG_ZOOM
    for width, height in [(17_080, 572), (16_384, 300), (300, 40_000), (250_000, 900)]:
        zoom = steps_view.png_zoom(width, height)
        assert 0 < zoom < steps_view.PNG_ZOOM
        assert max(width, height) * zoom <= steps_view.RSVG_MAX_SIDE


@needs_rsvg
def test_rsvg_convert_accepts_the_zoom_for_qa_wide_tree(tmp_path: Path) -> None:
    """QA's 17,080-pixel-wide picture: at 2x rsvg-convert refuses it; at png_zoom it draws it."""
    width, height = 17_080, 572
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
           f'<rect width="100%" height="100%" fill="#fff"/></svg>').encode()
    zoom = steps_view.png_zoom(width, height)
    at_two = subprocess.run([RSVG, "--zoom", "2", "-o", str(tmp_path / "two.png")], input=svg, capture_output=True)
    assert at_two.returncode != 0 or (tmp_path / "two.png").stat().st_size == 0
    done = subprocess.run([RSVG, "--zoom", f"{zoom:g}", "-o", str(tmp_path / "fit.png")], input=svg, capture_output=True)
    assert done.returncode == 0 and (tmp_path / "fit.png").read_bytes().startswith(b"\x89PNG")
    png_width = int.from_bytes((tmp_path / "fit.png").read_bytes()[16:20], "big")
    assert width * 1.9 < png_width <= steps_view.RSVG_MAX_SIDE


def caption_lines(svg: str) -> list[str]:
    return [re.sub(r"&[a-z]+;", "x", line) for line in re.findall(r'<text class="caption"[^>]*>([^<]*)</text>', svg)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_caption_fits_its_picture_and_every_picture_has_the_same_size(runner, tmp_path: Path, lang: str) -> None:
    """QA's case: step 14 (and Spanish step 8) were cut off at the picture's right edge."""
    folder = tmp_path / lang
    assert steps(runner, folder, "aima-5-2.yaml", "--lang", lang).exit_code == 0
    sizes = set()
    for path in sorted(folder.iterdir()):
        svg = path.read_text()
        width, height = map(float, re.match(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg).groups())
        sizes.add((width, height))
        lines = caption_lines(svg)
        assert lines and all(MARGIN + len(line) * CHAR_WIDTH <= width - MARGIN for line in lines), (path.name, lines)
        number = path.stem.split("-")[1].lstrip("0") or "0"
        assert lines[0].startswith(f"{number}/16  ")
    assert len(sizes) == 1
    svg14 = (folder / "step-014.svg").read_text()
    said = {"en": "returns 2", "es": "le asigna valor 2"}[lang]
    assert " ".join(line.strip() for line in caption_lines(svg14)).endswith(said)


def test_a_narrow_tree_gets_a_frame_a_caption_line_can_live_in() -> None:
    frame = SlideFrame.around(120, 200, ["0/3  call maxValue(A, alpha=-inf, beta=inf)"])
    assert frame.width >= 2 * MARGIN + 44 * CHAR_WIDTH and frame.chars >= 44
    slide = frame.slide('<svg xmlns="http://www.w3.org/2000/svg" id="tree" width="120" height="200"></svg>', "0/3  x")
    left = float(re.search(r'id="tree" x="(\d+)"', slide).group(1))
    assert abs(left - (frame.width - 120) / 2) <= 1  # centred
