"""Only for the optional compiled extensions (ext_modules); everything else is in pyproject.toml.

Every extension is optional: without a working C compiler (or without
Cython) the install still succeeds and the same answers come from Python,
slower. ``gametree_cli/search/depth_first.py``, the one alpha-beta/minimax
loop, and the JSON tree scanner (``gametree_cli/io/scan_*.py``) are
plain Python written in Cython's pure-Python mode: Cython compiles those very
files when it is there (``search.COMPILED`` and ``scan_kernel.COMPILED`` tell
which ran); uncompiled, JSON files are read by json.loads. ``views/paste_lines.py``
(the JSON result's lines put together) runs only compiled; without it
``views/json_text.paste_numpy`` writes the same bytes.
"""

from setuptools import Extension, setup


#: modules written in Cython's pure-Python mode: compiled when Cython and a C compiler are there
COMPILED_MODULES = [
    "gametree_cli/search/depth_first.py",  # the one alpha-beta/minimax loop
    "gametree_cli/io/scan_lexer.py",  # the JSON tree scanner (io/jsonscan.py)
    "gametree_cli/io/scan_share.py",
    "gametree_cli/io/scan_kernel.py",
    "gametree_cli/io/scan_order.py",
    "gametree_cli/io/scan_skip.py",  # JSON values skipped (io/partial.py, locate.py)
    "gametree_cli/io/gtb_columns.py",  # a .gtb tree's columns made in one pass (io/binary.py)
    "gametree_cli/views/paste_lines.py",  # the JSON result's lines assembled (views/json_text.py)
    "gametree_cli/core/plain_scans.py",  # a plain search record's whole-array steps (core/buffers.py)
]


def compiled_modules() -> list[Extension]:
    """The modules above, compiled by Cython from their Python source; none without Cython."""
    try:
        from Cython.Build import cythonize
    except ImportError:  # pragma: no cover - the lock and [build-system] bring Cython
        return []
    modules = [Extension(path[:-3].replace("/", "."), [path]) for path in COMPILED_MODULES]
    extensions = cythonize(modules, language_level=3, quiet=True)
    for extension in extensions:
        extension.optional = True  # (cythonize makes new Extensions and drops the flag)
    return extensions


setup(
    ext_modules=compiled_modules(),
)
