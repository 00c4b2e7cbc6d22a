"""bench/summary.py: each headline figure beside its reference, and the targets judged from the
numbers, not assumed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.summary import engine, pipeline, scale, startup
from inference.paths import REPO_ROOT

ENGINE = {
    "ceiling_tok_s": 40.0,
    "rows": [
        {"what": "base", "vllm_tok_s": 20.0, "transformers_tok_s": 15.0},
        {"what": "chat", "vllm_tok_s": 17.0, "transformers_tok_s": 15.0},  # 0.85 of base
        {"what": "ui", "vllm_tok_s": 14.0, "transformers_tok_s": 15.0},  # below both
        {"what": "8 concurrent, 4 experts", "vllm_tok_s": 40.0, "transformers_tok_s": 15.0},
    ],
}


def test_engine_targets_are_met_or_not_by_the_figures() -> None:
    met = {(f.what, f.reference_is): f.met for f in engine(ENGINE)}
    assert met[("chat tok/s", "transformers+peft")] is True
    assert met[("chat tok/s", "our base")] is True
    assert met[("ui tok/s", "transformers+peft")] is False
    assert met[("ui tok/s", "our base")] is False
    assert met[("8 concurrent over 4 experts tok/s", "transformers, one after another")] is False


def test_first_render_over_50_ms_misses_its_target() -> None:
    data = {
        "time_to_first_render_overhead_ms": 60.0,
        "batch_delivery_ms_median": 4.0,
        "messages_per_100_tokens": 50.0,
        "morph_ms_median": 1.0,
    }
    first, *_ = pipeline(data)
    assert first.met is False


def test_two_workers_are_compared_with_one_worker_at_the_same_users() -> None:
    rows = [
        {"workers": w, "users": u, "generations_per_minute": float(10 * w * u)}
        for w in (1, 2)
        for u in (1, 4)
    ]
    ratios = {f.what: f.ratio for f in scale({"rows": rows})}
    assert ratios["gen/min, 1 worker(s), 4 users"] == 4.0  # against one user
    assert ratios["gen/min, 2 worker(s), 4 users"] == 2.0  # against one worker, four users


def test_it_writes_one_json_and_names_the_benches_that_did_not_run(tmp_path: Path) -> None:
    (tmp_path / "engine.json").write_text(json.dumps(ENGINE))
    done = subprocess.run(
        [sys.executable, "bench/summary.py", "--results", str(tmp_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "no scale.json" in done.stdout
    figures = json.loads((tmp_path / "summary.json").read_text())
    assert {f["area"] for f in figures} == {"engine"}
    assert any(f["met"] is False for f in figures)


def test_a_worker_ready_in_over_30_s_misses_its_target() -> None:
    slow = startup({"total_s": {"off": [60.0, 62.0, 70.0], "fork": [29.0, 31.0, 33.0]}})
    assert [(f.ours, f.reference, f.met) for f in slow] == [(31.0, 62.0, False)]
    fast = startup({"total_s": {"off": [60.0], "fork": [25.0, 28.0, 40.0]}})
    assert [f.met for f in fast] == [True]
