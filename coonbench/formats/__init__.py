"""Format plug-ins: every module in this package registers one or more formats on import."""

from coonbench.formats.base import Format, FormatError, FormatKind, get_format, list_formats, register

__all__ = ["Format", "FormatError", "FormatKind", "get_format", "list_formats", "register"]
