"""``python -m coonbench.execution``: print what the local sandbox enforces on this machine for the current user
(JSON; every correction log records the same under its eval metadata's ``sandbox`` key)."""

import json

from coonbench.execution.sandbox import capabilities

print(json.dumps(capabilities(), indent=2))
