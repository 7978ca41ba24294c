"""The registered formats ``coon`` and ``coon-comments``, and the codec's public API (re-exported by the package).

Everything here is generated from the tables in ``tables`` — encoder, decoder, validator, the primer and the
table section of the docs — so none of them can drift from the others.

Public API: ``encode(src, keep_comments=False, header=False, verify=None)`` (verifies its own round trip unless
``verify=False`` or ``COONBENCH_COON_VERIFY=0``; see ``verifier``), ``decode(text)``, ``validate(text)``,
``primer(variant)``, ``TABLES``, ``widget_aliases()``, ``label_aliases()``, ``type_aliases()``, ``macro_table()``,
``prefix_meanings()``, ``VERSION``. The registered ``coon`` format drops comments; ``coon-comments`` keeps them.
"""

from __future__ import annotations

import time
from functools import lru_cache

from types import MappingProxyType
from typing import Any, Final, Literal

from coonbench.dart.parse import FRAGMENT_WRAPPERS, DartParseError, first_error, parse_dart
from coonbench.formats.coon.decoder import decode, decode_tokens
from coonbench.formats.coon.legend import document_and_legend
from coonbench.formats.coon.words import macro_text
from coonbench.formats.coon.verifier import VERIFY_ENV, encode
from coonbench.formats.coon.tables import (
    ALIAS_WORDS,
    CALL_ENUMS,
    CLASHES,
    ENUM_LABELS,
    HEADER_PREFIX,
    IMPLIED,
    LABELS,
    MACROS,
    PREFIXES,
    TYPES,
    VERSION,
    WIDGETS,
)
from coonbench.formats._design import DesignThresholds
from coonbench.formats.base import Format, FormatError, register
from coonbench.dart.minify import join_tokens


TABLES: Final = MappingProxyType(
    {
        "widgets": WIDGETS,  # full name → abbreviation (call position)
        "types": TYPES,  # full name → abbreviation (anywhere)
        "labels": LABELS,  # named-argument label → label word
        "enum_labels": ENUM_LABELS,  # label → enum type implied by ``word.member`` / ``label:.member``
        "implied": IMPLIED,  # label → constructor implied by ``word(…)``
        "call_enums": CALL_ENUMS,  # call → type implied by ``Call(.member)``
        "macros": MACROS,  # macro name → Dart tokens
        "prefixes": PREFIXES,  # prefix → meaning
        "alias_words": ALIAS_WORDS,  # the N-th repeats alias N of a document (rule 11)
        "clashes": CLASHES,  # upstream entry → how it is resolved
    }
)


def widget_aliases() -> dict[str, str]:
    """Abbreviation → full widget/class name (what a normaliser accepts as a widget name)."""
    return {abbr: full for full, abbr in WIDGETS.items()}


def type_aliases() -> dict[str, str]:
    """Abbreviation → full type name."""
    return {abbr: full for full, abbr in TYPES.items()}


def label_aliases() -> dict[str, str]:
    """Label word → full named-argument label (identity entries included: they drop the colon)."""
    return {word: full for full, word in LABELS.items()}


def macro_table() -> dict[str, str]:
    """``#name`` → the Dart it stands for."""
    return {f"#{name}": macro_text(name) for name in MACROS}


def prefix_meanings() -> dict[str, str]:
    """Prefix → meaning."""
    return dict(PREFIXES)


# --- validation -------------------------------------------------------------------------------------------------


def _dart_error_at(dart: str) -> tuple[int, int, str, str] | None:
    """(start, end char offsets, message, expected) of the furthest-reaching parse error over all fragment
    readings; None when some reading parses."""
    best: tuple[int, int, str, str] | None = None
    for _kind, prefix, suffix in FRAGMENT_WRAPPERS:
        wrapped = prefix + dart + suffix
        try:
            tree = parse_dart(wrapped, strict=False)
        except DartParseError as err:  # no tree at all (the parser gave up, or text that is not Unicode)
            return (0, len(dart), err.message, "valid Dart")
        bad = first_error(tree.root_node)
        if bad is None:
            return None
        data = wrapped.encode("utf-8")

        def char(byte: int) -> int:
            return max(0, min(len(data[:byte].decode("utf-8", "replace")) - len(prefix), len(dart)))

        start, end = char(bad.start_byte), char(bad.end_byte)
        if bad.is_missing:
            message, expected = f"missing '{bad.type}'", f"'{bad.type}'"
        else:
            message, expected = "syntax error", "valid Dart syntax here"
        if best is None or start > best[0]:
            best = (start, end, message, expected)
    return best


