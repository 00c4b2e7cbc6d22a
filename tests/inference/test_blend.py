"""Two adapters blended into one of the same rank: the products at the ends, the weighted sum
between, and refusals for adapters that do not match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from django.core.management import call_command
from django.core.management.base import CommandError
from safetensors.torch import load_file, save_file

from inference.base_model import sha256_of
from inference.offline.training.blend import blend_adapters, blend_update

RANK = 4
MODULE = "base_model.model.model.layers.0.self_attn.q_proj"


def adapter(folder: Path, seed: int, rank: int = RANK) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    a, b = torch.randn(rank, 24, generator=gen), torch.randn(16, rank, generator=gen)
    folder.mkdir()
    save_file(
        {f"{MODULE}.lora_A.weight": a, f"{MODULE}.lora_B.weight": b},
        folder / "adapter_model.safetensors",
    )
    config = {"r": rank, "lora_alpha": 2 * rank, "target_modules": ["q_proj"]}
    (folder / "adapter_config.json").write_text(json.dumps(config))
    (folder / "macaron-manifest.json").write_text(json.dumps({"expert": "ui"}))
    return a, b


def product(folder: Path) -> torch.Tensor:
    weights = load_file(folder / "adapter_model.safetensors")
    return weights[f"{MODULE}.lora_B.weight"] @ weights[f"{MODULE}.lora_A.weight"]


@pytest.mark.parametrize("weight", [0.0, 1.0])
def test_a_weight_at_either_end_gives_that_adapters_update(tmp_path: Path, weight: float) -> None:
    a0, b0 = adapter(tmp_path / "start", 0)
    a1, b1 = adapter(tmp_path / "tuned", 1)
    blend_adapters(tmp_path / "start", tmp_path / "tuned", tmp_path / "out", weight)
    expected = b1 @ a1 if weight else b0 @ a0
    assert torch.allclose(product(tmp_path / "out"), expected, atol=1e-4)
    assert load_file(tmp_path / "out" / "adapter_model.safetensors")[
        f"{MODULE}.lora_A.weight"
    ].shape == (RANK, 24)
    manifest = json.loads((tmp_path / "out" / "macaron-manifest.json").read_text())
    assert manifest["blend"]["tuned_weight"] == weight
    assert manifest["blend"]["start_sha256"] == sha256_of(
        tmp_path / "start" / "adapter_model.safetensors"
    )


def test_the_blends_reproduce_line_is_the_tuned_adapters_then_the_blend(tmp_path: Path) -> None:
    adapter(tmp_path / "start", 0)
    adapter(tmp_path / "tuned", 1)
    manifest = tmp_path / "tuned" / "macaron-manifest.json"
    manifest.write_text(json.dumps({"expert": "ui", "reproduce": "train it"}))
    blend_adapters(tmp_path / "start", tmp_path / "tuned", tmp_path / "out", 0.25)
    reproduce = json.loads((tmp_path / "out" / "macaron-manifest.json").read_text())["reproduce"]
    assert reproduce == (
        f"train it && .venv/bin/python manage.py blend_adapters {tmp_path / 'start'} "
        f"{tmp_path / 'tuned'} {tmp_path / 'out'} --weight 0.25"
    )


def test_between_it_is_the_closest_update_of_the_rank_to_the_weighted_sum() -> None:
    gen = torch.Generator().manual_seed(2)
    a0, b0 = torch.randn(RANK, 24, generator=gen), torch.randn(16, RANK, generator=gen)
    # A fine-tune moves its warm start a little: the sum then has nearly the adapters' rank.
    a1, b1 = (
        a0 + 0.05 * torch.randn(RANK, 24, generator=gen),
        b0 + 0.05 * torch.randn(16, RANK, generator=gen),
    )
    a, b = blend_update((a0, b0), (a1, b1), 0.5)
    target = 0.5 * (b0 @ a0) + 0.5 * (b1 @ a1)
    assert a.shape == (RANK, 24) and b.shape == (16, RANK)
    assert (b @ a - target).norm() / target.norm() < 0.01
    # Two unrelated updates sum to twice the rank: the blend keeps the larger part of it.
    a2, b2 = torch.randn(RANK, 24, generator=gen), torch.randn(16, RANK, generator=gen)
    a, b = blend_update((a0, b0), (a2, b2), 0.5)
    target = 0.5 * (b0 @ a0) + 0.5 * (b2 @ a2)
    singular = torch.linalg.svdvals(target.double())
    assert torch.isclose((b @ a - target).norm().double(), singular[RANK:].norm(), rtol=1e-3)


def test_it_refuses_adapters_that_differ_and_weights_out_of_range(tmp_path: Path) -> None:
    adapter(tmp_path / "start", 0)
    adapter(tmp_path / "wider", 1, rank=RANK * 2)
    with pytest.raises(ValueError, match="differ in r"):
        blend_adapters(tmp_path / "start", tmp_path / "wider", tmp_path / "out", 0.5)
    with pytest.raises(ValueError, match="weight"):
        blend_adapters(tmp_path / "start", tmp_path / "start", tmp_path / "out", 1.5)
    assert not (tmp_path / "out").exists()


def test_the_command_blends_and_refuses_an_existing_folder(tmp_path: Path) -> None:
    adapter(tmp_path / "start", 0)
    adapter(tmp_path / "tuned", 1)
    call_command("blend_adapters", tmp_path / "start", tmp_path / "tuned", tmp_path / "out")
    assert (tmp_path / "out" / "adapter_model.safetensors").is_file()
    with pytest.raises(CommandError, match="exists"):
        call_command("blend_adapters", tmp_path / "start", tmp_path / "tuned", tmp_path / "out")
