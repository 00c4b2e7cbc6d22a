"""The expert catalog: public names, what each is for, and where its LoRA adapter lives.

Users name experts by public name; the integer LoRA ids vLLM needs stay inside `inference/`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from inference.paths import adapter_home

MANIFEST = "macaron-manifest.json"


@dataclass(frozen=True)
class Expert:
    name: str
    purpose: str
    structured: bool  # decodes under the UI4A JSON Schema


EXPERTS: dict[str, Expert] = {
    expert.name: expert
    for expert in (
        Expert("chat", "helpful, concise answers", structured=False),
        Expert("agent", "tool-call plans as JSON", structured=False),
        Expert("coding", "Python functions with their tests", structured=False),
        Expert("ui", "UI4A specs for interfaces", structured=True),
    )
}


class UnknownExpert(KeyError):
    """No expert of that public name is registered."""


def get_expert(name: str) -> Expert:
    try:
        return EXPERTS[name]
    except KeyError:
        raise UnknownExpert(name) from None


def adapter_dir(name: str, root: Path | None = None) -> Path:
    return (root or adapter_home()) / name


def read_manifest(name: str, root: Path | None = None) -> dict[str, object]:
    path = adapter_dir(name, root) / MANIFEST
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    return data if isinstance(data, dict) else {}


def expert_summary(name: str, root: Path | None = None) -> dict[str, object]:
    """What the studio and the API show about an expert (never its internal adapter id)."""
    manifest = read_manifest(name, root)
    return {
        "name": name,
        "purpose": get_expert(name).purpose,
        "trained": bool(manifest.get("trained", False)),
        "adapter_ready": bool(manifest),
    }
