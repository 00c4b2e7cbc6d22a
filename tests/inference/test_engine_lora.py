"""The real engine's LoRA path (inference/serving/cpu_lora.py on a CPU host), against transformers +
peft and against itself: each expert decodes what peft decodes, and base-model requests get no
adapter, alone or batched with expert requests, however many adapter slots are full."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from inference.experts import EXPERTS
from inference.offline.peft_reference import chat_inputs, with_experts
from inference.protocol import GenerationRequest, Message
from inference.serving.engine import VllmEngine
from inference.settings import EngineSettings

pytestmark = pytest.mark.engine

PROMPT = "Write a short paragraph about the history of the bicycle."
TOKENS = 24


@pytest.fixture(scope="module")
def settings() -> EngineSettings:
    return EngineSettings.from_env()


@pytest.fixture(scope="module")
def engine(settings: EngineSettings) -> Iterator[VllmEngine]:
    engine = VllmEngine(settings)
    yield engine
    engine.shutdown()


@pytest.fixture(scope="module")
def tokenizer(settings: EngineSettings) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(settings.model)


def greedy(
    engine: VllmEngine, tokenizer: Any, expert: str | None, tokens: int = TOKENS
) -> list[int]:
    request = GenerationRequest(
        request_id=str(uuid.uuid4()),
        expert=expert,
        messages=(Message("user", PROMPT),),
        max_tokens=tokens,
        ignore_eos=True,
    )
    text = "".join(delta.text for delta in engine.stream(request))
    return list(tokenizer.encode(text, add_special_tokens=False))


def peft_greedy(
    settings: EngineSettings, tokenizer: Any, experts: list[str | None]
) -> dict[str | None, list[int]]:
    import torch
    from transformers import AutoModelForCausalLM

    inputs = chat_inputs(tokenizer, PROMPT)
    base = AutoModelForCausalLM.from_pretrained(settings.model, dtype=torch.float32)
    model = with_experts(base, settings.adapter_root)
    outputs: dict[str | None, list[int]] = {}
    for expert in experts:
        with torch.inference_mode():
            if expert is None:
                with model.disable_adapter():
                    ids = model.generate(**inputs, max_new_tokens=TOKENS, do_sample=False)
            else:
                model.set_adapter(expert)
                ids = model.generate(**inputs, max_new_tokens=TOKENS, do_sample=False)
        text = tokenizer.decode(ids[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
        outputs[expert] = tokenizer.encode(text, add_special_tokens=False)
    return outputs


def test_every_expert_and_the_base_model_decode_what_peft_decodes(
    engine: VllmEngine, settings: EngineSettings, tokenizer: Any
) -> None:
    experts: list[str | None] = [None, *sorted(EXPERTS)]
    reference = peft_greedy(settings, tokenizer, experts)
    ours = {expert: greedy(engine, tokenizer, expert) for expert in experts}
    # Trained experts answer the same prompt differently: a path that ignored adapters fails.
    assert len({tuple(tokens) for tokens in reference.values()}) > 1
    for expert in experts:
        # A greedy tie between two tokens may break either way in float32; the first half
        # must agree exactly, and an adapter applied wrongly diverges at once.
        half = len(reference[expert]) // 2
        assert ours[expert][:half] == reference[expert][:half], expert


def test_base_requests_get_no_adapter_once_every_slot_is_full(
    engine: VllmEngine, settings: EngineSettings, tokenizer: Any
) -> None:
    alone = greedy(engine, tokenizer, None)
    for name in sorted(EXPERTS):
        greedy(engine, tokenizer, name, tokens=2)  # each expert takes an adapter slot and keeps it
    assert len(EXPERTS) >= settings.max_loras
    assert greedy(engine, tokenizer, None) == alone

    # Batched with expert requests: base tokens share prefill and decode steps with them, and
    # each expert's two requests sit apart in the batch, so the step's rows are reordered.
    batch: list[str | None] = [None, *sorted(EXPERTS), *sorted(EXPERTS)]
    with ThreadPoolExecutor(max_workers=len(batch)) as pool:
        futures = [pool.submit(greedy, engine, tokenizer, expert) for expert in batch]
        batched = [future.result() for future in futures]
    solo = {name: greedy(engine, tokenizer, name) for name in sorted(EXPERTS)}
    assert batched == [alone, *(solo[name] for name in batch[1:] if name)]
