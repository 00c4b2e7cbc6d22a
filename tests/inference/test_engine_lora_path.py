"""An engine whose LoRA layers do not run our CPU wrapper does not start, and says why: here
with our plugin left out of vLLM's allowed plugins (`VLLM_PLUGINS`), as it would be after a
vLLM upgrade that stopped asking the platform for its wrapper. The engine benchmark's "vLLM as
it comes" reference starts that same way, and proves it runs vLLM's own wrapper instead."""

from __future__ import annotations

import dataclasses

import pytest
import vllm

from inference.serving.cpu_lora import WRAPPER
from inference.serving.engine import VllmEngine
from inference.serving.lora_path_check import PLUGIN, STOCK_WRAPPER, LoraPathError
from inference.settings import EngineSettings

pytestmark = pytest.mark.engine


def small_engine_settings() -> EngineSettings:
    """As small an engine as starts: the check runs once the model is loaded."""
    from vllm.platforms import current_platform

    if not current_platform.is_cpu():
        pytest.skip("the plugin and its check are for vLLM's CPU platform")
    return dataclasses.replace(
        EngineSettings.from_env(),
        max_model_len=256,
        max_num_seqs=1,
        max_loras=1,
        max_resident_loras=1,
    )


def test_an_engine_without_the_cpu_lora_plugin_fails_to_start_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = small_engine_settings()
    monkeypatch.setenv("VLLM_PLUGINS", "another_plugin")
    with pytest.raises(LoraPathError) as failure:
        VllmEngine(settings)
    message = str(failure.value)
    assert "vllm.lora.punica_wrapper.punica_cpu.PunicaWrapperCPU" in message
    assert WRAPPER in message
    assert f"'{PLUGIN}'" in message
    assert f"vLLM {vllm.__version__}" in message
    assert "VLLM_PLUGINS is 'another_plugin'" in message


def test_the_benchmarks_stock_reference_starts_and_proves_it_runs_vllms_own_wrapper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = small_engine_settings()
    monkeypatch.setenv("VLLM_PLUGINS", "another_plugin")
    engine = VllmEngine(settings, lora_wrapper=STOCK_WRAPPER)
    engine.shutdown()
    monkeypatch.delenv("VLLM_PLUGINS")
    # With our plugin in, the same expectation fails: the check tells the two paths apart.
    with pytest.raises(LoraPathError):
        VllmEngine(settings, lora_wrapper=STOCK_WRAPPER)
