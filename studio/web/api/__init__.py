"""The OpenAI-style HTTP API under /v1/: wire format, thin views, error mapping."""
