"""Figures in the docs' sentences about published runs that no report table holds (per-sample tool calls, a
guessed answer): each is read from the sentence and recomputed from the committed Inspect logs with Inspect's own
reader, so a re-run or an edit cannot leave the prose stale. Figures a report table holds are marked
``<!-- value: … -->`` instead and checked by ``tests/test_published.py``."""

from __future__ import annotations

import re
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log

from coonbench.datasets.writing.cases import SHAPES

ROOT = Path(__file__).resolve().parents[1]
WORDS = {"once": 1, "twice": 2, "both": 2}


def _prose(doc: str) -> str:
    return " ".join((ROOT / doc).read_text(encoding="utf-8").split())


def _samples(folder: str) -> list[tuple[str, str, dict, str, str]]:
    """(question, format, score value, answer, target) of every sample of the folder's logs."""
    out = []
    for path in sorted((ROOT / folder).glob("*.eval")):
        log = read_eval_log(str(path))
        assert log.status == "success", f"{path.name}: {log.status}"
        for s in log.samples or []:
            score = next(iter(s.scores.values()))
            question = str(s.id).removesuffix(f"-{s.metadata['format']}")
            out.append((question, s.metadata["format"], score.value, score.answer or "", str(s.target)))
    assert out, f"no published logs in {folder}"
    return out


def test_tool_calls_stated_for_the_small_models_are_the_logs() -> None:
    """docs/agents.md: the 0.5B model's calls, failures and answers, and what the 1.5B model did per question."""
    text = _prose("docs/agents.md")
    small = _samples("logs/published/qwen2.5-coder-0.5b/tools")
    said = re.search(r"\((\d+) calls over (\d+) samples\).*?: (\d+) calls, (\d+) failed, no evidence fetched, (\d+) of "
                     r"(\d+) answered", text)
    assert said, "docs/agents.md states the 0.5B tool run's calls"
    calls, samples, calls2, failed, answered, samples2 = map(int, said.groups())
    assert calls == calls2 == sum(int(v["tool_calls"]) for _, _, v, _, _ in small)
    assert samples == samples2 == len(small)
    assert failed == sum(int(v["tool_errors"]) for _, _, v, _, _ in small)
    assert answered == sum(int(v["answered"]) for _, _, v, _, _ in small)
    assert not any(v["fetched"] for _, _, v, _, _ in small), "no evidence fetched"
    assert "its own template in every sample" in text and all(v["tool_calls"] >= 1 for _, _, v, _, _ in small)

    large = {(q, f): (v, a, t) for q, f, v, a, t in _samples("logs/published/qwen2.5-coder-1.5b/tools")}
    said = re.search(r"on the real-estate question it calls `describe_dataset` (\w+) in JSON \((\w+) run\) and then "
                     r"guesses (\S+) for (\S+?); in TOON it passes the tool's schema as arguments \((\d+) calls, (\w+) "
                     r"refused\); on the retail yes/no question it answers (\w+) without a call in both formats", text)
    assert said, "docs/agents.md states what the 1.5B model did per question"
    v, answer, target = large[("tools-real_estate-q08", "json")]
    assert WORDS[said[1]] == v["tool_calls"] and WORDS[said[2]] == v["tool_calls"] - v["tool_errors"]
    assert (said[3], said[4]) == (answer, target) and v["correct"] == 0
    v, _, _ = large[("tools-real_estate-q08", "toon")]
    assert int(said[5]) == v["tool_calls"] and WORDS[said[6]] == v["tool_errors"]
    for fmt in ("json", "toon"):
        v, answer, _ = large[("tools-retail-q01", fmt)]
        assert v["tool_calls"] == 0 and answer == said[7]
    tasks = re.search(r"Two small coder models, (\d+) of (\d+) tasks", text)
    assert tasks, "docs/agents.md sums up both models"
    both = [s[2] for s in small] + [v for v, _, _ in large.values()]
    assert (int(tasks[1]), int(tasks[2])) == (sum(int(v["correct"]) for v in both), len(both))


