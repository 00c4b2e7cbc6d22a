"""bench/engine.py's run record names the settings our engine ran under, and no secret."""

from __future__ import annotations

import pytest

from bench.engine import engine_settings_set


def test_the_record_keeps_the_engine_settings_and_leaves_secrets_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MACARON_CPU_COMPILE", "1")
    monkeypatch.setenv("MACARON_ENGINE_THREADS", "2")
    monkeypatch.setenv("MACARON_SECRET_KEY", "do-not-write")
    monkeypatch.setenv("MACARON_API_KEY", "mk-do-not-write")
    recorded = engine_settings_set()
    assert recorded["MACARON_CPU_COMPILE"] == "1"
    assert recorded["MACARON_ENGINE_THREADS"] == "2"
    assert "do-not-write" not in str(recorded)
