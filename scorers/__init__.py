"""Reusable Inspect scorers of coonbench."""