def _model_log(folder: str):  # noqa: ANN202 - an Inspect EvalLog
    logs = [read_eval_log(str(p)) for p in sorted((ROOT / folder).glob("*.eval"))]
    [model] = [log for log in logs if not (log.eval.solver or "").startswith("coonbench/baseline_")]
    return model


def test_prefix_reuse_on_the_published_runs_is_the_logs() -> None:
    """docs/models.md's rows for the published 1.5B runs: prompt tokens sent (evaluated + read from the prefix cache),
    evaluated and their share, samples per minute of sample time; and the prose's shares."""
    text = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    rows = re.findall(r"\| 1\.5B, (\w+) \(the published run, (\d+) questions\) \| (\d+) \| ([\d,]+) \| ([\d,]+) "
                      r"\((\d\.\d\d)×\) \| (\d+\.\d) \|", text)
    assert {r[0] for r in rows} == {"comprehension", "structure"}, "docs/models.md has both published runs' rows"
    shares = {}
    for task, questions, samples, sent, evaluated, share, per_minute in rows:
        log = _model_log(f"logs/published/qwen2.5-coder-1.5b/{task}")
        usage = [u for s in log.samples for u in s.model_usage.values()]
        fresh = sum(u.input_tokens for u in usage)
        total = fresh + sum(u.input_tokens_cache_read or 0 for u in usage)
        assert int(samples) == len(log.samples) and int(questions) == log.eval.task_args.get("questions")
        assert (sent, evaluated) == (f"{total:,}", f"{fresh:,}"), task
        assert share == f"{fresh / total:.2f}", task
        minutes = sum(s.total_time or 0 for s in log.samples) / 60
        assert per_minute == f"{len(log.samples) / minutes:.1f}", task
        shares[task] = share
    said = re.search(r"evaluated (\d\.\d\d)× of comprehension's and (\d\.\d\d)× of structure's prompt tokens",
                     " ".join(text.split()))
    assert said and said.groups() == (shares["comprehension"], shares["structure"])
    said = re.search(r"\(a ([\d,]+)-token prompt in (\d+\.\d) s\) evaluating every prompt token sent would take "
                     r"(\d+\.\d)× and (\d+\.\d)× the runs' summed sample time", " ".join(text.split()))
    assert said, "docs/models.md states what the runs would take without reuse"
    per_token = float(said[2]) / int(said[1].replace(",", ""))  # the measured speed, seconds a token
    for task, ratio in (("comprehension", said[3]), ("structure", said[4])):
        log = _model_log(f"logs/published/qwen2.5-coder-1.5b/{task}")
        usage = [u for s in log.samples for u in s.model_usage.values()]
        sent = sum(u.input_tokens + (u.input_tokens_cache_read or 0) for u in usage)
        assert ratio == f"{sent * per_token / sum(s.total_time or 0 for s in log.samples):.1f}", task


def test_qwen_judge_prose_is_its_committed_measurement() -> None:
    """docs/models.md on the 1.5B judge: how many right answers and near misses it passed in each mode (the
    ``label/judge`` confusion counts of judges.json), none unscored, and the run's minutes (first log's start to
    the last one's end)."""
    import json
    from datetime import datetime

    folder = ROOT / "logs/published/qwen2.5-coder-1.5b/judge"
    rows = json.loads((folder / "judges.json").read_text(encoding="utf-8"))["rows"]
    text = _prose("docs/models.md")
    said = re.search(r"it passed (\d+) of the (\d+) right answers and (\d+) of the (\d+) near misses, in both modes",
                     text)
    assert said, "docs/models.md states what the 1.5B judge passed"
    assert len(rows) == 2, "both modes"
    for r in rows:
        c = r["confusion"]
        assert (int(said[1]), int(said[2])) == (c.get("pass/pass", 0), c.get("pass/pass", 0) + c.get("pass/fail", 0))
        assert (int(said[3]), int(said[4])) == (c.get("fail/pass", 0), c.get("fail/pass", 0) + c.get("fail/fail", 0))
    assert "(none unscored," in text and all(r["unscored"] == 0 for r in rows)
    minutes = re.search(r"as SmolLM2's above; (\d+) minutes on 2 cores", text)
    headers = [read_eval_log(str(p), header_only=True) for p in sorted(folder.glob("*.eval"))]
    start = min(datetime.fromisoformat(h.stats.started_at) for h in headers)
    end = max(datetime.fromisoformat(h.stats.completed_at) for h in headers)
    assert minutes and int(minutes[1]) == round((end - start).total_seconds() / 60)


