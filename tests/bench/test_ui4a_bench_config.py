"""What a UI4A-Bench run records of how its specs were decoded (bench/ui4a_bench/__main__.py),
so a figure decoded under a setting traces to the file that says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.ui4a_bench import devset
from bench.ui4a_bench.__main__ import decoding, parse_args, queue_order, run_settings


def test_a_run_records_the_decoding_settings_its_engine_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MACARON_COPY_FOLLOW", "5")
    monkeypatch.setenv("MACARON_COPY_BIAS", "0")
    said = decoding()
    assert said["copy_follow"] == 5.0 and said["copy_bias"] == 0.0
    assert set(said) == {
        "staged_data",
        "copy_bias",
        "copy_bias_repeats",
        "copy_bias_no_stutter",
        "copy_follow",
        "copy_steer",
    }
    args = parse_args(["--variants", "trained", "--max-tokens", "700"])
    assert run_settings(args, ["trained"]) == {"max_tokens": 700, "decoding": said}
    baselines = parse_args(["--variants", "retrieval"])
    assert run_settings(baselines, []) == {"max_tokens": None, "decoding": None}


def test_a_rejudge_records_what_the_judged_run_was_decoded_under(tmp_path: Path) -> None:
    decoded = {"staged_data": True, "copy_bias": 2.0, "copy_bias_repeats": 2, "copy_follow": 5.0}
    earlier = tmp_path / "results.json"
    config = {"max_tokens": 1024, "decoding": decoded, "wall_s": 9.0}
    earlier.write_text(json.dumps({"summary": {"config": config}, "results": []}))
    args = parse_args(["--variants", "trained", "--rejudge", str(earlier)])
    said = run_settings(args, ["trained"])
    assert said == {"max_tokens": 1024, "decoding": decoded, "rejudged": True}
    older = tmp_path / "older.json"  # a run from before runs said how they decoded
    older.write_text(json.dumps({"summary": {"config": {"max_tokens": 700}}, "results": []}))
    said = run_settings(parse_args(["--rejudge", str(older)]), ["trained"])
    assert said == {"max_tokens": 700, "decoding": None, "rejudged": True}


def test_a_run_queues_its_generations_in_the_order_its_seed_says() -> None:
    """Seed 0 keeps the dev set's order; another seed shuffles it, the same way each time."""
    prompts = devset.load()[:40]
    assert queue_order(prompts, 0) == prompts
    shuffled = queue_order(prompts, 1)
    assert shuffled == queue_order(prompts, 1) != prompts
    assert sorted(p.id for p in shuffled) == sorted(p.id for p in prompts)
    assert queue_order(prompts, 2) != shuffled
    assert parse_args(["--order-seed", "3"]).order_seed == 3
    assert parse_args([]).order_seed == 0
