"""The engine's LoRA path check names the plugin as pyproject.toml declares it."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from inference.serving.cpu_lora import register
from inference.serving.lora_path_check import PLUGIN

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_it_names_the_entry_point_that_installs_the_wrapper() -> None:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    plugins = project["entry-points"]["vllm.general_plugins"]
    module, function = plugins[PLUGIN].split(":")
    assert getattr(importlib.import_module(module), function) is register
