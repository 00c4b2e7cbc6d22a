"""The training loop: batches, AdamW with warmup and cosine decay, checkpoints, the manifest.

Checkpoints (adapter weights, optimizer, schedule, data order, losses) go to `<work>/checkpoint`
every `save_every` steps, staged and renamed, so `resume` continues from the last one. Each
checkpoint also measures the eval loss and redraws `<work>/curves.png`. The finished adapter is
staged next to `out` and renamed into place: never half-written. `init_adapter` warm-starts from
an adapter's weights (same rank and targets) instead of LoRA's zero start.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from inference.base_model import GGUF_SHA256, MODEL_DIRNAME, sha256_of
from inference.experts import MANIFEST
from inference.offline.datasets.common import Record, jsonl_bytes, sha256_hex
from inference.offline.draft_corpus import write_draft_corpus
from inference.offline.training.curves import draw_curves
from inference.offline.training.encode import IGNORE, Encoded, encode
from inference.paths import model_cache

TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
Log = Callable[[str], None]


@dataclass
class TrainConfig:
    expert: str
    base: Path
    out: Path
    work: Path
    steps: int = 300
    rank: int = 16
    lr: float = 2e-4
    max_len: int = 768
    batch: int = 4
    save_every: int = 25
    eval_examples: int = 16
    seed: int = 0
    init_adapter: Path | None = None
    # Trained on one kind of example plus a replay of the others (focus.py); "" for all.
    focus: str = ""
    focus_share: float = 0.5
    # Retrieve-then-edit pairs (datasets/edit_pairs.py) instead of the records as they are.
    edit_pairs: bool = False
    # Recompute activations in the backward pass: about a third more compute, but a batch of
    # 4 x 1024 tokens needs about 1 GB instead of 10, which the shared 24 GB machine cannot spare.
    gradient_checkpointing: bool = True
    targets: list[str] = field(default_factory=lambda: list(TARGETS))


def _lr_at(step: int, cfg: TrainConfig) -> float:
    warmup = max(1, cfg.steps // 20)
    if step < warmup:
        return cfg.lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, cfg.steps - warmup)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def grouped_batches(lengths: list[int], size: int, seed: int) -> list[list[int]]:
    """Shuffled batches of similar length: each window of 16 batches is sorted by length before
    it is cut, so little compute goes to padding (about a quarter on the ui set), and the batch
    order is shuffled again so lengths do not drift through the run. Deterministic per seed,
    which is what lets `resume` pick up the same order."""
    rng = Random(seed)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    window = size * 16
    batches: list[list[int]] = []
    for start in range(0, len(order), window):
        chunk = sorted(order[start : start + window], key=lambda i: lengths[i])
        batches.extend(chunk[i : i + size] for i in range(0, len(chunk), size))
    rng.shuffle(batches)
    return batches


def _batch(items: list[Encoded], pad_id: int, device: str = "cpu") -> dict[str, Any]:
    import torch

    width = max(len(e.ids) for e in items)
    ids = [e.ids + [pad_id] * (width - len(e.ids)) for e in items]
    labels = [e.labels + [IGNORE] * (width - len(e.labels)) for e in items]
    mask = [[1] * len(e.ids) + [0] * (width - len(e.ids)) for e in items]
    return {
        "input_ids": torch.tensor(ids, device=device),
        "labels": torch.tensor(labels, device=device),
        "attention_mask": torch.tensor(mask, device=device),
    }


def _stage_dir(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    staging.chmod(0o755)
    return staging


def _swap_in(staging: Path, target: Path) -> None:
    old = target.with_name(f".{target.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def base_hashes(base: Path) -> dict[str, str]:
    """The base an adapter belongs to. The default model is named by the GGUF it is built from,
    as untrained adapters are; another local base by its weights; a hub id by its name."""
    weights = base / "model.safetensors"
    weights_sha = sha256_of(weights) if weights.is_file() else ""
    if base.resolve() == (model_cache() / MODEL_DIRNAME).resolve():
        identity = GGUF_SHA256
    else:
        identity = weights_sha or f"hub:{base}"
    return {"base_sha256": identity, "base_weights_sha256": weights_sha}


def load_checkpoint(path: Path) -> dict[str, Any]:
    """A resume checkpoint's state. It holds only tensors and plain values (numbers, strings,
    lists, dicts), so it loads with `weights_only=True`: a planted checkpoint cannot run code,
    as an unrestricted pickle could; it is refused with `pickle.UnpicklingError`."""
    import torch

    state = torch.load(path, weights_only=True)
    if not isinstance(state, dict):
        raise ValueError(f"{path} is not a training checkpoint")
    return state


def train(
    cfg: TrainConfig,
    train_set: list[Record],
    eval_set: list[Record],
    *,
    resume: bool = False,
    log: Log = print,
) -> dict[str, Any]:
    import torch
    from peft import (
        LoraConfig,
        get_peft_model,
        get_peft_model_state_dict,
        set_peft_model_state_dict,
    )
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(cfg.seed)
    tokenizer = AutoTokenizer.from_pretrained(cfg.base)
    # fp32 on the CPU (its bf16 kernels are slower here); bf16 on a GPU, for a larger base.
    device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    base = AutoModelForCausalLM.from_pretrained(cfg.base, dtype=dtype).to(device)
    if cfg.gradient_checkpointing:
        base.config.use_cache = False
        base.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    lora = LoraConfig(
        r=cfg.rank,
        lora_alpha=2 * cfg.rank,
        lora_dropout=0.0,
        target_modules=cfg.targets,
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(base, lora)
    if cfg.init_adapter is not None:
        from safetensors.torch import load_file

        weights = load_file(cfg.init_adapter / "adapter_model.safetensors")
        result = set_peft_model_state_dict(model, weights)
        unexpected = getattr(result, "unexpected_keys", [])
        if unexpected:
            raise ValueError(f"{cfg.init_adapter} does not fit this LoRA: {unexpected[:3]}")
        log(f"warm start from {cfg.init_adapter}")
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    encoded = [encode(tokenizer, cfg.expert, rec, cfg.max_len) for rec in train_set]
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    batches = grouped_batches([len(e.ids) for e in encoded], cfg.batch, cfg.seed)
    step, losses, tokens, seconds = 0, [], 0, 0.0
    evals: list[tuple[int, float]] = []
    eval_records = eval_set[: cfg.eval_examples]
    checkpoint = cfg.work / "checkpoint"
    if resume and (checkpoint / "state.pt").is_file():
        state = load_checkpoint(checkpoint / "state.pt")
        set_peft_model_state_dict(model, state["adapter"])
        optimizer.load_state_dict(state["optimizer"])
        step, losses, tokens, seconds = (
            state["step"],
            state["losses"],
            state["tokens"],
            state["seconds"],
        )
        evals = [(int(s), float(v)) for s, v in state.get("evals", [])]
        log(f"resumed from step {step}")
    if step == 0 and eval_records:
        # Where the run starts from (zero LoRA, or a warm start's adapter), on this eval set.
        measured = _eval_loss(model, tokenizer, cfg, eval_records, pad, device)
        if measured is not None:
            evals.append((0, measured))
            log(f"step 0 eval loss {measured:.4f}")
    model.train()
    while step < cfg.steps:
        started = time.perf_counter()
        batch = _batch([encoded[i] for i in batches[step % len(batches)]], pad, device)
        for group in optimizer.param_groups:
            group["lr"] = _lr_at(step, cfg)
        loss = model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1
        losses.append(round(float(loss.detach()), 4))
        tokens += int(batch["attention_mask"].sum())
        seconds += time.perf_counter() - started
        eta = (cfg.steps - step) * seconds / step
        speed = tokens / seconds
        log(f"step {step}/{cfg.steps} loss {losses[-1]:.4f} {speed:.0f} tok/s eta {eta:.0f}s")
        if step % cfg.save_every == 0 or step == cfg.steps:
            measured = _eval_loss(model, tokenizer, cfg, eval_records, pad, device)
            if measured is not None:
                evals.append((step, measured))
                log(f"step {step} eval loss {measured:.4f}")
            draw_curves(cfg.work / "curves.png", losses, evals, title=f"{cfg.expert} LoRA")
            staging = _stage_dir(checkpoint)
            state = {
                "adapter": get_peft_model_state_dict(model),
                "optimizer": optimizer.state_dict(),
                "step": step,
                "losses": losses,
                "tokens": tokens,
                "seconds": seconds,
                "evals": evals,
            }
            torch.save(state, staging / "state.pt")
            _swap_in(staging, checkpoint)
    if evals and evals[-1][0] == step:
        eval_loss: float | None = evals[-1][1]
    else:
        eval_loss = _eval_loss(model, tokenizer, cfg, eval_records, pad, device)
    tail = losses[-10:]
    metrics = {
        "final_loss": round(sum(tail) / len(tail), 4),
        "first_loss": losses[0],
        "eval_loss": eval_loss,
        "trained_tokens": tokens,
        "tokens_per_s": round(tokens / seconds, 1),
        "train_seconds": round(seconds, 1),
        "truncated_examples": sum(e.truncated for e in encoded),
        "epochs": round(step / len(batches), 2),
        "eval_curve": [[s, v] for s, v in evals],
    }
    manifest = {
        "expert": cfg.expert,
        "trained": True,
        **base_hashes(cfg.base),
        "dataset_sha256": sha256_hex(jsonl_bytes(train_set)),
        "dataset_examples": len(train_set),
        "rank": cfg.rank,
        "target_modules": cfg.targets,
        "hyperparameters": {
            k: v
            for k, v in asdict(cfg).items()
            if k not in ("expert", "base", "out", "work", "targets", "init_adapter")
        },
        "metrics": metrics,
        "reproduce": (
            ".venv/bin/python manage.py build_datasets && .venv/bin/python manage.py "
            f"train_expert {cfg.expert} --steps {cfg.steps} --rank {cfg.rank} --lr {cfg.lr} "
            f"--max-len {cfg.max_len} --batch {cfg.batch} --seed {cfg.seed} "
            f"--targets {','.join(cfg.targets)}"
            + (f" --init-adapter {cfg.init_adapter}" if cfg.init_adapter else "")
            + (f" --focus {cfg.focus} --focus-share {cfg.focus_share}" if cfg.focus else "")
            + (" --edit-pairs" if cfg.edit_pairs else "")
        ),
    }
    if cfg.init_adapter is not None:
        manifest["warm_start_sha256"] = sha256_of(cfg.init_adapter / "adapter_model.safetensors")
    staging = _stage_dir(cfg.out)
    _save_half(model, staging)
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2))
    write_draft_corpus(staging, cfg.expert, train_set, seed=cfg.seed)
    draw_curves(staging / "curves.png", losses, evals, title=f"{cfg.expert} LoRA")
    _swap_in(staging, cfg.out)
    log(f"adapter written to {cfg.out} (final loss {metrics['final_loss']}, eval loss {eval_loss})")
    return manifest


def _save_half(model: Any, folder: Path) -> None:
    """Committed adapters should be small: fp16 halves them, and the engine casts LoRA weights
    to its own dtype when it loads them."""
    import torch
    from safetensors.torch import load_file, save_file

    model.save_pretrained(folder)
    # peft records the base's local path; the manifest's hashes identify the base instead, and
    # a path on the training machine means nothing where the adapter travels.
    config_path = folder / "adapter_config.json"
    config = json.loads(config_path.read_text())
    config["base_model_name_or_path"] = Path(str(config["base_model_name_or_path"])).name
    config_path.write_text(json.dumps(config, indent=2))
    weights = folder / "adapter_model.safetensors"
    tensors = {k: v.to(torch.float16).contiguous() for k, v in load_file(weights).items()}
    save_file(tensors, weights, metadata={"format": "pt"})


def _eval_loss(
    model: Any, tokenizer: Any, cfg: TrainConfig, records: list[Record], pad: int, device: str
) -> float | None:
    import torch

    if not records:
        return None
    model.eval()
    total = 0.0
    with torch.no_grad():
        for rec in records:
            encoded = encode(tokenizer, cfg.expert, rec, cfg.max_len)
            total += float(model(**_batch([encoded], pad, device)).loss)
    model.train()
    return round(total / len(records), 4)
