"""The language seam: the registry finds the built-in languages, a code format names its language, and a
language without a capability says so instead of crashing."""

from __future__ import annotations

from pathlib import Path

import pytest

from coonbench.formats import Format, FormatError, get_format, language_of, list_formats
from coonbench.formats import base as formats_base
from coonbench.languages import base as languages_base
from coonbench.languages import (
    Difference,
    Language,
    LanguageLacks,
    LanguageSyntaxError,
    Question,
    UnknownLanguage,
    get_language,
    list_languages,
)


def test_dart_is_registered_and_named_by_every_code_format() -> None:
    names = [lang.name for lang in list_languages()]
    assert "dart" in names
    code = [f for f in list_formats() if f.kind == "code"]
    assert code, "no code format registered"
    for fmt in code:
        assert language_of(fmt).name in names, fmt.name
    assert language_of("coon") is get_language("dart")


def test_a_data_format_has_no_language() -> None:
    with pytest.raises(FormatError, match="data format"):
        language_of(get_format("json"))


def test_unknown_language_names_the_known_ones() -> None:
    with pytest.raises(UnknownLanguage, match="dart"):
        get_language("cobol")


def test_dart_seam_converts_parse_errors() -> None:
    dart = get_language("dart")
    assert dart.parse_error("void main() {}") is None
    error = dart.parse_error("void main( {")
    assert isinstance(error, LanguageSyntaxError) and error.line == 1
    with pytest.raises(LanguageSyntaxError):
        dart.ast_diff("void main() {}", "void main( {")
    diff = dart.ast_diff("void main() {}", "void main() { print(1); }")
    assert diff is not None and "print(1);" in diff.right
    assert dart.ast_diff("void main() {}", "void  main()\n{\n}") is None


class _Bare(Language):
    name = "bare-test-language"
    label = "Bare"
    prompt_name = "Bare"
    program_noun = "Bare program"
    unit_noun = "Bare unit"
    extensions = (".bare",)
    fence = "bare"
    source_format = "bare"

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        return None

    def ast_diff(self, a: str, b: str) -> None:
        return None


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch) -> Language:
    """The bare language, registered for one test only."""
    language = _Bare()
    monkeypatch.setitem(languages_base._REGISTRY, language.name, language)
    return language


def test_missing_capabilities_raise_language_lacks(bare: Language) -> None:
    assert get_language("bare-test-language") is bare
    with pytest.raises(LanguageLacks, match="bare-test-language.*edit maker"):
        bare.make_edits("x", "", ["add-widget"])
    with pytest.raises(LanguageLacks, match="question generator"):
        bare.generate_questions("x", "")
    assert bare.answer_types() == {} and bare.corpus() is None


def test_a_task_refuses_a_language_without_what_it_needs(bare: Language) -> None:
    from coonbench.datasets.modification import build_modification_tasks
    from coonbench.datasets.user_corpus import select_corpus
    from coonbench.tasks.samples import TaskArgumentError

    with pytest.raises(TaskArgumentError, match="'bare-test-language' has no edit maker"):
        build_modification_tasks(files=[], language=bare)
    with pytest.raises(TaskArgumentError, match="ships no corpus"):
        select_corpus(None, None, bare)


class _BareFormat(Format):
    name = "bare-test-format"
    description = "a test format of the bare language"
    kind = "code"
    language = "bare-test-language"
    fence = "bare"

    def encode(self, source: object) -> str:
        return str(source)

    def decode(self, text: str) -> str:
        return text


def test_formats_of_two_languages_are_not_one_comparison(bare: Language, monkeypatch: pytest.MonkeyPatch) -> None:
    from coonbench.tasks.conditions import ConditionError, conditions_language, parse_conditions

    monkeypatch.setitem(formats_base._REGISTRY, _BareFormat.name, _BareFormat())
    assert conditions_language(parse_conditions("coon,dart", ())).name == "dart"
    with pytest.raises(ConditionError, match="different languages"):
        conditions_language(parse_conditions("coon,bare-test-format", ()))


def test_widget_names_are_read_through_the_dart_language() -> None:
    from coonbench.answers.normalize import answer_types, answers_match, language_types

    assert "widget-name" in answer_types() and "widget-name" in language_types()
    assert answers_match("the `Scaffold` widget", "Scaffold", "widget-name")[0]
    assert answers_match("S", "Scaffold", "widget-name", {"aliases": {"S": "Scaffold"}})[0]
    assert not answers_match("Column", "Row", "widget-name")[0]
    assert get_language("dart").answer_types()["widget-name"].baseline_reply == "Container"


def test_the_token_baseline_is_each_formats_language_source() -> None:
    from coonbench.scorers.answer import SOURCE_BASELINE, _baseline_of

    assert _baseline_of("coon", SOURCE_BASELINE) == "dart"
    assert _baseline_of("coon:full", SOURCE_BASELINE) == "dart"
    assert _baseline_of("dart-minified", SOURCE_BASELINE) == "dart"
    assert _baseline_of("coon", "json") == "json"


