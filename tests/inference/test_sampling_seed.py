"""A request's seed reaches vLLM, and the chat request a worker builds from stored options."""

from __future__ import annotations

import uuid
from dataclasses import replace
from types import SimpleNamespace

from inference.protocol import Message
from inference.serving.engine import VllmEngine
from inference.serving.prompts import chat_request_for
from inference.settings import EngineSettings


def sampling_params_of(**fields: object) -> object:
    engine = VllmEngine.__new__(VllmEngine)  # its sampling params only: no model is loaded
    engine.settings = replace(EngineSettings.from_env(), copy_bias=0.0)
    engine._tokenizer = SimpleNamespace(encode=lambda text, add_special_tokens: [])
    request = chat_request_for(
        request_id=str(uuid.uuid4()),
        expert="chat",
        messages=(Message("user", "Name a colour."),),
        max_tokens=8,
        temperature=1.0,
        **fields,  # type: ignore[arg-type]
    )
    return engine._sampling_params(request)


def test_a_seeded_request_samples_from_its_own_seed() -> None:
    params = sampling_params_of(seed=7)
    assert (params.seed, params.temperature) == (7, 1.0)  # type: ignore[attr-defined]


def test_an_unseeded_request_samples_afresh() -> None:
    assert sampling_params_of().seed is None  # type: ignore[attr-defined]
