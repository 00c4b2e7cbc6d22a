"""A real engine on one thread for one request runs the model on two while two requests or more
share its steps, and is back on one when they end (inference/serving/busy_threads.py)."""

from __future__ import annotations

import threading
import uuid
from dataclasses import replace

import pytest

from inference.serving.engine import VllmEngine
from inference.serving.lora_path_check import engine_core_threads
from inference.serving.prompts import request_for
from inference.settings import EngineSettings

pytestmark = pytest.mark.engine

PROMPTS = (
    "A sign-in form with email, password and a remember-me checkbox",
    "A sales dashboard with revenue KPIs and a filterable customers table",
    "A music player with a playlist, play and skip buttons",
)


def test_threads_follow_the_requests_a_step_holds() -> None:
    settings = replace(EngineSettings.from_env(), cpu_threads=1, cpu_busy_threads=2)
    engine = VllmEngine(settings)
    try:
        assert engine.torch_threads == [1]
        seen: set[int] = set()

        def write(prompt: str) -> None:
            request = request_for(
                request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=160
            )
            for _ in engine.stream(request):
                pass

        writers = [threading.Thread(target=write, args=(p,)) for p in PROMPTS]
        for writer in writers:
            writer.start()
        # The engine core answers between steps, with the count it set for the last one.
        while any(w.is_alive() for w in writers) and 2 not in seen:
            seen.update(engine._call(engine_core_threads(engine._llm)))
        for writer in writers:
            writer.join()
        assert 2 in seen, f"three requests at once ran on {sorted(seen)} threads"
        assert engine._call(engine_core_threads(engine._llm)) == [1]
        # One request alone stays on one thread throughout.
        alone = threading.Thread(target=write, args=(PROMPTS[0],))
        alone.start()
        while alone.is_alive():
            assert engine._call(engine_core_threads(engine._llm)) == [1]
        alone.join()
    finally:
        engine.shutdown()
