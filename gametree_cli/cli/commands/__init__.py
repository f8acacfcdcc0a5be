"""Command modules: each registers its commands on gametree_cli.cli.app when imported."""