def test_default_model_counts_stated_are_the_logs() -> None:
    """docs/models.md picks the 0.5B default, and README command 1 says what it will show, from its published
    comprehension run: its Dart and minified-Dart counts, none in COON, and the floors' best, recounted from the
    logs."""
    counts: dict[tuple[bool, str], list[int]] = {}
    for path in sorted((ROOT / "logs/published/qwen2.5-coder-0.5b/comprehension").glob("*.eval")):
        log = read_eval_log(str(path))
        floor = (log.eval.solver or "").startswith("coonbench/baseline_")
        for s in log.samples or []:
            cell = counts.setdefault((floor, f"{log.eval.solver}|{s.metadata['format']}"), [0, 0])
            cell[0] += int(next(iter(s.scores.values())).value["correct"] == 1.0)
            cell[1] += 1
    model = {k.split("|")[1]: v for (floor, k), v in counts.items() if not floor}
    floors = [v for (floor, _), v in counts.items() if floor]
    for doc, pattern in (
        ("docs/models.md", r"it answers (\d+) of (\d+) Dart and (\d+) of (\d+) minified-Dart questions()"),
        ("README.md", r"Qwen2\.5-Coder-0\.5B answers (\d+) of (\d+) Dart questions and (\d+) of (\d+) in minified "
                      r"Dart, (none) in COON \(with or without its primer\)")):
        said = re.search(pattern + r",? where the (?:trivial baselines|floors) answer at most (\d+) of (\d+)",
                         _prose(doc))
        assert said, f"{doc} states the default's counts"
        assert [int(g) for g in said.groups()[:4]] == [*model["dart"], *model["dart-minified"]], doc
        if said[5]:
            assert model["coon"][0] == model["coon-noprimer"][0] == 0, doc
        assert (int(said[6]), int(said[7])) == (max(c for c, _ in floors), floors[0][1]), doc

def _model_counts(folder: str) -> tuple[int, int, int]:
    """(questions, formats, answers) of the model under test in ``folder``: distinct sample ids less their format
    and prompt template (``…@system-coon``), distinct formats, samples."""
    log = _model_log(folder)
    fmts = {s.metadata["format"] for s in log.samples}
    questions = {str(s.id).removesuffix(f"-{s.metadata['format']}").partition("@")[0] for s in log.samples}
    return len(questions), len(fmts), len(log.samples)


NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def test_section_sizes_stated_are_the_logs() -> None:
    """Each published task's heading in docs/results.md ("Retrieval: 10 questions in seven data formats (70
    answers)") gives the questions, formats and answers of the model's log that its first marked table cuts."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    checked = 0
    for m in re.finditer(r"^### [^:\n]+: (\d+) [^\n]*$", text, re.M):
        heading = m[0]
        folder = re.search(r"<!-- (?:published|report): (logs/published/\S+?)[ >]", text[m.end():])
        assert folder, heading
        questions, fmts, answers = _model_counts(folder[1].rstrip(" -"))
        assert int(m[1]) == questions, heading
        said = re.search(r"\((\d+) answers\)", heading)
        assert said is None or int(said[1]) == answers, heading
        in_formats = re.search(r"in (\w+) data formats", heading)
        assert in_formats is None or NUMBER[in_formats[1]] == fmts, heading
        checked += 1
    assert checked >= 6, "every published task's heading"
    prompts = _prose("docs/prompts.md")
    said = re.search(r"comprehension, (\d+) paired questions in the (\w+) formats under all (\w+) templates \((\d+) "
                     r"answers", prompts)
    assert said, "docs/prompts.md states the prompt run's size"
    log = _model_log("logs/published/qwen2.5-coder-1.5b/prompts")
    templates = {s.metadata["prompt_template"] for s in log.samples}
    questions, fmts, answers = _model_counts("logs/published/qwen2.5-coder-1.5b/prompts")
    assert (int(said[1]), NUMBER[said[2]], int(said[4])) == (questions, fmts, answers)
    assert NUMBER[said[3]] == len(templates) and questions * fmts * len(templates) == answers


def _writing_run(text: str, folder: str) -> tuple[re.Match[str], list[EvalLog], EvalLog]:
    """The writing run ``text`` sizes (repair rounds, cap, cases, conditions: the match), checked against the logs of
    ``folder``: every log whole, the gold solver and both floors on the model's samples, the model's task arguments
    and cap as stated. (The match, every log, the model's log.)"""
    said = re.search(r"\(greedy, (\w+) repair rounds, `--max-tokens (\d+)`\) writing (\d+) cases from their "
                     r"description \(small and medium, balanced over the six shapes\) in (\w+) conditions", text)
    assert said, f"docs/writing.md states the size of {folder}"
    logs = [read_eval_log(str(p)) for p in sorted((ROOT / folder).glob("*.eval"))]
    assert all(log.status == "success" for log in logs)
    [model] = [log for log in logs if log.eval.model != "mockllm/model"]
    others = {log.eval.solver: {str(s.id) for s in log.samples} for log in logs if log is not model}
    assert set(others) == {"coonbench/gold", "coonbench/baseline_empty", "coonbench/baseline_wrong_values"}
    assert all(ids == {str(s.id) for s in model.samples} for ids in others.values()), "the same samples"
    args = model.eval.task_args
    assert (args["sizes"], args["sources"], args["questions"]) == (["small", "medium"], "description", int(said[3]))
    assert args["repairs"] == NUMBER[said[1]]
    assert model.eval.model_generate_config.max_tokens == int(said[2])
    return said, logs, model


def test_writing_run_stated_is_the_logs() -> None:
    """docs/writing.md's published run on the embedded model: its cases, conditions, repair rounds and cap, the
    floors beside it on the same samples, and the sentence on how the formats failed (TOON never parsed, YAML's
    parse errors and right documents, constrained JSON always parsed and plain JSON did not), recounted."""
    text = _prose("docs/writing.md")
    said, logs, model = _writing_run(text, "logs/published/qwen2.5-coder-0.5b/writing")
    seed = re.search(r"\(`-T seed=` other cases; (\d+): the published ones\)", text)
    assert seed and all(log.eval.task_args["seed"] == int(seed[1]) for log in logs), "the published seed"
    per_format: dict[str, list[dict]] = {}
    for s in model.samples:
        per_format.setdefault(s.metadata["format"], []).append(next(iter(s.scores.values())).value)
    assert NUMBER[said[4]] == len(per_format)
    assert {len(v) for v in per_format.values()} == {int(said[3])}
    assert {s.metadata["shape"] for s in model.samples} == set(SHAPES), "balanced over the six shapes"
    fared = re.search(r"So TOON did not parse in any of its attempts, YAML parsed in all but (\w+) of its attempts "
                      r"and was right (once|\w+ times), and\s+JSON under the schema-constrained decode parsed in every "
                      r"attempt, where plain JSON did not", text)
    assert fared, "docs/writing.md says how the formats failed"
    attempts = NUMBER[said[1]] + 1
    assert all(v["correct"] == 0 and v["n_parse_error"] == attempts for v in per_format["toon"])
    yaml_right = 1 if fared[2] == "once" else NUMBER[fared[2].split()[0]]
    assert sum(v["n_parse_error"] for v in per_format["yaml"]) == NUMBER[fared[1]]
    assert sum(v["correct"] for v in per_format["yaml"]) == yaml_right
    assert all(v["n_parse_error"] == 0 for v in per_format["json-structured"])
    assert sum(v["n_parse_error"] for v in per_format["json"]) > 0


def _openings(model: EvalLog) -> dict[str, list[str]]:
    """Per format, how each attempt the model wrote opens: ``json`` (an object or a list), else its first line."""
    out: dict[str, list[str]] = {}
    for s in model.samples:
        for message in s.messages:
            if message.role == "assistant":
                body = message.text.strip().removeprefix("```" + s.metadata["format"]).lstrip()
                opening = "json" if body[:1] in ("{", "[") else (body.splitlines() or [""])[0]
                out.setdefault(s.metadata["format"], []).append(opening)
    return out


ATTEMPT = re.compile(r"attempt \d+: (\w+) \(([^()\n]*)\)")


def test_larger_writing_run_stated_is_the_logs() -> None:
    """docs/writing.md's 1.5B run: its size (as the 0.5B's sentence gives it), the floors on the same samples, the
    prompt it was asked with, and how TOON and the invoice failed, recounted from every attempt: TOON all JSON in
    its fence; the invoice, in every format that parsed it, first wrong at its computed subtotal every time."""
    text = _prose("docs/writing.md").split("## The published run on the 1.5B model", 1)[1]
    said, _, model = _writing_run(text, "logs/published/qwen2.5-coder-1.5b/writing")
    openings = _openings(model)
    assert NUMBER[said[4]] == len(openings) and {s.metadata["shape"] for s in model.samples} == set(SHAPES)
    toon = re.search(r"TOON again never parsed: every one of its (\d+) attempts is JSON inside the `toon` fence", text)
    assert toon, "docs/writing.md says how TOON failed at 1.5B"
    assert int(toon[1]) == len(openings["toon"]) and set(openings["toon"]) == {"json"}
    invoice = re.search(r"The one invoice was wrong in every condition\. In JSON, constrained JSON and YAML each of "
                        r"its (\d+) attempts differs first at the subtotal", text)
    assert invoice, "docs/writing.md says where the invoice failed"
    invoices = [s for s in model.samples if s.metadata["shape"] == "invoice"]
    assert len(invoices) == len(openings) and not any(next(iter(s.scores.values())).value["correct"] for s in invoices)
    at_subtotal = [a for s in invoices if s.metadata["format"] in ("json", "json-structured", "yaml")
                   for a in ATTEMPT.findall(next(iter(s.scores.values())).explanation)]
    assert int(invoice[1]) == len(at_subtotal) == 3 * (NUMBER[said[1]] + 1)  # three formats, every attempt
    assert set(at_subtotal) == {("WRONG_DATA", "the document parses, but its data differs at $.invoice.subtotal: "
                                               "wrong value")}
    for sample in model.samples:  # asked with the path example of its own data, never the made-up one
        prompt = sample.input if isinstance(sample.input, str) else sample.input[-1].text
        assert "`a.b`" not in prompt and "For example, `" in prompt


def test_prompt_run_prose_counts_are_the_logs() -> None:
    """docs/prompts.md's sentences around its marked spreads: the run's questions (in digits and in words), the
    spread as a count of questions, and the size of the sized comprehension run it points to."""
    text = _prose("docs/prompts.md")
    said = re.search(r"On these (\d+) questions the wording moved only Dart, by (\d+\.\d)<!-- [^>]*--> points \((\w+) "
                     r"question;.*? because (\w+) questions are too few to separate any two formats\. .*?The sized "
                     r"comparison is the (\d+)-question run in `docs/results\.md`", text)
    assert said, "docs/prompts.md sizes the prompt run"
    questions, _, _ = _model_counts("logs/published/qwen2.5-coder-1.5b/prompts")
    assert int(said[1]) == NUMBER[said[4]] == questions
    assert round(float(said[2]) / 100 * questions) == NUMBER[said[3]], "the spread is that many questions"
    sized, _, _ = _model_counts("logs/published/qwen2.5-coder-1.5b/comprehension")
    assert int(said[5]) == sized


def _headers(folder: str) -> list:
    logs = [read_eval_log(str(p), header_only=True) for p in sorted((ROOT / folder).glob("*.eval"))]
    assert logs, f"no published logs in {folder}"
    return logs


def test_run_sizes_dates_and_versions_stated_are_the_logs() -> None:
    """README.md and docs/results.md on the published runs: questions per run, the 0.5B run's source files and
    formats, and the run date and inspect_ai version each provenance sentence gives, read from the logs' headers."""
    readme, results = _prose("README.md"), _prose("docs/results.md")
    small, large = "logs/published/qwen2.5-coder-0.5b/comprehension", "logs/published/qwen2.5-coder-1.5b"
    questions, fmts, _ = _model_counts(small)

    said = re.search(r"A 0\.5B-parameter model on (\d+) questions is a first answer", readme)
    assert said and int(said[1]) == questions, "README sizes the 0.5B answer"
    said = re.search(r"\(`-T questions=(\d+) -T bands=simple`: (\d+) questions about (\d+) simple widget files, "
                     r"each in (\w+) formats\), greedy, `--max-tokens (\d+)`", results)
    assert said, "docs/results.md sizes the 0.5B run"
    files = {s.metadata["sample_id"] for s in _model_log(small).samples}
    assert (int(said[1]), int(said[2]), int(said[3]), NUMBER[said[4]]) == (questions, questions, len(files), fmts)
    assert _model_log(small).plan.config.max_tokens == int(said[5])

    said = re.search(r"Command 1 as it stands \(`-T questions=5 -T bands=simple`, greedy, `--max-tokens 64`\) with "
                     r"the two floors on the same (\d+) questions, run on (\S+) with coonbench \S+ and inspect_ai "
                     r"(\S+) \(logs", readme)
    assert said, "README gives the 0.5B run's provenance"
    assert int(said[1]) == questions
    assert {(h.eval.created[:10], h.eval.packages["inspect_ai"]) for h in _headers(small)} == {(said[2], said[3])}
    assert len([h for h in _headers(small) if (h.eval.solver or "").startswith("coonbench/baseline_")]) == 2

    said = re.search(r"with the trivial floors on the same questions; run on (\S+) with coonbench \S+ and inspect_ai "
                     r"(\S+) by `benchmarks/publish_qwen\.sh`.*?; the Python runs of `docs/python\.md` on ([^;)]+?)"
                     r"(?:; the writing run of `docs/writing\.md` on ([^;)]+?))?"
                     r"(?:; the Goth runs of `docs/goth\.md` on ([^;)]+?))?\)\..*? "
                     r"Comprehension, (\d+) paired questions:", readme)
    assert said, "README gives the 1.5B runs' provenance"
    folders = sorted({p.parent.relative_to(ROOT) for p in (ROOT / large).glob("*/*.eval")})
    later = {"python": [f for f in folders if f.name.startswith("python")],
             "writing": [f for f in folders if f.name == "writing"],
             "goth": [f for f in folders if f.name.startswith("goth")]}
    assert later["python"]
    for group, doc in (("python", "docs/python.md"), ("goth", "docs/goth.md")):
        assert all(f"logs/published/qwen2.5-coder-1.5b/{f.name}" in _prose(doc) for f in later[group]), group
    assert {(h.eval.created[:10], h.eval.packages["inspect_ai"]) for f in folders if f not in sum(later.values(), [])
            for h in _headers(str(f))} == {(said[1], said[2])}, "every 1.5B log of the first runs"
    for group, dates in (("python", said[3]), ("writing", said[4]), ("goth", said[5])):  # "D" or "D and D"
        stated = set(dates.split(" and ")) if dates else set()
        assert {h.eval.created[:10] for f in later[group] for h in _headers(str(f))} == stated, group
    assert int(said[6]) == _model_counts(f"{large}/comprehension")[0]


def test_goth_run_stated_is_the_logs() -> None:
    """docs/goth.md's sentence on how the 0.5B's Goth attempts failed: every attempt of each target (problems ×
    attempts, as stated) a parse error, Go's ``module`` at line 1 column 1 for the syntax, the seed schema's
    ``Arrow`` for the JSON AST; recounted from each attempt's line of the score explanation."""
    text = _prose("docs/goth.md")
    said = re.search(r"All (\d+) Goth-syntax attempts \((\w+) problems, (\w+) attempts each\) are Go, and each stops "
                     r"at line 1, column 1 on `module`.*? All (\d+) JSON-AST attempts follow the seed prompt's schema "
                     r"and stop at ``unknown variant `Arrow` ``", text)
    assert said, "docs/goth.md says how the Goth attempts failed"
    wanted = {"goth-specs": 'Parse error: Unexpected token: Some(Ident("module")) at line 1, column 1:',
              "goth-json-specs": "Error: invalid JSON AST: JSON error: unknown variant `Arrow`"}
    for (folder, needle), stated in zip(wanted.items(), (said[1], said[4])):
        _all_attempts_fail_so(f"logs/published/qwen2.5-coder-0.5b/{folder}", needle, said[2], said[3], stated)


def _all_attempts_fail_so(folder: str, needle: str, problems: str, attempts: str, stated: str) -> EvalLog:
    """The model's log in ``folder``, after checking that its problems × attempts (as stated) are ``stated``
    attempt lines, each a parse error that says ``needle``."""
    logs = [read_eval_log(str(p)) for p in sorted((ROOT / folder).glob("*.eval"))]
    [log] = [lg for lg in logs if lg.eval.model != "mockllm/model"]
    assert len(log.samples) == NUMBER[problems]
    lines = [ln for s in log.samples for ln in (next(iter(s.scores.values())).explanation or "").splitlines()
             if re.match(r"attempt \d+: ", ln)]
    assert len(lines) == int(stated) == NUMBER[problems] * NUMBER[attempts], folder
    assert all(": PARSE_ERROR " in ln and needle in ln for ln in lines), folder
    return log


def test_goth_run_of_the_larger_model_stated_is_the_logs() -> None:
    """docs/goth.md on the 1.5B's Goth attempts: each a parse error at line 1, column 1 (no declaration), the
    four attempts of a problem identical as often as stated, the JSON AST stopped by the seed schema's ``Arrow``."""
    text = _prose("docs/goth.md")
    said = re.search(r"All (\d+) Goth-syntax attempts \((\w+) problems, (\w+) attempts each\) stop\s+at line 1, "
                     r"column 1 with `expected a declaration`.*?identical in (\d+) of (\d+) problems\)\. All (\d+) "
                     r"JSON-AST attempts stop at\s+``unknown variant `Arrow` ``", text, re.S)
    assert said, "docs/goth.md says how the 1.5B's Goth attempts failed"
    folder = "logs/published/qwen2.5-coder-1.5b"
    log = _all_attempts_fail_so(f"{folder}/goth-specs", "at line 1, column 1: expected a declaration", said[2],
                                said[3], said[1])
    replies = [{m.text.strip() for m in s.messages if m.role == "assistant"} for s in log.samples]
    assert (sum(len(r) == 1 for r in replies), len(replies)) == (int(said[4]), int(said[5]))
    _all_attempts_fail_so(f"{folder}/goth-json-specs", "Error: invalid JSON AST: JSON error: unknown variant `Arrow`",
                          said[2], said[3], said[6])
