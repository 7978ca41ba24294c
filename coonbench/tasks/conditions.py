"""Format conditions of every task: ``name[:option]`` parsed against the format registry, and skip records.

A condition is a registered ``kind="code"`` format plus how its primer is shown. Every code task (comprehension,
generation, modification) takes a comma list of them (``-T formats=coon,coon:noprimer,dart,my-format``):

``NAME``            the format with its short primer (``coon``, ``dart``, any plug-in's name)
``NAME:noprimer``   no primer (the model reads the format cold); ``NAME-noprimer`` is an alias kept for old logs
``NAME:full``       the full primer variant
``NAME:legend``     a legend: a primer of only what the document shown uses (``Format.legend``; a format without
                    one shows its short primer)
``NAME:short``      the same as ``NAME``

``NAME`` shows the task's ``-T primer=`` variant (``short``, ``full`` or ``legend``).

The condition's *label* (``coon``, ``coon-noprimer``, ``coon-fullprimer``, ``coon-legend``) is what sample ids and
``metadata["format"]`` carry, so runs made before conditions were parsed still join with new ones.

A format that cannot take a sample (its encoder refuses the source, or the encoding does not decode back to an
AST-equivalent program where the task needs that) is skipped for that sample with the reason recorded
(``Skip``), never silently dropped: tasks put the records in the eval's metadata and print a summary once.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Literal

from coonbench.formats import Format, FormatError, get_format, language_of, list_formats
from coonbench.languages import Language, default_language
from coonbench.tasks.errors import OneLineError
from coonbench.tasks.samples import TaskArgumentError, did_you_mean, shown, split_param
from coonbench.tokens import DEFAULT_ENCODING, count_tokens

PrimerMode = Literal["none", "short", "full", "legend"]
OPTIONS: dict[str, PrimerMode] = {
    "noprimer": "none", "short": "short", "primer": "short", "full": "full", "legend": "legend",
}
LABEL_SUFFIX: dict[PrimerMode, str] = {"none": "-noprimer", "short": "", "full": "-fullprimer", "legend": "-legend"}
MAX_SKIPS_SHOWN = 10  # skip lines printed per task (all of them go to the eval's metadata)


class ConditionError(TaskArgumentError):
    """A ``-T formats=`` entry that names no registered code format, or an unknown option."""


@dataclass(frozen=True)
class Condition:
    """One registered code format shown with (or without) a primer."""

    format: str  # registry name
    primer: PrimerMode = "short"

    @property
    def label(self) -> str:
        """What ``metadata["format"]`` and sample ids carry: ``coon``, ``coon-noprimer``, ``coon-fullprimer``."""
        return self.format + LABEL_SUFFIX[self.primer]

    @property
    def fmt(self) -> Format:
        return get_format(self.format)

    @property
    def shows_primer(self) -> bool:
        return self.primer != "none"

    @property
    def has_legend(self) -> bool:
        """Whether the format makes legends (overrides ``Format.legend``)."""
        return type(self.fmt).legend is not Format.legend

    def variant(self, default_variant: str = "short") -> str | None:
        """The primer variant shown (``short`` defers to the task's ``primer`` variant), or None without one."""
        if not self.shows_primer:
            return None
        return self.primer if self.primer in ("full", "legend") else default_variant

    def show(self, source: Any, default_variant: str = "short", *,
             economise_in: str | None) -> tuple[str, str | None]:
        """(the document shown for ``source``, the system primer shown with it or None). Under the legend variant
        both come from the format's ``legend``, economised in the tokenizer ``economise_in`` (None: the plain
        encoding and its legend); a format without a legend shows its encoding and its short primer."""
        if self.variant(default_variant) == "legend" and self.has_legend:
            economise = economise_in is not None
            pair = self.fmt.legend(source, economise=economise, tokenizer=economise_in or DEFAULT_ENCODING)
            if pair is not None:
                return pair
        return encoded(self.fmt, source), self.primer_text(default_variant)

    def primer_text(self, default_variant: str = "short") -> str | None:
        """The format-wide primer this condition shows, or None (a legend belongs to one document: ``show``; the
        legend variant's format-wide primer is the short one)."""
        variant = self.variant(default_variant)
        if variant is None:
            return None
        variant = "short" if variant == "legend" else variant
        try:
            return self.fmt.primer(variant)  # type: ignore[arg-type]
        except FormatError as err:  # the task's -T primer= names a variant this format does not have
            variants = ", ".join(mode for mode in LABEL_SUFFIX if mode != "none")
            hint = did_you_mean(variant, [mode for mode in LABEL_SUFFIX if mode != "none"])
            raise TaskArgumentError(f"-T primer={variant}: {err.message}{hint} (choose from {variants})") from None

    def metadata(self, default_variant: str = "short", primer: str | None = None, *,
                 tokenizer: str) -> dict[str, Any]:
        """The sample metadata keys every code task records about its condition, the primer's tokens counted in
        ``tokenizer``; ``primer`` is the text ``show`` gave (a legend is recorded under ``legend``, for the primer
        solver)."""
        variant = self.variant(default_variant)
        if variant == "legend" and not self.has_legend:
            variant = "short"
        text = (primer or "") if variant == "legend" else self.primer_text(default_variant)
        meta: dict[str, Any] = {
            "encoding": self.format,
            "primer": variant is not None,
            "primer_variant": variant,
            "primer_tokens": primer_tokens(text, tokenizer) if text else 0,
            "lossless": bool(self.fmt.lossless),
        }
        if variant == "legend":
            meta["legend"] = text
        return meta


@lru_cache(maxsize=4096)
def primer_tokens(text: str, tokenizer: str = "o200k_base") -> int:
    """Tokens of a primer or legend (one format-wide primer serves thousands of samples: counted once)."""
    return count_tokens(text, tokenizer)


def format_names(kind: str) -> list[str]:
    """Every registered format of ``kind`` (``"code"`` or ``"data"``), plug-ins included, sorted."""
    return [f.name for f in list_formats() if f.kind == kind]


def code_format_names() -> list[str]:
    """Every registered ``kind="code"`` format, sorted."""
    return format_names("code")


def _unknown(entry: str, why: str, kind: str) -> ConditionError:
    names = ", ".join(format_names(kind))
    return ConditionError(
        f"unknown format '{entry}': {why}; registered {kind} formats: {names} "
        f"(add ':noprimer' or ':full' for the primer; plug-ins register through the 'coonbench.formats' entry point)"
    )


def parse_condition(entry: str, kind: str = "code") -> Condition:
    """``name[:option]`` (or the alias ``name-noprimer``) → Condition of a registered ``kind`` format (the code
    tasks take code formats, retrieval data formats); ConditionError listing the registered ones."""
    text = entry.strip()
    name, _, option = text.partition(":")
    name, option = name.strip(), option.strip()
    registered = set(format_names(kind))
    if not option and name not in registered:
        for mode, suffix in LABEL_SUFFIX.items():
            if suffix and name.endswith(suffix) and name[: -len(suffix)] in registered:
                return Condition(name[: -len(suffix)], mode)
    if name not in registered:
        try:
            found = get_format(name).kind
        except FormatError:
            raise _unknown(text, f"no format called '{name}'{did_you_mean(name, format_names(kind))}", kind) from None
        raise _unknown(text, f"'{name}' is a kind=\"{found}\" format, not a {kind} format", kind)
    if option and option not in OPTIONS:
        raise _unknown(text, f"unknown option '{option}'{did_you_mean(option, list(OPTIONS))} (expected one of "
                       f"{', '.join(OPTIONS)})", kind)
    return Condition(name, OPTIONS[option] if option else "short")


def parse_conditions(
    value: str | Sequence[str] | None, default: Sequence[str], *, need_decode: bool = False, param: str = "formats"
) -> list[Condition]:
    """A task parameter's conditions (duplicates by label dropped, order kept).

    With ``need_decode`` (the task decodes answers written in the format), a lossy format is refused here, with
    the reason, rather than failing on every sample later.
    """
    out: dict[str, Condition] = {}
    for entry in split_param(value) or list(default):
        try:
            cond = parse_condition(entry)
        except ConditionError as err:
            raise ConditionError(f"-T {param}={shown(value)}: {err}") from None
        if need_decode and not cond.fmt.lossless:
            raise ConditionError(
                f"-T {param}={entry}: format '{cond.format}' is lossy (lossless=False), so an answer written in it "
                f"cannot be decoded and checked; use it in comprehension, where it is only read"
            )
        out.setdefault(cond.label, cond)
    return list(out.values())


def pick_conditions(
    formats: str | Sequence[str] | None, legacy: str | Sequence[str], legacy_name: str
) -> str | Sequence[str]:
    """``-T formats=`` (shared by every code task) or the task's older parameter; both set differently is an error."""
    if formats is None or split_param(formats) == split_param(legacy):
        return legacy
    default = {"format": ["coon"], "input_format": ["coon"]}.get(legacy_name)
    if split_param(legacy) != default:
        raise ConditionError(f"give either -T formats= or -T {legacy_name}=, not both ({formats!r} vs {legacy!r})")
    return formats


def conditions_language(conditions: Sequence[Condition]) -> Language:
    """The one language the conditions' code formats show (``Format.language``): what the task's corpus, questions
    and edits are made in. ConditionError when they show programs of different languages (one run, one
    language: the samples of a comparison are the same programs)."""
    languages = {language_of(c.fmt).name: c.label for c in conditions}
    if len(languages) > 1:
        shown_in = ", ".join(f"{label} ({name})" for name, label in languages.items())
        raise ConditionError(f"the formats show programs of different languages: {shown_in}; give one language's")
    return language_of(conditions[0].fmt) if conditions else default_language()


# ------------------------------------------------------------------------------------------------------- skips


@dataclass(frozen=True)
class Skip:
    """A source item (file, task) a condition could not take, and why."""

    item: str
    condition: str  # condition label, or "*" when the item is unusable in every format (e.g. does not parse)
    reason: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


@lru_cache(maxsize=1024)
def encoded(fmt: Format, source: str) -> str:
    """``fmt.encode(source)``, computed once per format object and source: a task checks that a format can carry
    a file (``refusal``) and then shows the file in it, several questions per file, and the encoding is most of a
    dataset's build (keyed by the registered object, so a plug-in registered again under a name is encoded anew).
    An encoder's error is raised, never cached."""
    return fmt.encode(source)


@lru_cache(maxsize=8192)
def refusal(fmt_name: str, source: str, need_roundtrip: bool) -> str | None:
    """Why ``fmt_name`` cannot carry ``source`` (encoder refuses it; lossless encoding not AST-equivalent after
    decode, when ``need_roundtrip``), or None when it can. Never raises for a codec fault: that is a reason too."""
    fmt = get_format(fmt_name)
    try:
        document = encoded(fmt, source)
    except FormatError as err:
        return f"encoder refused the source: {err}"
    except Exception as err:  # noqa: BLE001 - a plug-in's bug on one file must not take the dataset down
        return f"encoder failed: {type(err).__name__}: {err}"
    if not need_roundtrip or not fmt.lossless:
        return None
    try:
        diff = language_of(fmt).ast_diff(source, fmt.decode(document))
    except Exception as err:  # noqa: BLE001 - FormatError, LanguageSyntaxError or a plug-in bug: all are reasons
        return f"does not round-trip: decode failed: {type(err).__name__}: {err}"
    if diff is not None:
        return f"does not round-trip: first AST difference at {diff.path}: {diff.left!r} vs {diff.right!r}"
    return None


@lru_cache(maxsize=8192)
def lossy_roundtrip(fmt_name: str, source: str) -> tuple[tuple[str, Any], ...]:
    """For a lossy format, whether its own decoder gives ``source`` back (sample metadata ``roundtrip``: True,
    False with ``roundtrip_difference`` naming the first AST difference, or None when it has no decoder).
    Lossless formats: nothing (their round trip is a condition of use, checked by ``refusal``)."""
    fmt = get_format(fmt_name)
    if fmt.lossless:
        return ()
    try:
        back = fmt.decode(encoded(fmt, source))
    except FormatError as err:
        return (("roundtrip", None), ("roundtrip_difference", str(err)))
    except Exception as err:  # noqa: BLE001 - a plug-in's decoder bug is a finding, not a crash
        return (("roundtrip", False), ("roundtrip_difference", f"decode failed: {type(err).__name__}: {err}"))
    try:
        diff = language_of(fmt).ast_diff(source, back)
    except Exception as err:  # noqa: BLE001 - a broken decoder's output often does not parse
        return (("roundtrip", False), ("roundtrip_difference", f"the decoded code does not parse: {err}"))
    if diff is None:
        return (("roundtrip", True),)
    return (("roundtrip", False), ("roundtrip_difference", f"{diff.path}: {diff.left!r} vs {diff.right!r}"))


def skip_summary(skips: Iterable[Skip]) -> dict[str, Any]:
    """The eval-metadata form of a task's skips: every record plus counts by condition and by reason kind."""
    records = list(skips)
    return {
        "skipped": [s.as_dict() for s in records],
        "skipped_by_condition": dict(Counter(s.condition for s in records)),
        "skipped_by_reason": dict(Counter(s.reason.split(":")[0] for s in records)),
    }


class NothingLeft(OneLineError, ValueError):
    """Every item was skipped, so the task has no sample (e.g. its only format needs a package not installed)."""


def print_skips(category: str, skips: Sequence[Skip], stream: Any = None, *, kept: int | None = None) -> None:
    """Say once, on stderr, what a task left out and why (the full list is in the eval's metadata). With ``kept``
    (the samples left) 0, raise NothingLeft naming the first reason instead: Inspect would otherwise stop on an
    empty dataset with a traceback that does not say why it is empty."""
    if not skips:
        return
    if kept == 0:
        first = skips[0]
        raise NothingLeft(f"coonbench {category}: no sample left, all {len(skips)} item(s) skipped; the first, "
                          f"{first.item} [{first.condition}]: {first.reason}")
    out = stream or sys.stderr
    by_reason = Counter(s.reason.split(":")[0] for s in skips)
    print(
        f"coonbench {category}: skipped {len(skips)} item(s) a format could not take ("
        + "; ".join(f"{n}× {r}" for r, n in by_reason.most_common())
        + ") — listed in the eval's metadata under 'skipped'",
        file=out,
    )
    for s in skips[:MAX_SKIPS_SHOWN]:
        print(f"  {s.item} [{s.condition}]: {s.reason}", file=out)
    if len(skips) > MAX_SKIPS_SHOWN:
        print(f"  … and {len(skips) - MAX_SKIPS_SHOWN} more", file=out)
