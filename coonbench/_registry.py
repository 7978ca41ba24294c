"""Inspect entry point: importing this module registers every coonbench task, solver, scorer and model API.

Names become ``coonbench/<name>`` (e.g. ``inspect eval coonbench/comprehension``, ``--solver coonbench/gold``).
"""

# ruff: noqa: F401
from solvers.gold import gold
