"""gametree test suite."""
