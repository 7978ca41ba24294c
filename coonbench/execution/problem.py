"""The problem specification shared by executors, the dataset loader and the scorer (pydantic schema)."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from coonbench.execution.types import TypeExpr, TypeSyntaxError, parse_type, type_mismatch

PUBLIC_TESTS = 3
"""The first tests of a problem file are public: shown in the prompt, the only ones feedback may quote."""


def _case_key(case: Any) -> str:
    """What identifies a test's call (its arguments, and ``then_call``): equal calls land in the same set."""
    return json.dumps([case.input, getattr(case, "then_call", None)], sort_keys=True, default=repr)


def _stratum(case: Any) -> tuple[bool, str]:
    """Tests are split per kind (an expected error or a value; HumanEval's assertion kind), so that each kind
    reaches the grading set: a program that raises for every input it was not shown must fail it."""
    return getattr(case, "expected_error", None) is not None, str(getattr(case, "kind", ""))


def split_tests(cases: list[Any], pinned: int = 0) -> tuple[list[Any], list[Any]]:
    """(feedback set, grading set) of a problem's hidden tests, disjoint by call: the first ``pinned`` (hand-written,
    or HumanEval's own) go to grading; the others alternate per kind, the first of each kind to grading (a kind
    with one test is graded, never fed back). A call equal to one already placed goes where that one went."""
    feedback: list[Any] = []
    grading: list[Any] = []
    side: dict[str, bool] = {}  # call -> graded?
    counts: dict[tuple[bool, str], int] = {}
    for i, case in enumerate(cases):
        key = _case_key(case)
        if key not in side:
            if i < pinned:
                side[key] = True
            else:
                n = counts.get(_stratum(case), 0)
                counts[_stratum(case)] = n + 1
                side[key] = n % 2 == 0
        (grading if side[key] else feedback).append(case)
    return feedback, grading
CATEGORIES = (
    "basic",
    "recursion",
    "algorithms",
    "higher-order",
    "numeric",
    "strings",
    "data-structures",
    "errors",
)
COMPLEXITY_BANDS = ("basic", "intermediate", "advanced")
_IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")


def _snake_case(v: str) -> str:
    """Function and parameter names are shared by every target language, so they must be snake_case."""
    if not _IDENT.match(v):
        raise ValueError(f"name {v!r} must be snake_case")
    return v


def _type_text(v: str) -> str:
    """A type written in the problem's type language (checked by parsing it)."""
    try:
        parse_type(v)
    except TypeSyntaxError as exc:
        raise ValueError(str(exc)) from exc
    return v


SnakeName = Annotated[str, AfterValidator(_snake_case)]
TypeText = Annotated[str, AfterValidator(_type_text)]


class Param(BaseModel):
    """One parameter: a language-neutral name and type."""

    model_config = ConfigDict(extra="forbid")
    name: SnakeName
    type: TypeText


class Signature(BaseModel):
    """Function name, parameters and return type (same name in every target language)."""

    model_config = ConfigDict(extra="forbid")
    name: SnakeName
    params: list[Param]
    returns: TypeText

    @property
    def return_type(self) -> TypeExpr:
        """The parsed return type."""
        return parse_type(self.returns)


