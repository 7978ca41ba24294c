"""``coonbench plan``: what a run will cost and what it can detect, before anything is paid for.

``workload`` renders every sample's prompt as the task's solvers would send it and counts it in each model's
tokenizer; ``power`` turns the run's paired design into the report's minimum detectable differences (assumed
discordance, or a pilot's); ``build`` adds output tokens and money into one plan (a JSON the report reads back to
show planned against observed); ``cli`` prints it. An entry point: it builds tasks, so it sits above ``evals``.
"""
