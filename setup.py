"""Only for the optional C extensions (ext_modules); everything else is in pyproject.toml.

``optional=True``: without a working C compiler the install still succeeds;
alpha-beta runs its pure-Python loop and JSON files are read by json.loads.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("gametree_cli._abkernel", ["gametree_cli/_abkernel.c"], optional=True),
        Extension("gametree_cli._jsonscan", ["gametree_cli/_jsonscan.c"], optional=True),
    ],
)
