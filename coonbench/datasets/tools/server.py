"""The tool server over one dataset: four tools shaped like a data MCP server's, whose results are encoded in the
format under test.

``describe_dataset`` (fields and their types), ``list_records(offset)`` (a page of ``PAGE_SIZE`` full records),
``find_records(field, value)`` (refs and identifiers of the records whose field equals the value) and
``get_record(ref)`` (one full record). Every result's data is ``{collection: [rows]}`` in the format (one shape, so
CSV, which holds only a list of flat rows, can carry a flat dataset), after one plain line saying what it is.
A bad argument is a ``ToolError`` the model reads (and may recover from), never an exception out of the sample.
Each call is recorded in the sample's ``ToolsState``: which identifiers it returned in full or by name, so the
scorer can tell an answer that misread what the tools returned from one that never fetched it.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.tool import Tool, ToolError, tool
from inspect_ai.util import store_as

from coonbench.datasets.retrieval.questions import _get
from coonbench.datasets.tools.questions import PAGE_SIZE, Collection, collections, matching
from coonbench.formats import FormatError, get_format
from coonbench.tasks.state import ToolsState

MAX_ARGUMENT_CHARS = 200
"""Longer tool arguments are refused (a model looping on itself must not make the server echo megabytes)."""
_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object", list: "array"}


class ToolServer:
    """The four tools' logic over one collection, in one format (no Inspect: ``call`` returns text and evidence)."""

    def __init__(self, coll: Collection, fmt: str) -> None:
        self.coll, self.fmt = coll, get_format(fmt)
        self.by_ref = {coll.ref(ident): i for i, ident in enumerate(coll.idents)}

    def encode(self, rows: list[dict[str, Any]], key: str | None = None) -> str:
        return self.fmt.encode({key or self.coll.collection: rows}).rstrip("\n")

    def check(self) -> str | None:
        """Why this format cannot carry this dataset's results (its own error), or None when it can."""
        try:
            self.encode(list(self.coll.rows))
            self.encode([self._summary(self.coll.idents[0])])
            self.describe()
        except FormatError as err:
            return err.message
        return None

    def _summary(self, ident: str) -> dict[str, Any]:
        return {"ref": self.coll.ref(ident), self.coll.id_field: ident}

    def describe(self) -> tuple[str, list[str], list[str]]:
        first = self.coll.rows[0]
        fields = [{"field": k, "type": _TYPES.get(type(v), "string")} for k, v in first.items()]
        head = (f"Dataset: {self.coll.description}. {len(self.coll.rows)} {self.coll.entities}, identified by "
                f"'{self.coll.id_field}'. Nested fields are named with dots (address.city).")
        return head + "\n" + self.encode(fields, "fields"), [], []

    def list_records(self, offset: int) -> tuple[str, list[str], list[str]]:
        n = len(self.coll.rows)
        if not 0 <= offset < n:
            raise ToolError(f"offset {offset} is out of range: the dataset has {n} {self.coll.entities} (0 to {n - 1})")
        end = min(offset + PAGE_SIZE, n)
        more = f" Next page: list_records(offset={end})." if end < n else " This is the last page."
        head = f"{self.coll.entities.capitalize()} {offset + 1}-{end} of {n}.{more}"
        rows = list(self.coll.rows[offset:end])
        return head + "\n" + self.encode(rows), self.coll.idents[offset:end], []

    def find_records(self, field: str, value: str) -> tuple[str, list[str], list[str]]:
        if not any(_get(row, field) is not None for row in self.coll.rows):
            raise ToolError(f"unknown field {field!r}: describe_dataset lists the fields")
        found = matching(self.coll, field, value)
        if not found:
            return f"No {self.coll.entities} have {field} = {value}.", [], []
        head = f"{len(found)} {self.coll.entities if len(found) > 1 else self.coll.entity} with {field} = {value} " \
               f"(get_record(ref) returns a full record):"
        return head + "\n" + self.encode([self._summary(i) for i in found]), [], found

    def get_record(self, ref: str) -> tuple[str, list[str], list[str]]:
        index = self.by_ref.get(ref.strip())
        if index is None:
            raise ToolError(f"no record has ref {ref!r} (find_records returns refs)")
        ident = self.coll.idents[index]
        return f"The {self.coll.entity} {ident}:\n" + self.encode([self.coll.rows[index]]), [ident], []

    def call(self, function: str, **arguments: Any) -> tuple[str, list[str], list[str]]:
        """(result text, identifiers returned in full, identifiers named); ToolError for a bad call."""
        for name, value in arguments.items():
            if len(str(value)) > MAX_ARGUMENT_CHARS:
                raise ToolError(f"argument {name} is longer than {MAX_ARGUMENT_CHARS} characters")
        if function == "describe_dataset":
            return self.describe()
        if function == "list_records":
            return self.list_records(int(arguments.get("offset", 0)))
        if function == "find_records":
            return self.find_records(str(arguments["field"]), str(arguments["value"]))
        if function == "get_record":
            return self.get_record(str(arguments["ref"]))
        raise ToolError(f"unknown tool {function!r}")


def _recorded(server: ToolServer, function: str, **arguments: Any) -> str:
    """Run one call and record it in the sample's ``ToolsState`` (an error too, then re-raised for the model)."""
    state = store_as(ToolsState)
    entry: dict[str, Any] = {"function": function, "arguments": arguments, "full": [], "named": [], "error": None}
    try:
        text, full, named = server.call(function, **arguments)
    except ToolError as err:
        entry["error"] = err.message
        state.calls = [*state.calls, entry]
        raise
    except FormatError as err:  # checked when the samples were built: a format that fails only now is a bug
        raise RuntimeError(f"{server.fmt.name} failed to encode a {function} result: {err.message}") from err
    entry.update(full=full, named=named)
    state.calls = [*state.calls, entry]
    return text


@tool(name="describe_dataset")
def describe_dataset(server: ToolServer) -> Tool:
    async def execute() -> str:
        """Describe the dataset: what it holds, how many records, and each record field with its type."""
        return _recorded(server, "describe_dataset")

    return execute


@tool(name="list_records")
def list_records(server: ToolServer) -> Tool:
    async def execute(offset: int = 0) -> str:
        """List full records, one page at a time (a page holds a few records; the reply says where the next starts).

        Args:
          offset: index of the first record to return (0 for the first page).
        """
        return _recorded(server, "list_records", offset=offset)

    return execute


@tool(name="find_records")
def find_records(server: ToolServer) -> Tool:
    async def execute(field: str, value: str) -> str:
        """Find the records whose field equals a value; returns each match's ref and identifier, not its fields.

        Args:
          field: the field to compare (dotted for nested fields, e.g. address.city).
          value: the value it must equal (case-insensitive; true/false for booleans).
        """
        return _recorded(server, "find_records", field=field, value=value)

    return execute


@tool(name="get_record")
def get_record(server: ToolServer) -> Tool:
    async def execute(ref: str) -> str:
        """Get one full record by the ref that find_records returned.

        Args:
          ref: the record's ref (rec-…).
        """
        return _recorded(server, "get_record", ref=ref)

    return execute


TOOL_FACTORIES = (describe_dataset, list_records, find_records, get_record)


def dataset_tools(metadata: dict[str, Any]) -> list[Tool]:
    """The four tools over a sample's dataset (``metadata['collection']``) in its format (``metadata['encoding']``)."""
    server = ToolServer(collections()[str(metadata["collection"])], str(metadata["encoding"]))
    return [factory(server) for factory in TOOL_FACTORIES]
