#!/usr/bin/env bash
# The published runs of logs/published/ (issue 42): every task on an embedded Qwen2.5-Coder model, greedy, on paired
# subsets, one `inspect eval-set` per task so that each task's logs have a folder of their own. eval-set resumes
# where a stopped run left off: run this script again (same arguments) and only the missing samples are asked.
# A task's run lives in logs/inflight/MODEL/TASK until it is whole (commit it there as it comes: a run longer than a
# session resumes from it in the next), then moves to logs/published/MODEL/TASK; a task already published is skipped.
#
#   bash benchmarks/publish_qwen.sh [MODEL] [TASK ...]      MODEL: qwen2.5-coder-1.5b (default) or qwen2.5-coder-0.5b
#
# TASK: the six tasks (the default), or the design's next benchmarks (issue 45, docs/edits.md, docs/prompts.md):
# `prompts` (comprehension under its four prompt templates), `edits` (edits mined from real commits) and `turns`
# (three-edit sessions); each writes to logs/published/MODEL/<task>. And `goth`, `goth-json`, `goth-python` below,
# and `writing` (issue 53, docs/writing.md): JSON, JSON under a schema-constrained decode, TOON, YAML and XML written
# from a description of the same 8 cases (small and medium, balanced over the six shapes), three repair rounds.
# CSV is left out: it holds the flat cases only, and a paired subset keeps only cases every format holds.
# Its size is estimated from the 1.5B's published logs (0.106 s per output token, 1.5 s per call, on 2 cores): the
# gold documents' tokens of the 8 cases (up to 873, XML) over 1.3 to 3 attempts a sample (four when never right,
# grammar-constrained decoding 1.5x slower) come to about 65 minutes, 130 when every document needs every round.
#
# Sizes: comprehension keeps 150 paired questions (COON, COON without primer, Dart, minified Dart of each; the plan
# for a 10-point COON-Dart difference asks for more, docs/results.md says what that costs); the other tasks keep
# what two cores run in about half an hour each on the 1.5B model (generation and modification write whole files:
# a minute or two per sample). The long tasks come last, so a stopped session leaves the short ones whole.
# --max-tokens is above every gold answer of the subset (modification's longest is 392 tokens, the mined edits'
# 989): more only lets a model that loops run longer.
set -euo pipefail
cd "$(dirname "$0")/.."
model="${1:-qwen2.5-coder-1.5b}"
shift || true
tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || tasks=(comprehension structure retrieval correction generation modification)
common=(--model "gguf/$model" --temperature 0 --seed 0 --display plain --log-shared 60 --retry-attempts 3)
# The Goth seed's comparison (issue 55, docs/goth.md): Goth syntax, its JSON AST and Python on the same problems, the
# ones that have a Goth program of ours (data/correction/goth/); `goth`, `goth-json`, `goth-python` write to
# logs/published/MODEL/<task>.
goth_problems=$(ls data/correction/goth | sed 's/\.goth$//' | paste -sd, -)
seed_problems=factorial,fibonacci,gcd,is_prime,power,sum_to_n,abs_value,max_of_three,isqrt,digit_sum
for task in "${tasks[@]}"; do
  dir="logs/published/$model/$task"
  inflight="logs/inflight/$model/$task"
  if [ -d "$dir" ]; then echo "== $task on gguf/$model: published already ($dir)"; continue; fi
  case "$task" in
    comprehension) args=(-T questions=150 --max-tokens 64) ;;
    structure) args=(-T questions=60 --max-tokens 64) ;;
    retrieval) args=(-T questions=10 --max-tokens 64) ;;
    generation) args=(-T questions=10 --max-tokens 768) ;;
    modification) args=(-T questions=4 -T formats=coon,dart,dart-minified --max-tokens 512) ;;
    correction) args=(-T limit=6 --max-tokens 768) ;;
    prompts) args=(-T questions=6 -T prompts=all --max-tokens 64) ;;
    edits) args=(-T source=edits -T questions=3 -T formats=coon,dart,dart-minified --max-tokens 1280) ;;
    turns) args=(-T turns=3 -T questions=1 -T formats=coon,dart,dart-minified --max-tokens 512) ;;
    writing) args=(-T questions=8 -T sizes=small,medium -T sources=description
                   -T formats=json,json-structured,toon,yaml,xml --max-tokens 1024) ;;
    # Python (issue 52, docs/python.md): the four Python formats on 150 paired questions read off the tree, and
    # every output-prediction question (CRUXEval's design on the corpus) in the same four
    python) args=(-T formats=python,python-minified,python-minifier,python-json-ast -T questions=150 --max-tokens 64) ;;
    python-outputs) args=(-T formats=python,python-minified,python-minifier,python-json-ast
                          -T question_types=output_prediction --max-tokens 64) ;;
    goth) args=(-T target=goth -T sandbox=local --max-tokens 768) ;;
    # the nine of those problems that are the seed's own function specs, and max_of_three for its max_two: a Goth
    # run two cores finish in about an hour beside other work (the 22 take several)
    goth-specs) args=(-T target=goth -T sandbox=local -T problems="$seed_problems" --max-tokens 768) ;;
    # the JSON AST is 2-7x longer than the syntax: our longest gold (binomial) is 1,086 Qwen tokens
    goth-json) args=(-T target=goth-json -T sandbox=local --max-tokens 1280) ;;
    # the same ten in the JSON AST: paired with goth-specs, the seed's first criterion (JSON AST >20% fewer syntax
    # errors) on the same problems
    goth-json-specs) args=(-T target=goth-json -T sandbox=local -T problems="$seed_problems" --max-tokens 1280) ;;
    goth-python) args=(-T target=python -T sandbox=local -T problems="$goth_problems" --max-tokens 768) ;;
    # Python on the ten seed specs alone: the pairs of criteria 3 and 4 with goth-specs, in half goth-python's time
    goth-python-specs) args=(-T target=python -T sandbox=local -T problems="$seed_problems" --max-tokens 768) ;;
    *) echo "unknown task $task" >&2; exit 2 ;;
  esac
  case "$task" in prompts | python | python-outputs) file=comprehension ;; edits | turns) file=modification ;; goth*) file=correction ;; *) file=$task ;; esac
  echo "== $task on gguf/$model -> $inflight, then $dir"
  inspect eval-set "evals/$file.py" "${args[@]}" "${common[@]}" --log-dir "$inflight"
  mkdir -p "$(dirname "$dir")" && mv "$inflight" "$dir"
  rmdir -p "$(dirname "$inflight")" 2>/dev/null || true
done
