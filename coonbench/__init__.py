"""coonbench: Inspect AI evals of compressed code and data formats (COON, TOON, TeaLeaf, …)."""

from coonbench._native import activate
from coonbench.tokens import install_offline_encodings

# Before any codec module is imported: the compiled COON codec is used only where it matches its source.
activate()

# Inspect's mockllm and tiktoken itself must work offline whenever coonbench is importable.
install_offline_encodings()

__version__ = "0.1.0"
