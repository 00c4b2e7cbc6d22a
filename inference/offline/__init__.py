"""Offline tooling, run by hand or at setup, never while serving: preparing the default model,
installing the committed adapters, building datasets and the router's prompts, training."""
