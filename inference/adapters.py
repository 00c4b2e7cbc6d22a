"""Creates real, untrained peft LoRA adapters for the experts until trained ones exist.

peft initialises B to zero, so an untrained adapter's output equals the base model's; it still
travels the full LoRA path through vLLM, which is what the serving stack must prove.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from inference.experts import EXPERTS, MANIFEST, adapter_dir
from inference.staging import staged_folder

UNTRAINED_RANK = 8
TARGET_MODULES = ["q_proj", "k_proj", "v_proj", "o_proj"]


def ensure_untrained_adapters(
    base_dir: Path, root: Path, *, base_sha256: str, log: Callable[[str], None] = print
) -> list[Path]:
    """Write an untrained adapter for every expert that has none yet (idempotent)."""
    written = []
    for name in EXPERTS:
        target = adapter_dir(name, root)
        if (target / MANIFEST).is_file():
            continue
        _write_untrained(name, base_dir, target, base_sha256=base_sha256)
        log(f"untrained adapter for expert '{name}' written to {target}")
        written.append(target)
    return written


def _write_untrained(name: str, base_dir: Path, target: Path, *, base_sha256: str) -> None:
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(sorted(EXPERTS).index(name))
    base = AutoModelForCausalLM.from_pretrained(base_dir)
    config = LoraConfig(
        r=UNTRAINED_RANK,
        lora_alpha=2 * UNTRAINED_RANK,
        target_modules=TARGET_MODULES,
        task_type="CAUSAL_LM",
    )
    peft_model = get_peft_model(base, config)
    with staged_folder(target) as staging:
        peft_model.save_pretrained(staging)
        manifest = {
            "expert": name,
            "trained": False,
            "base_sha256": base_sha256,
            "rank": UNTRAINED_RANK,
            "target_modules": TARGET_MODULES,
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2))
