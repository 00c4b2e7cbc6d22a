"""The transformers (+ peft) references of bench/engine.py, in a process of their own so no vLLM
engine, its threads or its memory share the process with them. bench/engine.py starts it before
it builds any engine and reads the JSON it writes.

    .venv/bin/python bench/engine_reference.py --tokens 128 --runs 3 --json /tmp/reference.json

Three references, each timed as bench/engine_timing.py says (end to end and decode only):
- "transformers": one stream at a time; the base model plain, each expert through peft;
- "merged": one stream at a time, each expert's adapter merged into a copy of the base weights;
- "peft_batched": the eight mixed streams in one batch, peft choosing each row's adapter
  (`adapter_names`), left-padded, one `generate()`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_timing import MIXED, MIXED_EXPERTS, MIXED_PROMPTS, PROMPT, Window, merge
from inference.experts import EXPERTS, adapter_dir
from inference.offline.peft_reference import with_experts
from inference.settings import EngineSettings


class TokenClock:
    """A `generate()` streamer that only notes when each step's tokens came out."""

    def __init__(self) -> None:
        self.prompt_seen = False
        self.steps: list[float] = []

    def put(self, value: Any) -> None:
        if not self.prompt_seen:  # generate() hands the prompt over first
            self.prompt_seen = True
            return
        self.steps.append(time.perf_counter())

    def end(self) -> None:
        pass


def chat_texts(tokenizer: Any, prompts: tuple[str, ...]) -> list[str]:
    return [
        tokenizer.apply_chat_template(
            [{"role": "user", "content": p}], tokenize=False, add_generation_prompt=True
        )
        for p in prompts
    ]


def timed_generate(
    model: Any, tokenizer: Any, prompts: tuple[str, ...], tokens: int, **extra: Any
) -> Window:
    """Chat template, tokenizer and `generate()`, all inside the window, as our engine's
    window holds its own template, tokenizer and prefill."""
    import torch

    clock = TokenClock()
    submitted = time.perf_counter()
    inputs = tokenizer(
        chat_texts(tokenizer, prompts),
        return_tensors="pt",
        add_special_tokens=False,
        padding=True,
    ).to(model.device)
    with torch.inference_mode():
        out = model.generate(
            **inputs,
            max_new_tokens=tokens,
            min_new_tokens=tokens,
            do_sample=False,
            streamer=clock,
            **extra,
        )
    finished = time.perf_counter()
    generated = out.shape[1] - inputs["input_ids"].shape[1]
    assert generated == tokens == len(clock.steps), (generated, len(clock.steps))
    rows = len(prompts)
    streams = [Window(submitted, clock.steps[0], finished, tokens, tokens - 1) for _ in range(rows)]
    return merge(streams, [clock.steps] * rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, required=True)
    args = parser.parse_args()

    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    settings = EngineSettings.from_env()
    tokenizer = AutoTokenizer.from_pretrained(settings.model)
    tokenizer.padding_side = "left"  # rows end together, so each row's next token is last
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token

    # On a GPU host (bench/run --profile gpu) the references run there too, in the checkpoint's
    # own dtype, as vLLM does; on a CPU, in the dtype our engine runs (MACARON_CPU_DTYPE).
    on = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = getattr(torch, settings.cpu_dtype) if on == "cpu" else "auto"

    def base() -> Any:
        return AutoModelForCausalLM.from_pretrained(settings.model, dtype=dtype).to(on).eval()

    plain = base()
    with_adapters = with_experts(base(), settings.adapter_root).eval()
    merged = {
        name: PeftModel.from_pretrained(base(), str(adapter_dir(name, settings.adapter_root)))
        .merge_and_unload()
        .eval()
        for name in sorted(EXPERTS)
    }

    def single(model: Any) -> dict[str, float]:
        return timed_generate(model, tokenizer, (PROMPT,), args.tokens).rates()

    def one_run() -> dict[str, dict[str, float]]:
        figures = {"transformers/base": single(plain)}
        for name in sorted(EXPERTS):
            with_adapters.set_adapter(name)
            figures[f"transformers/{name}"] = single(with_adapters)
        for name in sorted(EXPERTS):
            figures[f"merged/{name}"] = single(merged[name])
        figures[f"peft_batched/{MIXED}"] = timed_generate(
            with_adapters,
            tokenizer,
            MIXED_PROMPTS,
            args.tokens,
            adapter_names=list(MIXED_EXPERTS),
        ).rates()
        return figures

    # Warm-up: first calls allocate and pick kernels; not timed.
    for model in (plain, with_adapters, *merged.values()):
        timed_generate(model, tokenizer, (PROMPT,), 4)
    timed_generate(with_adapters, tokenizer, MIXED_PROMPTS, 4, adapter_names=list(MIXED_EXPERTS))
    runs = []
    for index in range(args.runs):
        runs.append(one_run())
        print(f"reference run {index + 1} of {args.runs} done", file=sys.stderr, flush=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"torch_threads": torch.get_num_threads(), "runs": runs}, indent=2)
    )


if __name__ == "__main__":
    main()
