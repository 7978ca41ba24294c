"""Reusable Inspect solvers of coonbench."""
