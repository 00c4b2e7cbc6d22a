"""Puts an adapter for every expert into the serving root: the committed trained one, or else a
real, untrained peft adapter.

Trained adapters for the default model are committed under `inference/offline/trained_adapters/`
so that a fresh clone serves trained experts with no training step. They are copied, not served
in place, because the adapter root is where `train_expert --install` and the registry write, and
a GPU host points it elsewhere. peft initialises B to zero, so an untrained adapter's output
equals the base model's; it still travels the full LoRA path through vLLM.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from inference.base_model import sha256_of
from inference.experts import DATA_ADAPTERS, EXPERTS, MANIFEST, adapter_dir
from inference.offline.staging import staged_folder

UNTRAINED_RANK = 8
TARGET_MODULES = ["q_proj", "k_proj", "v_proj", "o_proj"]
COMMITTED_ROOT = Path(__file__).with_name("trained_adapters")
WEIGHTS = "adapter_model.safetensors"
# Written beside a copied committed adapter: the weights' sha256. A later commit with new
# weights, or with a file the copy lacks, replaces the copy; an adapter trained here with
# --install has no marker and is kept.
COMMITTED_MARKER = ".committed-sha256"

Log = Callable[[str], None]


def committed_adapter(name: str, base_sha256: str, root: Path = COMMITTED_ROOT) -> Path | None:
    """The committed trained adapter for `name`, if there is one for this base model."""
    folder = root / name
    if not (folder / MANIFEST).is_file():
        return None
    manifest = json.loads((folder / MANIFEST).read_text())
    return folder if manifest.get("base_sha256") == base_sha256 else None


def install_adapters(
    base_dir: Path,
    root: Path,
    *,
    base_sha256: str,
    committed_root: Path = COMMITTED_ROOT,
    log: Log = print,
) -> list[Path]:
    """Give every expert an adapter in `root`, and each data adapter that is committed
    (idempotent); returns the folders written."""
    written = []
    for name in EXPERTS:
        target = adapter_dir(name, root)
        if _install_committed(name, target, base_sha256, committed_root):
            log(f"trained adapter for expert '{name}' installed into {target}")
        elif (target / MANIFEST).is_file():
            continue
        else:
            _write_untrained(name, base_dir, target, base_sha256=base_sha256)
            log(f"untrained adapter for expert '{name}' written to {target}")
        written.append(target)
    for name in DATA_ADAPTERS.values():  # committed or not at all: the expert's own serves then
        target = adapter_dir(name, root)
        if _install_committed(name, target, base_sha256, committed_root):
            log(f"trained data adapter '{name}' installed into {target}")
            written.append(target)
    return written


def _install_committed(name: str, target: Path, base_sha256: str, committed_root: Path) -> bool:
    """Copy the committed adapter `name` to `target` unless it is there already, or the copy
    there was trained here; whether it copied."""
    source = committed_adapter(name, base_sha256, committed_root)
    if source is None or not _wants_committed(target, source):
        return False
    _copy_committed(source, target)
    return True


def _wants_committed(target: Path, source: Path) -> bool:
    if not (target / MANIFEST).is_file():
        return True
    if not json.loads((target / MANIFEST).read_text()).get("trained", False):
        return True
    marker = target / COMMITTED_MARKER
    if not marker.is_file():
        return False
    # A file committed beside the same weights later (a draft corpus) reaches the copy too.
    lacking = any(not (target / item.name).exists() for item in source.iterdir())
    return lacking or marker.read_text() != sha256_of(source / WEIGHTS)


def _copy_committed(source: Path, target: Path) -> None:
    with staged_folder(target) as staging:
        for item in source.iterdir():
            shutil.copy2(item, staging / item.name)
        (staging / COMMITTED_MARKER).write_text(sha256_of(source / WEIGHTS))


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
