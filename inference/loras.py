"""What an adapter is to the engine, and whether one fits the served base model.

An `AdapterRef` names the exact weights a request runs on: the public name, the LoRA integer
id vLLM caches them under, their folder and their sha256. The registry (studio/) hands these
out and never reuses an id, so a retrained adapter is a new id and vLLM cannot serve the old
weights from its cache. Validation reads only small files: the adapter's config and manifest,
and the base model's safetensors header.
"""

from __future__ import annotations

import functools
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inference.adapter_fields import (
    FieldInvalid,
    check_manifest,
    config_rank,
    config_targets,
    read_json_object,
)
from inference.base_model import MARKER as MODEL_MARKER
from inference.base_model import sha256_of
from inference.experts import DATA_ADAPTERS, EXPERTS, MANIFEST, adapter_dir

WEIGHTS = "adapter_model.safetensors"
CONFIG = "adapter_config.json"
# Requests that bring no registry record (benches, engine tests) use the built-in adapters
# under ids from here up, far above any id the registry hands out.
LOCAL_ID_BASE = 1 << 30


@dataclass(frozen=True)
class AdapterRef:
    name: str
    lora_id: int
    path: str
    sha256: str


def local_ref(name: str, root: Path | None = None) -> AdapterRef:
    """A built-in expert's adapter straight from the adapter root, without the registry."""
    if name not in EXPERTS:
        raise AdapterInvalid(f"{name!r} is not a built-in expert; register it first")
    return AdapterRef(
        name=name,
        lora_id=LOCAL_ID_BASE + sorted(EXPERTS).index(name),
        path=str(adapter_dir(name, root)),
        sha256="",
    )


def adapter_over_datasets(expert: str, serving: AdapterRef | None, root: Path) -> AdapterRef | None:
    """What the built-in `expert` answers with in a project with datasets: its data adapter
    (DATA_ADAPTERS) where one is installed and the expert serves its own folder; else `serving`
    (a version registered from elsewhere may have learned queries itself)."""
    folder = DATA_ADAPTERS.get(expert)
    if folder is None or not (adapter_dir(folder, root) / WEIGHTS).is_file():
        return serving
    if serving is not None and Path(serving.path).resolve() != adapter_dir(expert, root).resolve():
        return serving
    path = adapter_dir(folder, root)
    return AdapterRef(
        name=expert,
        lora_id=LOCAL_ID_BASE + len(EXPERTS) + sorted(DATA_ADAPTERS.values()).index(folder),
        path=str(path),
        # Named, so a resident copy of other weights is refused rather than served.
        sha256=_weights_sha256(str(path / WEIGHTS), (path / WEIGHTS).stat().st_mtime_ns),
    )


@functools.lru_cache(maxsize=8)
def _weights_sha256(path: str, mtime_ns: int) -> str:
    return sha256_of(Path(path))


class AdapterInvalid(ValueError):
    """The folder is not an adapter the served base model can take; the message says why."""


@dataclass(frozen=True)
class AdapterFacts:
    """What registration learns from an adapter folder, once it has checked it."""

    path: str
    sha256: str
    rank: int
    target_modules: tuple[str, ...]
    base_sha256: str
    manifest: dict[str, Any]


@dataclass(frozen=True)
class BaseModel:
    """The served base: its folder, the hash adapters must name, and the layers they may adapt."""

    path: Path
    sha256: str
    max_lora_rank: int

    @property
    def weights(self) -> Path:
        return self.path / "model.safetensors"


def served_base(model: str, max_lora_rank: int) -> BaseModel:
    """The base model as served: the default model's folder carries the hash of its source;
    a host serving another model names it in `MACARON_BASE_SHA256`."""
    path = Path(model)
    marker = path / MODEL_MARKER
    sha = os.environ.get("MACARON_BASE_SHA256", "")
    if not sha and marker.is_file():
        sha = str(json.loads(marker.read_text()).get("source_sha256", ""))
    return BaseModel(path=path, sha256=sha, max_lora_rank=max_lora_rank)


