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
    # Registered experts may bring their own (from their manifest); built-ins have theirs in
    # inference/serving/prompts.py.
    system_prompt: str = ""


EXPERTS: dict[str, Expert] = {
    expert.name: expert
    for expert in (
        Expert("chat", "helpful, concise answers", structured=False),
        Expert("agent", "tool-call plans as JSON", structured=False),
        Expert("coding", "Python functions with their tests", structured=False),
        Expert("ui", "UI4A specs for interfaces", structured=True),
    )
}


# A built-in expert's adapter for prompts over a studio project's datasets, by expert: a folder
# beside the expert's own under the adapter root. The served ui adapter never learned to answer
# with queries over a dataset's profile; "ui-data" did (bench/RESULTS.md, 2026-12-03), but
# writes ordinary screens less well, so it answers only where there are datasets to query.
DATA_ADAPTERS: dict[str, str] = {"ui": "ui-data"}


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


def manifest_summary(manifest: dict[str, object]) -> dict[str, object]:
    """The training facts the studio and `GET /v1/models` show: trained or not, how long, on
    how much data, how well, and on which base. Untrained manifests say only trained=false."""
    hyper = manifest.get("hyperparameters")
    metrics = manifest.get("metrics")
    hyper = hyper if isinstance(hyper, dict) else {}
    metrics = metrics if isinstance(metrics, dict) else {}
    return {
        "trained": bool(manifest.get("trained", False)),
        "steps": hyper.get("steps"),
        "dataset_examples": manifest.get("dataset_examples"),
        "eval_loss": metrics.get("eval_loss"),
        "trained_tokens": metrics.get("trained_tokens"),
        "base": str(manifest.get("base_sha256", ""))[:12] or None,
    }


def expert_summary(name: str, root: Path | None = None) -> dict[str, object]:
    """A built-in expert as its adapter folder describes it, before the registry knows it
    (never its internal adapter id)."""
    manifest = read_manifest(name, root)
    return {
        "name": name,
        "purpose": get_expert(name).purpose,
        "structured": get_expert(name).structured,
        "adapter_ready": bool(manifest),
        **manifest_summary(manifest),
    }
