"""Engine settings read from the environment: the speed-up switches are off unless set, and
prompt-lookup speculation reaches vLLM as its ngram drafter."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from inference.serving.engine import VllmEngine
from inference.settings import EngineSettings


def test_speculation_and_the_cpu_dtype_are_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MACARON_SPEC_NGRAM", raising=False)
    monkeypatch.delenv("MACARON_CPU_DTYPE", raising=False)
    settings = EngineSettings.from_env()
    assert (settings.spec_ngram_tokens, settings.cpu_dtype) == (0, "float32")
    assert VllmEngine._speculation(SimpleNamespace(settings=settings)) is None  # type: ignore[arg-type]


def test_a_speculation_setting_becomes_vllms_prompt_lookup_drafter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MACARON_SPEC_NGRAM", "4")
    monkeypatch.setenv("MACARON_CPU_DTYPE", "bfloat16")
    settings = EngineSettings.from_env()
    assert settings.cpu_dtype == "bfloat16"
    drafter = VllmEngine._speculation(SimpleNamespace(settings=settings))  # type: ignore[arg-type]
    assert drafter == {
        "method": "ngram",
        "num_speculative_tokens": 4,
        "prompt_lookup_min": 2,
        "prompt_lookup_max": 4,
    }
