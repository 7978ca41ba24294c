"""The language seam: the registry finds the built-in languages, a code format names its language, and a
language without a capability says so instead of crashing."""

from __future__ import annotations

import pytest

from coonbench.formats import FormatError, get_format, language_of, list_formats
from coonbench.languages import (
    Language,
    LanguageLacks,
    LanguageSyntaxError,
    UnknownLanguage,
    get_language,
    list_languages,
    register_language,
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


def test_missing_capabilities_raise_language_lacks() -> None:
    bare = register_language(_Bare())
    assert get_language("bare-test-language") is bare
    with pytest.raises(LanguageLacks, match="bare-test-language.*edit maker"):
        bare.make_edits("x", "", ["add-widget"])
    with pytest.raises(LanguageLacks, match="question generator"):
        bare.generate_questions("x", "")
    assert bare.answer_types() == {} and bare.corpus() is None
