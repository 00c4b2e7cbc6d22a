"""Business logic the web process calls (and the worker, for the registry and broadcasts):
services write, `studio.selectors` read. Views, consumers and tasks only call these."""
