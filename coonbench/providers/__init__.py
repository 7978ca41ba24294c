"""Model providers coonbench adds to Inspect (registered through ``coonbench._registry``).

``gguf``: an in-process llama.cpp model, e.g. ``--model gguf/smollm2`` (needs ``pip install -e ".[local]"``).
Importing this package does not import llama_cpp; that happens when a model is first created.
"""

from coonbench.providers.gguf import GGUFModelAPI, GGUFProviderError, load_model, resolve_model_path, smollm2_path

__all__ = ["GGUFModelAPI", "GGUFProviderError", "load_model", "resolve_model_path", "smollm2_path"]