def test_the_report_compares_each_language_with_its_source_format() -> None:
    """The report's paired comparisons and verdicts take the first baseline present: Python's formats are set
    against ``python`` (they once fell to no baseline at all), Dart's against ``dart``, data against JSON."""
    from coonbench.report.tables import baseline_of

    assert baseline_of(["python", "python-json-ast", "python-minified"]) == "python"
    assert baseline_of(["coon", "dart", "dart-minified"]) == "dart"
    assert baseline_of(["json", "toon", "yaml"]) == "json"
    assert baseline_of(["python-minified", "toon"]) is None
    for lang in list_languages():
        assert baseline_of([f"{lang.source_format}-x", lang.source_format]) == lang.source_format


def test_a_name_is_registered_once() -> None:
    class Impostor(_Bare):
        name = "dart"

    before = get_language("dart")
    with pytest.raises(ValueError, match="registered twice"):
        languages_base.register_language(Impostor())
    assert get_language("dart") is before


class _Lines(_Bare):
    """A toy language: a program is its non-blank lines, stripped (layout is everything else)."""

    name = "lines-test-language"
    label = "Lines"
    prompt_name = "Lines"
    extensions = (".lines",)
    fence = "lines"
    source_format = "lines-test-format"
    plain_formats = frozenset({"lines-test-format"})
    question_types = ("counting",)

    @staticmethod
    def _tree(source: str) -> list[str]:
        return [line.strip() for line in source.splitlines() if line.strip()]

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        bad = next((n for n, line in enumerate(source.splitlines(), 1) if "!" in line), None)
        return None if bad is None else LanguageSyntaxError("'!' is no Lines", bad, 1)

    def ast_diff(self, a: str, b: str) -> Difference | None:
        for side in (a, b):
            self.check_syntax(side)
        x, y = self._tree(a), self._tree(b)
        if x == y:
            return None
        i = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
        return Difference(f"line[{i}]", x[i] if i < len(x) else "<nothing>", y[i] if i < len(y) else "<nothing>")

    def measure(self, source: str) -> dict[str, object]:
        self.check_syntax(source)
        loc = len(self._tree(source))
        return {"loc": loc, "cyclomatic": 1, "gci": round(loc / (loc + 10), 4)}

    def generate_questions(self, sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
        lines = self._tree(source)
        return [Question(f"{sample_id}-count", sample_id, "counting", "lines", "How many lines does it have?",
                         str(len(lines)), "integer")]


class _LinesFormat(_BareFormat):
    name = "lines-test-format"
    description = "a Lines program as written"
    language = "lines-test-language"
    fence = "lines"


def test_a_second_language_runs_comprehension_on_its_own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seam end to end, with a language that is not Dart: ``-T corpus=DIR`` reads its files (by extension),
    its questions are asked in its format, a file it cannot parse is skipped with its reason, and Dart's words
    appear nowhere in the prompt."""
    from coonbench.datasets.comprehension import comprehension_samples

    monkeypatch.setitem(languages_base._REGISTRY, _Lines.name, _Lines())
    monkeypatch.setitem(formats_base._REGISTRY, _LinesFormat.name, _LinesFormat())
    (tmp_path / "a.lines").write_text("one\n  two\n\nthree\n")
    (tmp_path / "b.lines").write_text("only\n")
    (tmp_path / "bad.lines").write_text("fine\nnot!\n")
    (tmp_path / "ignored.dart").write_text("void main() {}\n")
    samples, skips = comprehension_samples(formats="lines-test-format", corpus=str(tmp_path))
    assert sorted(s.metadata["sample_id"] for s in samples) == ["user-a", "user-b"]
    assert {s.metadata["sample_id"]: s.target for s in samples} == {"user-a": "3", "user-b": "1"}
    assert all("Lines code" in s.input and "Flutter" not in s.input for s in samples), samples[0].input
    assert [(k.item, k.reason) for k in skips] == [("bad.lines", "does not parse: line 2: '!' is no Lines")]


def test_format_labels_are_the_formats_own() -> None:
    """One table of how sentences and prompts name a format: the formats' ``label``/``prompt_label`` (a subclass
    that names none is shown by its registry name, not by its parent's label)."""
    from coonbench.datasets.retrieval.common import format_label as retrieval_label
    from coonbench.formats import format_label

    assert (format_label("coon"), format_label("coon", prompt=True)) == ("COON", "COON (a compressed notation for Dart)")
    assert format_label("dart-minified", prompt=True) == "minified Dart"
    assert format_label("coon-comments", prompt=True) == "coon-comments"
    assert format_label("coon-comments", "the fallback", prompt=True) == "the fallback"
    assert retrieval_label("json-compact") == "JSON compact" and retrieval_label("no-such-format") == "NO-SUCH-FORMAT"
