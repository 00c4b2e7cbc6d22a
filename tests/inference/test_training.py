"""A smoke training run: a few steps at a tiny length make a loadable adapter and resume works."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest

from inference.experts import MANIFEST
from inference.offline.datasets import ui
from inference.offline.datasets.common import jsonl_bytes
from inference.offline.draft_corpus import answers
from inference.offline.training.encode import IGNORE, encode
from inference.offline.training.trainer import TrainConfig, load_checkpoint, train
from inference.serving.corpus_drafts import CORPUS_FILE
from inference.settings import EngineSettings

BASE = Path(EngineSettings.from_env().model)
ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_it_takes_loss_on_the_answer_after_the_serving_prompt() -> None:
    from transformers import AutoTokenizer

    from inference.serving.prompts import request_for

    tokenizer = AutoTokenizer.from_pretrained(BASE)
    rec = ui.generate(0)[0]
    done = encode(tokenizer, "ui", rec, max_len=4096)
    request = request_for(
        request_id="r", expert="ui", prompt=rec["messages"][0]["content"], max_tokens=1
    )
    served = tokenizer.apply_chat_template(
        [{"role": m.role, "content": m.content} for m in request.messages],
        tokenize=False,
        add_generation_prompt=True,
    )
    prompt_len = done.labels.index(next(x for x in done.labels if x != IGNORE))
    assert tokenizer.decode(done.ids[:prompt_len]) == served
    assert tokenizer.decode(done.ids[prompt_len:]) == rec["messages"][1]["content"] + "<|im_end|>"
    assert not done.truncated


def tiny_config(out: Path, work: Path, **overrides: Any) -> TrainConfig:
    """A run small enough for a test: rank 2, 24-token examples, one example a step."""
    settings: dict[str, Any] = {
        "steps": 1,
        "rank": 2,
        "max_len": 24,
        "batch": 1,
        "eval_examples": 0,
    }
    return TrainConfig(expert="ui", base=BASE, out=out, work=work, **{**settings, **overrides})


def test_it_trains_a_loadable_adapter_and_resumes(tmp_path: Path) -> None:
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    records = ui.generate(0)[:6]
    cfg = tiny_config(
        tmp_path / "adapter", tmp_path / "work", steps=2, save_every=1, eval_examples=1
    )
    lines: list[str] = []
    first = train(cfg, records, records[-1:], log=lines.append)
    assert any(line.startswith("step 2/2 loss") for line in lines)
    manifest = json.loads((cfg.out / MANIFEST).read_text())
    assert manifest == first
    assert manifest["trained"] is True and manifest["expert"] == "ui"
    assert len(manifest["base_weights_sha256"]) == 64 and len(manifest["dataset_sha256"]) == 64
    assert manifest["hyperparameters"]["rank"] == 2 and manifest["hyperparameters"]["max_len"] == 24
    assert manifest["metrics"]["final_loss"] > 0 and manifest["metrics"]["tokens_per_s"] > 0
    assert "train_expert ui" in manifest["reproduce"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left
    assert [s for s, _ in manifest["metrics"]["eval_curve"]] == [0, 1, 2]
    for png in (cfg.work / "curves.png", cfg.out / "curves.png"):
        assert png.read_bytes()[:8] == PNG_SIGNATURE
    # The ui expert's adapter ships the answers it was trained on to draft from.
    corpus = [json.loads(line) for line in (cfg.out / CORPUS_FILE).read_text().splitlines()]
    assert sorted(corpus) == sorted(answers(records))

    cfg.steps = 3
    lines.clear()
    second = train(cfg, records, [], resume=True, log=lines.append)
    assert lines[0] == "resumed from step 2"
    assert [line.split(" loss")[0] for line in lines if line.startswith("step")] == ["step 3/3"]
    assert second["metrics"]["first_loss"] == first["metrics"]["first_loss"]

    base = AutoModelForCausalLM.from_pretrained(BASE)
    model = PeftModel.from_pretrained(base, cfg.out)
    assert model.peft_config["default"].r == 2


def test_a_warm_start_begins_from_the_given_adapter(tmp_path: Path) -> None:
    from safetensors.torch import load_file

    records = ui.composed(Random(0), 4, 0.0)
    cold = tiny_config(tmp_path / "cold", tmp_path / "w1")
    train(cold, records, [], log=lambda _: None)
    # With a learning rate of 0 nothing moves: the adapter written is the one it started from.
    warm = tiny_config(
        tmp_path / "warm", tmp_path / "w2", lr=0.0, init_adapter=cold.out, edit_pairs=True
    )
    lines: list[str] = []
    manifest = train(warm, records, [], log=lines.append)
    assert lines[0] == f"warm start from {cold.out}"
    assert "--init-adapter" in manifest["reproduce"] and len(manifest["warm_start_sha256"]) == 64
    # The edit design is rebuilt from the same records by the command's own flag.
    assert manifest["reproduce"].endswith(" --edit-pairs")
    before = load_file(cold.out / "adapter_model.safetensors")
    after = load_file(warm.out / "adapter_model.safetensors")
    assert before.keys() == after.keys()
    assert any(float(t.abs().sum()) > 0 for k, t in before.items() if "lora_B" in k)
    assert all(bool((before[k] == after[k]).all()) for k in before)


def test_a_killed_run_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    import torch

    records = ui.composed(Random(0), 8, 0.0)
    data = tmp_path / "data" / "ui"
    data.mkdir(parents=True)
    (data / "train.jsonl").write_bytes(jsonl_bytes(records))
    (data / "eval.jsonl").write_bytes(jsonl_bytes(records[:1]))
    work = tmp_path / "work"
    command = [
        sys.executable,
        "manage.py",
        "train_expert",
        "ui",
        "--data",
        str(tmp_path / "data"),
        "--work",
        str(work),
        "--out",
        str(tmp_path / "out"),
        "--rank",
        "2",
        "--max-len",
        "24",
        "--batch",
        "1",
        "--save-every",
        "2",
        "--eval-examples",
        "1",
    ]
    run = subprocess.Popen([*command, "--steps", "10000"], cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not (work / "checkpoint" / "state.pt").is_file():
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.5)
    finally:
        run.kill()  # SIGKILL: no chance to save anything on the way out
        run.wait()
    saved = torch.load(work / "checkpoint" / "state.pt", weights_only=False)
    assert saved["step"] >= 2 and saved["evals"]
    resumed = subprocess.run(
        [*command, "--steps", str(saved["step"] + 1), "--resume"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert f"resumed from step {saved['step']}" in resumed.stdout
    assert f"step {saved['step'] + 1}/{saved['step'] + 1} loss" in resumed.stdout
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text())
    assert manifest["metrics"]["first_loss"] == saved["losses"][0]
    assert len(manifest["metrics"]["eval_curve"]) == len(saved["evals"]) + 1


class Planted:
    """Unpickling it runs code: here, harmlessly, creating a file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.touch, (self.marker,))


def test_a_planted_checkpoint_cannot_run_code_on_resume(tmp_path: Path) -> None:
    import torch

    marker = tmp_path / "code ran"
    torch.save({"step": 1, "adapter": Planted(marker)}, tmp_path / "state.pt")
    with pytest.raises(pickle.UnpicklingError):
        load_checkpoint(tmp_path / "state.pt")
    assert not marker.exists()