def inspect_adapter(folder: Path, base: BaseModel) -> AdapterFacts:
    """Check a peft LoRA folder against the served base; raise `AdapterInvalid` naming the
    first problem. Nothing is written."""
    try:
        return _inspect(folder, base)
    except FieldInvalid as exc:
        raise AdapterInvalid(str(exc)) from None


def _inspect(folder: Path, base: BaseModel) -> AdapterFacts:
    if not folder.is_dir():
        raise AdapterInvalid(f"{folder} is not a folder")
    config = read_json_object(folder / CONFIG, "the peft adapter config")
    if config.get("peft_type") != "LORA":
        raise AdapterInvalid(f"{folder / CONFIG}: peft_type is {config.get('peft_type')!r}")
    weights = folder / WEIGHTS
    if not weights.is_file():
        raise AdapterInvalid(f"{weights} is missing (only safetensors adapters are served)")
    manifest = read_json_object(folder / MANIFEST, "the Macaron manifest (it names the base hash)")
    check_manifest(manifest)

    rank = config_rank(config)
    if not 0 < rank <= base.max_lora_rank:
        raise AdapterInvalid(
            f"rank {rank} is not served: the engine takes ranks 1 to {base.max_lora_rank} "
            "(MACARON_MAX_LORA_RANK)"
        )
    if "rank" in manifest and manifest["rank"] != rank:
        raise AdapterInvalid(f"the manifest says rank {manifest['rank']}, the config {rank}")
    targets = config_targets(config)
    supported = adaptable_modules(base.path)
    unsupported = sorted(set(targets) - supported)
    if not targets or unsupported:
        raise AdapterInvalid(
            f"target modules {unsupported or targets} are not linear layers of the base model; "
            f"supported: {', '.join(sorted(supported))}"
        )

    if not base.sha256:
        raise AdapterInvalid(
            f"the served base model {base.path} has no known hash; set MACARON_BASE_SHA256"
        )
    named = str(manifest.get("base_sha256", ""))
    if named != base.sha256:
        raise AdapterInvalid(
            f"the adapter was made for base {named[:12] or '(none named)'}, but the served base "
            f"is {base.sha256[:12]}"
        )
    trained_on = str(manifest.get("base_weights_sha256", ""))
    if trained_on and base.weights.is_file() and trained_on != weights_sha256(base.weights):
        raise AdapterInvalid(
            f"the adapter was trained on base weights {trained_on[:12]}, which differ from the "
            "served model's weights"
        )
    return AdapterFacts(
        path=str(folder.resolve()),
        sha256=sha256_of(weights),
        rank=rank,
        target_modules=tuple(targets),
        base_sha256=named,
        manifest=manifest,
    )


def adaptable_modules(model_dir: Path) -> set[str]:
    """The names of the base's linear projections (`q_proj`, `down_proj`, ...), read from its
    safetensors header, or from the index of a sharded checkpoint. Registration checks against
    a local copy of the base: a hub id alone cannot say which layers it has."""
    single, index = model_dir / "model.safetensors", model_dir / "model.safetensors.index.json"
    if single.is_file():
        with single.open("rb") as handle:
            (size,) = struct.unpack("<Q", handle.read(8))
            names = [k for k, v in json.loads(handle.read(size)).items() if isinstance(v, dict)]
    elif index.is_file():
        names = list(json.loads(index.read_text()).get("weight_map", {}))
    else:
        raise AdapterInvalid(
            f"the served base model {model_dir} is not a local safetensors folder; registering "
            "an adapter checks it against the base's layers (point MACARON_MODEL at a folder)"
        )
    return {
        key.split(".")[-2]
        for key in names
        if key.endswith(".weight") and key.split(".")[-2].endswith("_proj")
    }


@functools.lru_cache(maxsize=4)
def weights_sha256(weights: Path) -> str:
    """Hashing the base's weights takes seconds: once per process is enough."""
    return sha256_of(weights)