def _operand_end(tok: str) -> bool:
    return bool(tok) and (tok[-1].isalnum() or tok[-1] in "_$'\")]") and tok not in _NOT_OPERANDS


def _operand_start(tok: str) -> bool:
    return bool(tok) and (tok[0].isalnum() or tok[0] in "_$'\"([{") and tok not in _CONTINUATIONS


_NOT_OPERANDS = frozenset("return in is as else case new const final var async await yield extends with".split())
_CONTINUATIONS = frozenset("in is as else extends with implements on catch finally async".split())


MAX_REPAIRS = 12
REPAIR_BUDGET_S = 0.3
"""CPU seconds the validator spends looking for a missing separator (each try re-parses the document)."""


def _token_offsets(dart: str, texts: list[str]) -> list[int]:
    """Char offset of each token in ``dart`` (only whitespace separates them)."""
    offsets, pos = [], 0
    for text in texts:
        start = dart.find(text, pos)
        start = pos if start < 0 else start
        offsets.append(start)
        pos = start + len(text)
    return offsets


def _missing_separator(texts: list[str], first: int, last: int) -> tuple[int, str] | None:
    """(index of the token before which a ',' or ';' repairs the error, separator) within tokens first..last.

    At most ``MAX_REPAIRS`` candidate positions, and ``REPAIR_BUDGET_S`` of CPU, are spent, so a long garbage reply
    stays cheap to validate.
    """
    tried = 0
    deadline = time.process_time() + REPAIR_BUDGET_S
    for k in range(max(first, 1), min(last + 1, len(texts))):
        if not (_operand_end(texts[k - 1]) and _operand_start(texts[k])):
            continue
        if tried >= MAX_REPAIRS or time.process_time() > deadline:
            break
        tried += 1
        for sep in (",", ";"):
            repaired = join_tokens(texts[:k] + [sep] + texts[k:])
            found = _dart_error_at(repaired)
            if found is None or found[0] > len(join_tokens(texts[: k + 1])) + 1:
                return k, sep
    return None


def validate(text: str) -> list[FormatError]:
    """Positioned errors of a COON document (lexical, brackets, macros, then Dart syntax); [] when valid."""
    try:
        toks = decode_tokens(text)
    except FormatError as err:
        return [err]
    if not toks:
        return []
    texts = [t.text for t in toks]
    # The minimal join parses exactly like ``decode``'s layout (which only adds whitespace), without the layout's
    # indentation: on 10,000 nested brackets that is 40 KB to parse instead of 1.6 MB.
    dart = join_tokens(texts)
    found = _dart_error_at(dart)
    if found is None:
        return []
    start, end, message, expected = found
    offsets = _token_offsets(dart, texts)
    index = next((k for k, off in enumerate(offsets) if off + len(texts[k]) > start), len(toks) - 1)
    last = next((k for k, off in enumerate(offsets) if off >= max(end, start + 1)), len(toks) - 1)
    repair = _missing_separator(texts, index, max(last, index + 1))
    if repair is not None:
        k, sep = repair
        here = toks[k]
        return [
            FormatError(
                f"missing separator before {here.text!r}", here.line, here.column, expected=f"'{sep}'"
            )
        ]
    here = toks[index]
    return [FormatError(f"{message} at {here.text!r}", here.line, here.column, expected=expected)]


# --- primer -----------------------------------------------------------------------------------------------------


def _table_line(pairs: dict[str, str], arrow: str = "=") -> str:
    return ", ".join(f"{a}{arrow}{b}" for a, b in pairs.items())


def _implied_line() -> str:
    return ", ".join(f"{LABELS.get(label, label)}(…) = {label}: {full}(…)" for label, full in IMPLIED.items())


