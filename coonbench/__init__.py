"""coonbench: Inspect AI evals of compressed code and data formats (COON, TOON, TeaLeaf, …)."""

from coonbench._native import activate

# Decides (no import hook, no file written) whether the compiled COON codec matches its source; the packages that
# hold its modules (coonbench.dart, coonbench.formats.coon) load them from source where it does not (`use_source`).
activate()

# tiktoken's BPE files are installed where they are needed (a task's build, a command), not here: importing
# coonbench, as Inspect does for every task's registry, writes nothing.

__version__ = "0.1.0"
