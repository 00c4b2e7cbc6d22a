"""Two LoRA adapters of one base blended into one of the same rank: a fine-tune that forgets
part of what its warm start knew, pulled back towards it (weight-space ensembling, "WiSE-FT").

Each adapted weight's update is `scale * B @ A`. The blend's update is the weighted sum of the
two updates, `w * B1 @ A1 + (1 - w) * B0 @ A0`, whose rank may be twice the adapters'; it is
brought back to their rank by its truncated SVD, which is the closest update of that rank (in
the Frobenius norm). Both adapters must share rank, alpha and target modules, so `scale` is
common and is left out of the sum.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from inference.base_model import sha256_of

WEIGHTS = "adapter_model.safetensors"
CONFIG = "adapter_config.json"
MANIFEST = "macaron-manifest.json"


def _pairs(tensors: dict[str, torch.Tensor]) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """{module prefix: (A, B)} for every `...lora_A.weight` and its `...lora_B.weight`."""
    return {
        key.removesuffix(".lora_A.weight"): (tensor, tensors[key.replace("lora_A", "lora_B")])
        for key, tensor in tensors.items()
        if key.endswith(".lora_A.weight")
    }


def blend_update(
    first: tuple[torch.Tensor, torch.Tensor],
    second: tuple[torch.Tensor, torch.Tensor],
    weight: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(A, B) of the adapters' rank whose product is closest to `weight * B2 A2 + (1 - weight) *
    B1 A1`, where `first` is (A1, B1) and `second` is (A2, B2)."""
    (a1, b1), (a2, b2) = first, second
    rank = a1.shape[0]
    update = (1 - weight) * (b1.double() @ a1.double()) + weight * (b2.double() @ a2.double())
    u, s, vh = torch.linalg.svd(update, full_matrices=False)
    root = s[:rank].sqrt()
    a = (root[:, None] * vh[:rank]).to(a1.dtype).contiguous()
    return a, (u[:, :rank] * root).to(b1.dtype).contiguous()


def blend_adapters(start: Path, tuned: Path, out: Path, weight: float) -> None:
    """Write to `out` the blend of adapter folders `start` (weight 1 - `weight`) and `tuned`
    (`weight`), with `tuned`'s config and other files."""
    if not 0 <= weight <= 1:
        raise ValueError(f"the blend weight must be in [0, 1], not {weight}")
    configs = [json.loads((folder / CONFIG).read_text()) for folder in (start, tuned)]
    for field in ("r", "lora_alpha"):
        if configs[0][field] != configs[1][field]:
            raise ValueError(f"the adapters differ in {field}")
    if set(configs[0]["target_modules"]) != set(configs[1]["target_modules"]):
        raise ValueError("the adapters differ in target_modules")
    first, second = _pairs(load_file(start / WEIGHTS)), _pairs(load_file(tuned / WEIGHTS))
    if first.keys() != second.keys():
        raise ValueError("the adapters adapt different modules")
    blended: dict[str, torch.Tensor] = {}
    for prefix in first:
        a, b = blend_update(first[prefix], second[prefix], weight)
        blended[f"{prefix}.lora_A.weight"], blended[f"{prefix}.lora_B.weight"] = a, b
    shutil.copytree(tuned, out)
    save_file(blended, out / WEIGHTS)
    manifest = out / MANIFEST
    if manifest.is_file():
        record = json.loads(manifest.read_text())
        record["blend"] = {
            "start": str(start),
            "start_sha256": sha256_of(start / WEIGHTS),
            "tuned": str(tuned),
            "tuned_weight": weight,
        }
        if "reproduce" in record:  # TUNED's command, then this blend of its output
            record["reproduce"] += (
                f" && .venv/bin/python manage.py blend_adapters {start} {tuned} {out}"
                f" --weight {weight}"
            )
        manifest.write_text(json.dumps(record, indent=1))
