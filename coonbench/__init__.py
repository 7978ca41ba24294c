"""coonbench: Inspect AI evals of compressed code and data formats (COON, TOON, TeaLeaf, …)."""

from coonbench._native import activate

# Before any codec module is imported: the compiled COON codec is used only where it matches its source.
activate()

# tiktoken's BPE files are installed where they are needed (a task's build, a command), not here: importing
# coonbench, as Inspect does for every task's registry, writes nothing.

__version__ = "0.1.0"