@lru_cache(maxsize=None)
def primer(variant: Literal["short", "full"] = "short") -> str:
    """What a model is told about COON, generated from the tables (``short`` or ``full``); built once per variant."""
    widgets = widget_aliases()
    labels = {w: f for w, f in label_aliases().items() if w != f}
    same = [w for w, f in label_aliases().items() if w == f]
    macros = macro_table()
    if variant == "short":
        top_w = dict(list(widgets.items())[:20])
        top_l = dict(list(labels.items())[:16])
        top_m = {m: macros[m] for m in ("#m", "#B", "#SL", "#SF", "#sa", "#ss") if m in macros}
        return (
            f"COON v{VERSION}: compressed Dart/Flutter. Widget abbreviations (before '(' or '.'): "
            f"{_table_line(top_w)}. Named-argument labels (written without ':' before a word, e.g. `c T('a')` = "
            f"`child: Text('a')`): {_table_line(top_l)}. Types: {_table_line(type_aliases())}. "
            "`@16` = EdgeInsets.all(16), `@@16` = const EdgeInsets.all(16); "
            "`A.center` = mainAxisAlignment: MainAxisAlignment.center; "
            f"implied constructors: {_implied_line()}; `^x` = required this.x; "
            "macros: " + "; ".join(f"`{m}` = `{d}`" for m, d in top_m.items()) + " ({Class} = the name of the "
            "last declared class); `x#` = `x.of(context)`; `` `x `` = identifier x as is. `\\x` defines alias N "
            "for the word or string x (N = 1, 2, … in order of definition); after it the N-th alias word "
            f"({' '.join(ALIAS_WORDS[:24])} …) and `\\N` repeat it. `import ':a/b',':a','../c';` = "
            "`import 'package:a/b.dart';import 'package:a/a.dart';import '../c.dart';` (export, part alike); after "
            "`':a/d/b'`, `':./c'` = `':a/d/c'`, `':../c'` = `':a/c'`, `':/c'` = `':a/c'`. Other "
            "strings and numbers are verbatim."
        )
    if variant != "full":
        raise FormatError(f"unknown primer variant {variant!r}", expected="'short' or 'full'")
    lines = [
        f"COON v{VERSION} is a lossless compressed notation for Dart/Flutter source (coonbench dialect).",
        "It is Dart's own token stream with these changes; everything else (keywords, operators, ';', strings, "
        "numbers, comments) is written exactly as in Dart. Whitespace only separates words.",
        f"1. Widget/class abbreviations, used directly before '(' or '.': {_table_line(widgets)}.",
        f"2. Type abbreviations, used anywhere: {_table_line(type_aliases())}.",
        "3. A named argument at the start of an argument (after '(' or ',') is written as its label word "
        "WITHOUT ':' when the value starts with a word, a number, @N or a macro (`c T('a')` = `child: Text('a')`), "
        f"and with ':' otherwise (`h:[…]`, `t:'x'`). Label words: {_table_line(labels)}; these labels keep their "
        f"own name: {', '.join(same)}. Any other label is written `name:` as in Dart.",
        "4. Directly after an enum label's word (or after a label's ':'), `.member` implies the label's enum type: "
        + ", ".join(f"{label}→{enum}" for label, enum in ENUM_LABELS.items())
        + " (`A.center` = `A:.center` = `mainAxisAlignment: MainAxisAlignment.center`). Directly after the '(' of "
        + ", ".join(f"{call}→{enum}" for call, enum in CALL_ENUMS.items())
        + " the same holds for the first argument (`Ic(.home)` = `Icon(Icons.home)`).",
        f"5. Implied constructors: a label word directly followed by '(' or by 'const(': {_implied_line()} "
        "(`s const(z 14)` = `style: const TextStyle(fontSize: 14)`).",
        "6. Macros ({Class} is the name of the most recently declared class, the word after the last `class`): "
        + "; ".join(f"`{m}` = `{d}`" for m, d in macros.items())
        + ". So `class Hello #SL #B T('hi');}}` is a whole StatelessWidget.",
        "7. `@N` (N a number) = `EdgeInsets.all(N)`, `@@N` = `const EdgeInsets.all(N)`; `@name` is an annotation "
        "as in Dart. `^name` after '(', '{', '[' or ',' = `required this.name`.",
        "8. A backtick writes an identifier as is, never expanded: `` `T `` is the identifier T, `` `c: `` the "
        "label c:. `#`` is a literal '#' (symbol literals). A '#' that no name or backtick follows is "
        "`.of(context)`: `Theme#.textTheme` = `Theme.of(context).textTheme`.",
        "9. Per-document aliases: a backslash directly before a word, `word or string defines the next alias "
        "(numbered 1, 2, … in order of definition) and writes it as usual; `\\N` later stands for that word or "
        "string again (`final \\items=[];\\1.add(x)` = `final items = []; items.add(x)`), and so does the N-th "
        "alias word written as a bare word after the definition (`final \\items=[];q.add(x)`; a name spelled like a "
        f"defined alias word is written `` `q ``). Alias words in order: {' '.join(ALIAS_WORDS)}.",
        "10. After `import`, `export` or `part`, a URI string starting with ':' is a package URI without "
        "'package:' and '.dart': `import ':flutter/cupertino'` = `import 'package:flutter/cupertino.dart'`; a single "
        "name is package and file at once: `import ':provider'` = `import 'package:provider/provider.dart'`. A "
        "relative URI is written without '.dart': `import '../a/b'` = `import '../a/b.dart'`. Directives of one kind "
        "in a row share their keyword: `import ':provider','../a/b';` = two imports (a ',' after the URI). A package "
        "URI starting with ':./', ':../' or ':/' is relative to the previous package URI of the document (its folder, "
        "or with ':/' its package's root): after `':p/src/a/x'`, `':./y'` = `':p/src/a/y'`, `':../b/z'` = "
        "`':p/src/b/z'`, `':/w'` = `':p/w'`.",
        "11. Trailing commas are omitted; `List<List<int>>` closes with `>>`. An optional first line `"
        + f"{HEADER_PREFIX} {VERSION}"
        + "` names the version.",
    ]
    return "\n".join(lines)


