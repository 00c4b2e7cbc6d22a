"""What runs in the web process (Daphne): URLs, page views, the studio's WebSocket consumer and
the OpenAI-compatible API. It calls `studio.services` and `studio.selectors`, enqueues work by
task name, and imports no engine, training or dataset module."""
