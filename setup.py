"""Only for the optional compiled extensions (ext_modules); everything else is in pyproject.toml.

Every extension is optional: without a working C compiler (or without
Cython) the install still succeeds and the same answers come from Python,
slower. ``gametree_cli/search/depth_first.py``, the one alpha-beta/minimax
loop, is plain Python written in Cython's pure-Python mode: Cython compiles
that very file when it is there (``search.COMPILED`` tells which ran); JSON
files are read by json.loads when their C helper is missing.
"""

from setuptools import Extension, setup


def compiled_search() -> list[Extension]:
    """The search loop, compiled by Cython from its Python source; none without Cython."""
    try:
        from Cython.Build import cythonize
    except ImportError:  # pragma: no cover - the lock and [build-system] bring Cython
        return []
    extensions = cythonize([Extension("gametree_cli.search.depth_first", ["gametree_cli/search/depth_first.py"]),
                            Extension("gametree_cli.views.paste_lines", ["gametree_cli/views/paste_lines.py"])],
                           language_level=3, quiet=True)
    for extension in extensions:
        extension.optional = True  # (cythonize makes new Extensions and drops the flag)
    return extensions


setup(
    ext_modules=[
        Extension("gametree_cli._jsonscan", ["gametree_cli/_jsonscan.c"], optional=True),
        *compiled_search(),
    ],
)
