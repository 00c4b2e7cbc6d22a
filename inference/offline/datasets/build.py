"""Builds every expert's dataset and writes `<expert>/{train,eval}.jsonl` plus a manifest."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from inference.offline.datasets import agent, chat, coding, ui
from inference.offline.datasets.common import Record, jsonl_bytes, sha256_hex
from inference.offline.datasets.diversity import diversity
from inference.offline.staging import staged_folder
from inference.paths import data_home

GENERATORS: dict[str, Callable[[int], list[Record]]] = {
    "ui": ui.generate,
    "chat": chat.generate,
    "coding": coding.generate,
    "agent": agent.generate,
}
MANIFEST = "manifest.json"


def dataset_home() -> Path:
    return data_home() / "datasets"


@cache
def generated(expert: str, seed: int = 0) -> tuple[Record, ...]:
    """An expert's records for a seed, built once per process: the generators are deterministic
    for a seed (a test checks it) and the ui one takes about 20 s, which every overlap check and
    baseline would otherwise pay again. Shared: read them, never change them."""
    return tuple(GENERATORS[expert](seed))


def records_for(expert: str, split: str, seed: int = 0) -> list[Record]:
    return [r for r in generated(expert, seed) if r["split"] == split]


def build_all(out: Path, *, seed: int = 0, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Write all datasets into `out` at once: staged, then renamed into place."""
    manifest: dict[str, Any] = {"seed": seed, "experts": {}}
    with staged_folder(out) as staging:
        for expert, generate in GENERATORS.items():
            records = generate(seed)
            (staging / expert).mkdir()
            entry: dict[str, Any] = {
                "kinds": dict(sorted(Counter(r["kind"] for r in records).items()))
            }
            for split in ("train", "eval"):
                data = jsonl_bytes(r for r in records if r["split"] == split)
                (staging / expert / f"{split}.jsonl").write_bytes(data)
                entry[split] = {"count": data.count(b"\n"), "sha256": sha256_hex(data)}
            if expert == "ui":
                entry["diversity"] = diversity(records)
            manifest["experts"][expert] = entry
            log(f"{expert}: {entry['train']['count']} train, {entry['eval']['count']} eval")
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2))
    return manifest


def read_split(expert: str, split: str, root: Path | None = None) -> list[Record]:
    path = (root or dataset_home()) / expert / f"{split}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]