# The COON design's success criteria (LLM Comprehension Benchmark Design for COON, §8.1 minimum viable benchmarks
# and §8.2 success indicators): comprehension ≥ 75%, gap ≤ 5 points against raw Dart, efficiency gain ≥ 1.5×;
# failure below 65% whatever the efficiency; generation validity ≥ 85% ("must produce valid output").
DESIGN_THRESHOLDS: Final = DesignThresholds(
    baseline="dart", min_accuracy=0.75, partial_accuracy=0.65, max_gap=0.05, min_efficiency_gain=1.5,
    source="the COON benchmark design, §8", min_generation_validity=0.85,
)


class CoonFormat(Format):
    """COON, coonbench dialect v5 (lossless; decode gives formatted Dart AST-equivalent to the source)."""

    name = "coon"
    label = "COON"
    prompt_label = "COON (a compressed notation for Dart)"
    description = "COON (Code-Oriented Object Notation), coonbench's lossless dialect of compressed Dart/Flutter"
    kind = "code"
    language = "dart"
    fence = "coon"
    lossless = True
    keep_comments = False

    def encode(
        self, source: Any, *, keep_comments: bool | None = None, header: bool = False, verify: bool | None = None
    ) -> str:
        keep = self.keep_comments if keep_comments is None else keep_comments
        return encode(source, keep_comments=keep, header=header, verify=verify)

    def decode(self, text: str) -> str:
        return decode(text)

    def validate(self, text: str) -> list[FormatError]:
        if not isinstance(text, str):
            return [FormatError("COON must be text", expected="str")]
        return validate(text)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        return primer(variant)

    def answer_aliases(self) -> dict[str, str]:
        return widget_aliases()

    def design_thresholds(self) -> DesignThresholds:
        return DESIGN_THRESHOLDS

    def legend(self, source: Any, *, economise: bool = True, tokenizer: str = "o200k_base") -> tuple[str, str]:
        return document_and_legend(source, self.keep_comments, economise, tokenizer)


class CoonCommentsFormat(CoonFormat):
    """COON that keeps the source's comments (verbatim, as in Dart)."""

    name = "coon-comments"
    label = None  # named as it is registered
    prompt_label = None
    description = "COON (coonbench dialect) keeping comments"
    keep_comments = True


register(CoonFormat())
register(CoonCommentsFormat())
