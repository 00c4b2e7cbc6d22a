"""What runs in the Celery worker process, and only there: the tasks, the generation run on the
engine, remote control of the engine's adapters, and the worker's start-up and shutdown. The
only part of `studio` that imports `inference.serving`; the web process never imports it."""
