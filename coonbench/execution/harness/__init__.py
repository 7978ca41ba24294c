"""Self-contained runner programs copied into the sandbox (stdlib / Node built-ins only)."""
