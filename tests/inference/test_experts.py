"""Experts: public names, untrained adapters that are real peft adapters, and request shapes."""

from __future__ import annotations

import json

import pytest

import ui4a
from inference.experts import (
    EXPERTS,
    UnknownExpert,
    adapter_dir,
    expert_summary,
    manifest_summary,
    read_manifest,
)
from inference.serving.prompts import request_for


def test_the_four_experts_have_real_peft_adapters_with_manifests() -> None:
    assert sorted(EXPERTS) == ["agent", "chat", "coding", "ui"]
    for name in EXPERTS:
        folder = adapter_dir(name)
        config = json.loads((folder / "adapter_config.json").read_text())
        assert config["peft_type"] == "LORA"
        assert (folder / "adapter_model.safetensors").is_file()
        assert expert_summary(name) == {
            "name": name,
            "purpose": EXPERTS[name].purpose,
            "structured": name == "ui",
            "adapter_ready": True,
            **manifest_summary(read_manifest(name)),
        }


def test_a_manifest_summary_shows_how_an_expert_was_trained() -> None:
    trained = {
        "trained": True,
        "base_sha256": "b179c9523d0e6a0f98a3",
        "dataset_examples": 2700,
        "hyperparameters": {"steps": 240, "lr": 0.001},
        "metrics": {"eval_loss": 0.42, "trained_tokens": 400000, "final_loss": 0.4},
    }
    assert manifest_summary(trained) == {
        "trained": True,
        "steps": 240,
        "dataset_examples": 2700,
        "eval_loss": 0.42,
        "trained_tokens": 400000,
        "base": "b179c9523d0e",
    }
    untrained = manifest_summary({"trained": False, "base_sha256": "abc"})
    assert untrained["trained"] is False
    assert untrained["steps"] is None


def test_the_ui_expert_decodes_under_the_ui4a_schema() -> None:
    request = request_for(request_id="r", expert="ui", prompt="a login form", max_tokens=50)
    assert request.json_schema == ui4a.json_schema(queries=False)  # no datasets here
    assert request.messages[-1].content == "a login form"
    text = request_for(request_id="r", expert="chat", prompt="hi", max_tokens=50)
    assert text.json_schema is None


def test_the_shared_system_prompt_is_byte_identical_across_requests() -> None:
    first = request_for(request_id="a", expert="ui", prompt="one", max_tokens=5)
    second = request_for(request_id="b", expert="ui", prompt="two", max_tokens=5)
    assert first.messages[0] == second.messages[0]  # so the prefix cache can keep it


def test_unknown_experts_are_refused() -> None:
    with pytest.raises(UnknownExpert):
        request_for(request_id="r", expert="poet", prompt="x", max_tokens=5)
