"""The process-wide engine: started once per worker process, stopped on shutdown.

Celery installs its own SIGTERM handler after `worker_init`; its warm shutdown fires
`worker_shutdown`, which stops the engine (see studio/worker/lifecycle.py).

Tests may install another engine (a fake, in unit tests only); production code never does.
"""

from __future__ import annotations

import atexit
import json
import logging
import threading

from inference import startup_phases
from inference.loras import AdapterRef
from inference.protocol import Engine, GenerationRequest
from inference.serving.engine import VllmEngine
from inference.serving.prompts import request_for
from inference.settings import EngineSettings

log = logging.getLogger(__name__)
_lock = threading.Lock()
_engine: Engine | None = None


class EngineNotRunning(RuntimeError):
    """This process hosts no engine (it is not a worker, or the engine failed to start)."""


def start_engine(*, warm_up_with: AdapterRef | None = None) -> Engine:
    """`warm_up_with` is the ui expert's registered version, so the warm-up makes the very
    adapter resident that requests will name."""
    global _engine
    with _lock:
        if _engine is None:
            settings = EngineSettings.from_env()
            log.info("starting the engine for %s (%s)", settings.profile, settings.model)
            warm_up = _warm_up_request(warm_up_with)
            schema = json.dumps(warm_up.json_schema) if warm_up.json_schema else None
            # Called as the worker starts (its `worker_init`), before any torch work.
            engine = _engine = VllmEngine(settings, warm_up_schema=schema, fresh_process=True)
            _warm_up(engine, warm_up)
            # The warm-up ran vLLM's drafter for the first time, whose numba loops can change
            # OpenMP's thread count under torch (inference.settings.thread_environment).
            with startup_phases.phase("threads after warm-up") as detail:
                detail["torch_threads"] = engine.recheck_threads()
            atexit.register(stop_engine)
        return _engine


def _warm_up_request(ui_adapter: AdapterRef | None) -> GenerationRequest:
    return request_for(
        request_id="warm-up", expert="ui", prompt="warm up", max_tokens=2, adapter=ui_adapter
    )


def _warm_up(engine: Engine, request: GenerationRequest) -> None:
    """Compile the UI4A grammar and cache the ui expert's system prompt before the first user
    asks, so their first token is not spent on one-off work."""
    with startup_phases.phase("warm-up") as detail:
        for delta in engine.stream(request):
            if delta.adapter_load_ms is not None:
                detail["adapter_load_s"] = round(delta.adapter_load_ms / 1000, 4)


def install_engine(engine: Engine | None) -> None:
    """Replace the process's engine; for tests that bring their own."""
    global _engine
    with _lock:
        _engine = engine


def current_engine() -> Engine:
    if _engine is None:
        raise EngineNotRunning("no engine is running in this process")
    return _engine


def stop_engine() -> None:
    global _engine
    with _lock:
        engine, _engine = _engine, None
    if engine is not None:
        log.info("stopping the engine")
        engine.shutdown()
