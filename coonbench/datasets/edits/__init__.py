"""Edits mined from real git histories (``coonbench mine-edits``) and the modification samples made of them."""
