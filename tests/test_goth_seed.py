"""The Goth targets ask in the seed's own prompts, read from the Goth checkout at run time (issue 55).

The expected prompt is cut from the seed's file here by a reading of its own (the text between a section's heading
and the next ``---`` rule), not by the loader's code; the checkout is found the way docs/goth.md says (``-T
goth_checkout``, else what ``coonbench goth-setup`` recorded, else the reference copy), and a checkout without the
prompts is refused with where it looked. Skips where ../shared is absent.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageSystem

from coonbench.datasets.correction import correction_dataset, problem_by_id
from coonbench.datasets.goth_seed import ENTRY_NOTE, SeedFileError, SeedMissing, find_checkout, seed_prompt
from coonbench.execution.goth import GOTH_JSON_PRIMER, GOTH_PRIMER
from coonbench.execution.goth_build import binary_path, ensure_binary, find_binary, source_record
from coonbench.tokens import count_tokens
from tests.conftest import reference_path

FILES = {"goth": "goth_syntax.md", "goth-json": "goth_json.md"}
TYPES = {"int": "I64", "float": "F64", "bool": "Bool"}


@pytest.fixture
def clean_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache with no record (the real one is the user's), the interpreter still found."""
    built = find_binary()
    if built:
        monkeypatch.setenv("COONBENCH_GOTH", built)
    monkeypatch.setenv("COONBENCH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "goth"


def section(text: str, heading: str) -> str:
    """The seed file's section under ``heading``, up to the next ``---`` rule (a reading of ours)."""
    after = text.split("\n" + heading + "\n", 1)[1]
    return after.split("\n---", 1)[0].strip()


def value(v: object) -> str:
    return ("⊤" if v else "⊥") if isinstance(v, bool) else str(v)


@pytest.mark.parametrize("target", ["goth", "goth-json"])
def test_the_goth_targets_ask_in_the_seeds_prompt(target: str, clean_cache: Path) -> None:
    path = reference_path("goth", "benchmark", "prompts", FILES[target])
    text = path.read_text(encoding="utf-8")
    system, template = section(text, "## System Prompt"), section(text, "## User Prompt Template")
    samples = correction_dataset(target, problems="gcd,is_prime,safe_divide")
    assert len(samples) == 3
    for sample in samples:
        problem = problem_by_id(sample.metadata["problem_id"])
        sig = problem.signature
        examples = "\n".join(
            f"  {sig.name}({', '.join(value(a) for a in c.input)}) -> error (invalid input)" if c.expected_error
            else f"  {sig.name}({', '.join(value(a) for a in c.input)}) = {value(c.expected)}"
            for c in problem.tests[:3])
        description = problem.description + (" For invalid input, fail with an error" if any(
            c.expected_error for c in problem.tests) else "")
        user = (template.replace("{function_name}", sig.name)
                .replace("{signature}", " → ".join(TYPES[t] for t in [*(p.type for p in sig.params), sig.returns]))
                .replace("{examples}", examples))
        head, tail = user.split("{description}")
        assert isinstance(sample.input, str)
        assert sample.input.startswith(head + description) and sample.input.endswith(tail + "\n\n" + ENTRY_NOTE)
        meta = sample.metadata
        assert meta["system_prompt"] == system
        assert meta["prompt_source"] == "seed" and meta["seed_prompt"] == f"benchmark/prompts/{FILES[target]}"
        assert meta["seed_prompt_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert Path(meta["goth_checkout"]) == reference_path("goth").resolve()
        assert meta["input_tokens_o200k"] == count_tokens(f"{system}\n\n{sample.input}")  # both are counted


def test_goth_prompt_coonbench_keeps_ours(clean_cache: Path) -> None:
    for target, primer in (("goth", GOTH_PRIMER), ("goth-json", GOTH_JSON_PRIMER)):
        sample = correction_dataset(target, problems="gcd", goth_prompt="coonbench")[0]
        assert sample.metadata["prompt_source"] == "coonbench" and sample.metadata["system_prompt"] == primer
        assert "goth_checkout" not in sample.metadata


def test_the_prompt_is_read_from_the_checkout_at_run_time(tmp_path: Path, clean_cache: Path) -> None:
    """A checkout of one's own (its root, or its crates/): its prompt is the one asked, not a copy of ours."""
    reference = reference_path("goth")
    mine = tmp_path / "mygoth"
    shutil.copytree(reference / "benchmark" / "prompts", mine / "benchmark" / "prompts")
    (mine / "crates").mkdir()
    syntax = mine / "benchmark" / "prompts" / "goth_syntax.md"
    syntax.write_text(syntax.read_text(encoding="utf-8").replace(
        "You are generating code in Goth", "You are writing Goth for a test"), encoding="utf-8")
    for given in (mine, mine / "crates"):
        sample = correction_dataset("goth", problems="gcd", goth_checkout=str(given))[0]
        assert sample.metadata["system_prompt"].startswith("You are writing Goth for a test")
        assert sample.metadata["goth_checkout"] == str(mine.resolve())


def test_the_checkout_goth_setup_was_given_is_recorded_and_used(tmp_path: Path, clean_cache: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """goth-setup (up to date: the binary copied into a fresh cache with its stamp) records its source."""
    built = Path(find_binary() or binary_path())
    stamp = built.with_suffix(".stamp")
    if not built.is_file() or not stamp.is_file():
        pytest.skip("no built Goth interpreter with its stamp (coonbench goth-setup) to copy")
    crates = reference_path("goth", "upstream", "crates")
    (clean_cache / "bin").mkdir(parents=True)
    shutil.copy(built, clean_cache / "bin" / "goth")
    shutil.copy(stamp, clean_cache / "bin" / "goth.stamp")
    monkeypatch.delenv("COONBENCH_GOTH")
    assert not source_record().exists()
    assert ensure_binary(crates).built is False
    assert source_record().read_text(encoding="utf-8").strip() == str(crates.resolve())
    assert find_checkout().root == reference_path("goth").resolve()
    source_record().write_text(str(tmp_path / "gone") + "\n", encoding="utf-8")
    with pytest.raises(SeedMissing, match="the checkout coonbench goth-setup recorded"):
        correction_dataset("goth", problems="gcd")


def test_a_checkout_without_the_seeds_prompts_is_refused(tmp_path: Path, clean_cache: Path) -> None:
    with pytest.raises(SeedMissing) as info:
        correction_dataset("goth-json", goth_checkout=str(tmp_path))
    message = str(info.value)
    assert str(tmp_path) in message and "goth_json.md" in message and "-T goth_checkout" in message
    assert correction_dataset("python", problems="gcd", goth_checkout=str(tmp_path))  # Python never reads it


def test_a_seed_prompt_without_a_field_names_file_line_and_field(tmp_path: Path, clean_cache: Path) -> None:
    reference = reference_path("goth")
    shutil.copytree(reference / "benchmark" / "prompts", tmp_path / "benchmark" / "prompts")
    path = tmp_path / "benchmark" / "prompts" / "goth_syntax.md"
    text = path.read_text(encoding="utf-8")
    line = text.splitlines().index("## User Prompt Template") + 1
    path.write_text(text.replace("{examples}", "(none)"), encoding="utf-8")
    with pytest.raises(SeedFileError, match=rf"goth_syntax.md: line {line}: field 'examples'"):
        seed_prompt(find_checkout(tmp_path), "goth")


def test_the_seeds_system_prompt_is_the_first_message(clean_cache: Path) -> None:
    """Through the task's own solver (a scripted model replying the gold program): the system message it sends."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, get_model

    from coonbench.evals.correction import correction
    from coonbench.execution.sandbox import capabilities

    if find_binary() is None or capabilities()["isolation"] != "full":
        pytest.skip("needs the Goth interpreter (coonbench goth-setup) and the sandbox's isolation")
    task = correction(target="goth", problems="gcd", max_retries=0)
    gold = task.dataset[0].metadata["gold"]
    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content(model="mockllm/model", content=gold)])
    log = inspect_eval(task, model=model, display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    assert log.samples[0].scores["correction_scorer"].value["correct"] == 1.0
    first = log.samples[0].messages[0]
    assert isinstance(first, ChatMessageSystem)
    assert first.text == section(reference_path("goth", "benchmark", "prompts", "goth_syntax.md")
                                 .read_text(encoding="utf-8"), "## System Prompt")


def test_other_prompt_templates_are_refused_for_the_seeds_prompt(clean_cache: Path) -> None:
    from coonbench.tasks.context import BuildContext
    from coonbench.tasks.prompts import each_prompt

    ctx = BuildContext()
    with pytest.raises(ValueError, match="fixed published prompt"):
        each_prompt("reworded", lambda each: correction_dataset("goth", problems="gcd", ctx=each), ctx)
    assert each_prompt("reworded", lambda each: correction_dataset("goth", problems="gcd", goth_prompt="coonbench",
                                                                     ctx=each), ctx)


def test_the_seeds_json_example_is_not_the_schema_the_interpreter_reads(tmp_path: Path) -> None:
    """docs/goth.md: goth_json.md's own factorial example (its "Expected output") fails on upstream's interpreter."""
    goth = find_binary()
    if goth is None:
        pytest.skip("needs the Goth interpreter (coonbench goth-setup)")
    text = reference_path("goth", "benchmark", "prompts", "goth_json.md").read_text(encoding="utf-8")
    example = text.split("Expected output:", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    assert '"Arrow"' in example and '"Base"' in example
    (tmp_path / "factorial.json").write_text(example, encoding="utf-8")
    out = subprocess.run([goth, "--from-json", str(tmp_path / "factorial.json"), "5"], capture_output=True,
                         text=True, timeout=10)
    assert "unknown variant `Arrow`" in out.stderr and "120" not in out.stdout
