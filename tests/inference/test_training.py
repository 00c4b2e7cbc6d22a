"""A smoke training run: a few steps at a tiny length make a loadable adapter and resume works."""

from __future__ import annotations

import json
from pathlib import Path

from inference.experts import MANIFEST
from inference.offline.datasets import ui
from inference.offline.training.encode import IGNORE, encode
from inference.offline.training.trainer import TrainConfig, train
from inference.settings import EngineSettings

BASE = Path(EngineSettings.from_env().model)


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


def test_it_trains_a_loadable_adapter_and_resumes(tmp_path: Path) -> None:
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    records = ui.generate(0)[:6]
    cfg = TrainConfig(
        expert="ui",
        base=BASE,
        out=tmp_path / "adapter",
        work=tmp_path / "work",
        steps=2,
        rank=2,
        max_len=24,
        batch=1,
        save_every=1,
        eval_examples=1,
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

    cfg.steps = 3
    lines.clear()
    second = train(cfg, records, [], resume=True, log=lines.append)
    assert lines[0] == "resumed from step 2"
    assert [line.split(" loss")[0] for line in lines if line.startswith("step")] == ["step 3/3"]
    assert second["metrics"]["first_loss"] == first["metrics"]["first_loss"]

    base = AutoModelForCausalLM.from_pretrained(BASE)
    model = PeftModel.from_pretrained(base, cfg.out)
    assert model.peft_config["default"].r == 2
