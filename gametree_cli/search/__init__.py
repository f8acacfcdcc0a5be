"""The searches: one module per algorithm family, the registry and solve() in registry.py."""
