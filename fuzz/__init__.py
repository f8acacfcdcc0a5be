"""Fuzzing gametree: seeds, mutations and the harness shared by tests/test_fuzz.py and fuzz/atheris_tree.py (docs/fuzzing.md)."""
