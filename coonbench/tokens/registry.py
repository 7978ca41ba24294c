"""The tokenizer registry: every tokenizer a count can be asked in, by name, each loaded offline on first use.

A tokenizer is registered like a format (``coonbench.formats.register``): the built-in ones by
``coonbench.tokens.vendors`` on first lookup, a plug-in's by its ``coonbench.tokenizers`` entry point. Loading is
lazy because the vocabularies are large (Tekken's is 19 MB) and most commands count in one tokenizer only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, entry_points, version
from threading import Lock

Counter = Callable[[str], int]
"""Text → its number of tokens: no BOS/EOS, special-token text counted as ordinary text (a document may quote
``<s>``)."""


def pip_install(extra: str | None = None) -> str:
    """The command that installs coonbench (with ``extra``) the way this one was installed: an editable install
    from a checkout (``pip install -e ".[local]"``, run in the checkout), else from the package index or a wheel
    (``pip install "coonbench[local]"``). Here because every install hint (tokenizers, the local model provider)
    can import this leaf package; read from the installed distribution's ``direct_url.json`` (PEP 610)."""
    import json
    from importlib.metadata import distribution

    try:
        direct = distribution("coonbench").read_text("direct_url.json")
        editable = bool(json.loads(direct or "{}").get("dir_info", {}).get("editable"))
    except (PackageNotFoundError, ValueError):
        editable = True  # not installed at all: a checkout on PYTHONPATH
    if editable:
        return f'pip install -e ".[{extra}]"' if extra else "pip install -e ."
    return f'pip install "coonbench[{extra}]"' if extra else "pip install coonbench"


class TokenizerUnavailable(RuntimeError):
    """A registered tokenizer whose package is not installed here; the message says what to install."""


@dataclass(frozen=True)
class Tokenizer:
    """One tokenizer: its name, where its vocabulary comes from, and how to load its counter."""

    name: str
    family: str  # whose models use it ("OpenAI GPT-4o, o-series", "Mistral (Tekken)", ...)
    package: str  # the installed distribution the vocabulary is read from (its version is the vocabulary's)
    licence: str
    load: Callable[[], Counter] = field(repr=False, compare=False)
    install: str = ""  # what to install when ``package`` is missing

    def version(self) -> str | None:
        """The installed version of ``package`` (None when it is not installed)."""
        try:
            return version(self.package)
        except PackageNotFoundError:
            return None

    def counter(self) -> Counter:
        """The loaded counter (loaded once per process). TokenizerUnavailable when its package is missing."""
        with _LOCK:
            if self.name not in _COUNTERS:
                try:
                    _COUNTERS[self.name] = self.load()
                except ImportError as err:
                    hint = f"; install it with: {self.install}" if self.install else ""
                    raise TokenizerUnavailable(f"tokenizer '{self.name}' needs {self.package} ({err}){hint}") from err
            return _COUNTERS[self.name]


_REGISTRY: dict[str, Tokenizer] = {}
_COUNTERS: dict[str, Counter] = {}
_LOCK = Lock()
BUILTIN_MODULE = "coonbench.tokens.vendors"
ENTRY_POINT_GROUP = "coonbench.tokenizers"


def register_tokenizer(tokenizer: Tokenizer) -> Tokenizer:
    """Add a tokenizer to the registry (called at import time by ``vendors`` and by plug-in modules)."""
    known = _REGISTRY.get(tokenizer.name)
    if known is not None and known != tokenizer:
        raise ValueError(f"tokenizer name '{tokenizer.name}' registered twice")
    _REGISTRY[tokenizer.name] = tokenizer
    return tokenizer


@cache
def _load_plugins() -> None:
    """Import the built-in tokenizers, then third-party ``coonbench.tokenizers`` entry points (once)."""
    importlib.import_module(BUILTIN_MODULE)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        ep.load()


def get_tokenizer(name: str) -> Tokenizer:
    """The registered tokenizer called ``name``; ValueError naming the known ones otherwise."""
    if name not in _REGISTRY:
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown encoding '{name}' (expected one of {', '.join(tokenizer_names())})") from None


def tokenizer_names() -> list[str]:
    """Every registered tokenizer's name, the built-in ones first in their documented order."""
    _load_plugins()
    return list(_REGISTRY)