class TestCase(BaseModel):
    """Inputs → expected output (optionally within an absolute tolerance) or an expected error.

    ``then_call``: when the function returns a function, call it with these arguments and compare that result.
    ``expected_error``: ``value_error`` = Python raises ``ValueError`` (or a subclass); JavaScript throws anything
    but a TypeError/ReferenceError/SyntaxError/EvalError/URIError or a stack overflow (those are bugs, not
    deliberate signals).
    """

    __test__ = False  # not a pytest class
    model_config = ConfigDict(extra="forbid")
    input: list[Any]
    expected: Any = None
    tolerance: float | None = Field(default=None, ge=0)
    expected_error: Literal["value_error"] | None = None
    then_call: list[Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _has_outcome(cls, data: Any) -> Any:
        if isinstance(data, dict) and ("expected" in data) == ("expected_error" in data):
            raise ValueError("a test case needs exactly one of 'expected' and 'expected_error'")
        return data


class ParamDomain(BaseModel):
    """What the statement allows for one parameter (hidden-test generators stay inside it).

    ``min``/``max`` bound an int/float (or each element of a list / each value of a dict); ``min_len``/``max_len``
    bound a string's or list's length; ``alphabet`` lists the characters a string may use; ``sorted``/``unique``
    hold for a list; ``choices`` lists every allowed value, ``items`` every allowed element of a list;
    ``rectangular``: a list of rows of one length (>= 1); ``at_least``: the value is >= the named parameter's.
    """

    model_config = ConfigDict(extra="forbid")
    min: float | None = None
    max: float | None = None
    min_len: int | None = Field(default=None, ge=0)
    max_len: int | None = Field(default=None, ge=0)
    alphabet: str | None = None
    sorted: bool = False
    unique: bool = False
    choices: list[Any] | None = None
    items: list[Any] | None = None
    rectangular: bool = False
    at_least: str | None = None


class Problem(BaseModel):
    """One function specification with its tests and reference solutions.

    ``tests``: written by hand; the first ``PUBLIC_TESTS`` are public (prompt examples), the rest hidden.
    ``generated``: hidden tests made by ``coonbench.datasets.correction_tests`` (attached by the loader, never
    written in the problem file). ``domain``: per-parameter preconditions for the generators.
    """

    model_config = ConfigDict(extra="forbid")
    id: str
    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    complexity: Literal[COMPLEXITY_BANDS]  # type: ignore[valid-type]
    signature: Signature
    description: str
    tests: list[TestCase] = Field(min_length=2)
    solutions: dict[Literal["python", "javascript"], str]
    domain: dict[str, ParamDomain] = Field(default_factory=dict)
    generated: list[TestCase] = Field(default_factory=list)
    public: int = Field(default=PUBLIC_TESTS, ge=1)
    """How many of ``tests`` (the first) are public: 3 in our files; the Goth battery's split says per problem
    (``coonbench.datasets.goth_battery``)."""

    @property
    def public_tests(self) -> list[TestCase]:
        """Shown in the prompt; feedback may quote their inputs and expected values."""
        return self.tests[:self.public]

    @property
    def hidden_tests(self) -> list[TestCase]:
        """Never quoted: the remaining hand-written tests and every generated one."""
        return self.tests[self.public:] + self.generated

    @property
    def all_tests(self) -> list[TestCase]:
        """Public tests first, then hidden: ``correct`` and every metric are decided on all of them."""
        return self.tests + self.generated

    @property
    def feedback_tests(self) -> list[TestCase]:
        """The hidden tests feedback is computed from (about half the generated ones; ``split_tests``)."""
        return split_tests(self.hidden_tests, len(self.tests[self.public:]))[0]

    @property
    def grading_tests(self) -> list[TestCase]:
        """The hidden tests no message ever reflects: the hand-written hidden tests and the rest of the generated."""
        return split_tests(self.hidden_tests, len(self.tests[self.public:]))[1]

    @field_validator("solutions")
    @classmethod
    def _python_required(cls, v: dict[str, str]) -> dict[str, str]:
        if "python" not in v:
            raise ValueError("a python reference solution is required")
        return v

    @model_validator(mode="after")
    def _arity(self) -> Problem:
        n = len(self.signature.params)
        unknown = set(self.domain) - {p.name for p in self.signature.params}
        if unknown:
            raise ValueError(f"domain names unknown parameter(s) {sorted(unknown)}")
        for i, case in enumerate(self.tests + self.generated):
            if len(case.input) != n:
                raise ValueError(f"tests[{i}].input has {len(case.input)} arguments, signature has {n}")
            ret = self.signature.return_type
            if case.then_call is not None and ret.kind != "fn":
                raise ValueError(f"tests[{i}].then_call needs a function return type")
            if ret.kind == "fn" and case.then_call is None:
                raise ValueError(f"tests[{i}]: a function return type needs then_call")
            for param, arg in zip(self.signature.params, case.input):
                msg = type_mismatch(arg, parse_type(param.type), f"tests[{i}].input {param.name}")
                if msg:
                    raise ValueError(msg)
            if case.expected_error is None:
                msg = type_mismatch(case.expected, ret.args[-1] if ret.kind == "fn" else ret, f"tests[{i}].expected")
                if msg:
                    raise ValueError(msg)
        return self

    def expected_text(self, case: TestCase) -> str:
        """How a case's expected value reads in messages."""
        return json.dumps(case.expected, ensure_ascii=False)

    def hidden_texts(self) -> list[str]:
        """Every hidden input, call and expected value as messages would write them (what feedback must never
        carry; see ``base.redact_hidden``)."""
        out: list[str] = []
        for case in self.hidden_tests:
            out.append(self.call_text(case))
            out.extend(json.dumps(a, ensure_ascii=False) for a in case.input)
            out.extend(a for a in case.input if isinstance(a, str))
            if case.expected_error is None:
                out.append(self.expected_text(case))
        return out

    def call_text(self, case: TestCase) -> str:
        """How a case reads in messages: ``name(1, [2, 3])`` (then ``(4)`` for a returned function)."""
        text = f"{self.signature.name}({', '.join(json.dumps(a) for a in case.input)})"
        if case.then_call is not None:
            text += f"({', '.join(json.dumps(a) for a in case.then_call)})"
        return text
