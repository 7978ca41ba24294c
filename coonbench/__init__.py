"""coonbench: Inspect AI evals of compressed code and data formats (COON, TOON, TeaLeaf, …)."""

from coonbench.tokens import install_offline_encodings

# Inspect's mockllm and tiktoken itself must work offline whenever coonbench is importable.
install_offline_encodings()

__version__ = "0.1.0"
