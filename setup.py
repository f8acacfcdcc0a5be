"""Only for the optional C kernel (ext_modules); everything else is in pyproject.toml.

``optional=True``: without a working C compiler the install still succeeds
and alpha-beta runs its pure-Python loop.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("gametree_cli._abkernel", ["gametree_cli/_abkernel.c"], optional=True),
    ],
)
