"""``python -m coonbench.execution``: print what the local sandbox enforces on this machine (JSON)."""

import json

from coonbench.execution.sandbox import capabilities

print(json.dumps(capabilities(), indent=2))
