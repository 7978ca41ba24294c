"""Format plug-ins: every module and subpackage in this package registers one or more formats on import.

``base`` imports all of them when a format is looked up, except ``base`` itself and names that start with ``_``
(helpers shared by several formats: ``_limits``, ``_compare``). A format made of several modules is a
subpackage (``coon``, ``tealeaf``) whose ``__init__`` registers it; the modules inside it are imported by that
``__init__``, not by the plug-in loader, so they need no underscore.
"""

from coonbench.formats.base import (
    Format,
    FormatError,
    FormatKind,
    format_label,
    get_format,
    language_of,
    list_formats,
    register,
)

__all__ = ["Format", "FormatError", "FormatKind", "format_label", "get_format", "language_of", "list_formats", "register"]
