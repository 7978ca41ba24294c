"""Checking a reply that should hold a data document: extract it, decode it with its format, compare the data.

Shared by the writing task's repair loop (``solvers.writing``, which feeds the result's ``feedback`` back) and
its scorer (``scorers.writing``), so both judge a document the same way. Never raises for bad text.

The data is compared exactly (``coonbench.formats._compare``): types are compared (a string is never a number, a
boolean never a number, null never an empty string), numbers by value (TOON and YAML write 12.0 as 12), key order
not at all (no registered data format makes the order of an object's keys part of its data: JSON and YAML objects
are unordered by their specifications, and TOON's and CSV's field order is a header's).

What goes back to the model is only the decoder's positioned error or the place and kind of the first data
difference (``$.users[2].age: wrong value``), never a value the document should hold.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from coonbench.answers.extract import extract_code
from coonbench.formats import FormatError, get_format
from coonbench.formats._compare import locate_difference

PASS = "PASS"
NO_DOCUMENT = "NO_DOCUMENT"
PARSE_ERROR = "PARSE_ERROR"
WRONG_DATA = "WRONG_DATA"
SOURCE_FORMAT = "SOURCE_FORMAT"
OUTCOMES = (PASS, NO_DOCUMENT, PARSE_ERROR, WRONG_DATA, SOURCE_FORMAT)
"""Every outcome of one document; all but PASS are error types (counted per attempt as ``n_<outcome>``)."""

KIND_WORDS = {
    "missing key": "a key is missing here",
    "unexpected key": "this key should not be here",
    "key order": "the keys are in another order",
    "item count": "wrong number of items in this list",
    "type": "wrong type of value",
    "value": "wrong value",
}


@dataclass
class DocumentCheck:
    """One reply as a document: the outcome, the text read as the document, and what to tell the model."""

    outcome: str
    document: str | None
    feedback: str
    line: int | None = None
    column: int | None = None
    expected: str | None = None
    path: str | None = None
    difference: str | None = None  # the kind of the first data difference (KIND_WORDS' keys)

    @property
    def ok(self) -> bool:
        return self.outcome == PASS

    @property
    def parsed(self) -> bool:
        return self.outcome in (PASS, WRONG_DATA)

    def record(self, attempt: int, output_tokens: int | None = None) -> dict[str, Any]:
        """The attempt as stored in the log (``WritingState.attempts``)."""
        return {**asdict(self), "attempt": attempt, "output_tokens": output_tokens}


def document_text(reply: str, fence: str) -> str | None:
    """The document in a reply: its fenced block (in the format's fence, else the last one), else the whole reply
    (a structured-output reply, or a model that wrote the document bare); None for an empty reply."""
    if not reply or not reply.strip():
        return None
    try:
        found = extract_code(reply, fence)
    except Exception:  # noqa: BLE001 - a garbage reply is read as it is
        found = None
    return found if found is not None and found.strip() else reply.strip()


def reads_as(format_name: str, text: str) -> bool:
    """Whether ``format_name``'s decoder reads ``text`` (any value, no error)."""
    try:
        get_format(format_name).decode(text)
    except Exception:  # noqa: BLE001 - any failure means "not that format"
        return False
    return True


def _where(err: FormatError) -> str:
    if err.line is None:
        return ""
    return f"line {err.line}" + (f", column {err.column}" if err.column is not None else "") + ": "


def check_document(reply: str | None, format_name: str, expected: Any, source: str | None = None) -> DocumentCheck:
    """Decode the reply's document with ``format_name``'s decoder and compare it with ``expected``.

    ``source``: the format the data was shown in, when it was. A document that format's decoder reads is the
    source copied (JSON is YAML too), not a document written in the format asked for (the loader leaves out the
    pairs whose documents the source's decoder reads in any case)."""
    fmt = get_format(format_name)
    text = document_text(reply or "", fmt.fence)
    if text is None:
        return DocumentCheck(NO_DOCUMENT, None, "your reply holds no document")
    if source is not None and source != format_name and reads_as(source, text):
        return DocumentCheck(SOURCE_FORMAT, text, f"the document is written in {source}, the format it was shown "
                             f"in, not in {format_name}")
    try:
        decoded = fmt.decode(text)
    except FormatError as err:
        said = _where(err) + err.message + (f" (expected {err.expected})" if err.expected else "")
        return DocumentCheck(PARSE_ERROR, text, f"the document does not parse: {said}", err.line, err.column,
                             err.expected)
    except Exception as err:  # noqa: BLE001 - a decoder crash on garbage is the document's failure
        return DocumentCheck(PARSE_ERROR, text, f"the document does not parse ({type(err).__name__})")
    found = locate_difference(expected, decoded, numbers_by_value=True, key_order=False)
    if found is None:
        return DocumentCheck(PASS, text, "")
    return DocumentCheck(WRONG_DATA, text, f"the document parses, but its data differs at {found.path}: "
                         f"{KIND_WORDS[found.kind]}", path=found.path, difference=found.kind)


def source_of(metadata: dict[str, Any]) -> str | None:
    """The format a writing sample showed its data in (``metadata["source"]``), None for a description."""
    source = metadata.get("source")
    return None if source in (None, "description") else str(source)
