"""An example coonbench plug-in package (docs/plugins.md)."""
