"""The reference our engine is held to: Hugging Face transformers with peft, the base model
carrying every expert's adapter. bench/engine.py times it; the engine tests compare greedy
output with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inference.experts import EXPERTS, adapter_dir


def with_experts(base: Any, adapter_root: Path) -> Any:
    """`base` wrapped by peft, with each expert loaded as an adapter named after it."""
    from peft import PeftModel

    first, *rest = sorted(EXPERTS)
    model = PeftModel.from_pretrained(
        base, str(adapter_dir(first, adapter_root)), adapter_name=first
    )
    for name in rest:
        model.load_adapter(str(adapter_dir(name, adapter_root)), adapter_name=name)
    return model


def chat_inputs(tokenizer: Any, prompt: str, device: str = "cpu") -> Any:
    """One user turn through the chat template, as the engine builds it, as model inputs."""
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
    )
    return tokenizer(text, return_tensors="pt", add_special_tokens=False).to(device)
