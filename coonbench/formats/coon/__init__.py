"""Format ``coon``: coonbench's lossless COON dialect for Dart/Flutter (spec: docs/coon.md).

Importing this package registers the ``coon`` and ``coon-comments`` formats (``format``). Its modules, in the
order data flows through them: ``tables`` (the dialect, from which everything else is generated), ``lexer`` (COON
text → tokens), ``words`` (the reading rules shared by decoder and encoder), ``decoder`` and ``layout`` (COON →
formatted Dart), ``encoder`` (Dart → COON), ``verifier`` (the encoder's self-check), ``docs`` (generated sections of
docs/coon.md). The public names below are re-exported from ``format``; import them from here.
"""

from coonbench._native import use_source

use_source(__name__)  # before any compiled module is imported: a stale build runs from source

from coonbench.formats.coon.format import (  # noqa: E402
    HEADER_PREFIX,
    TABLES,
    VERIFY_ENV,
    VERSION,
    CoonCommentsFormat,
    CoonFormat,
    decode,
    encode,
    label_aliases,
    macro_table,
    prefix_meanings,
    primer,
    type_aliases,
    validate,
    widget_aliases,
)

__all__ = [
    "HEADER_PREFIX",
    "TABLES",
    "VERIFY_ENV",
    "VERSION",
    "CoonCommentsFormat",
    "CoonFormat",
    "decode",
    "encode",
    "label_aliases",
    "macro_table",
    "prefix_meanings",
    "primer",
    "type_aliases",
    "validate",
    "widget_aliases",
]
