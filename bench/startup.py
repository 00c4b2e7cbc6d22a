"""Start-up benchmark: how long the worker takes from a cold process to ready, and where it goes.

    .venv/bin/python -m bench.startup [--runs 3] [--configs off,fork,on] [--out DIR]
                                      [--json bench/results/startup.json]

Starts the real worker as the stack starts it (`Stack.start_worker`: Celery with the vLLM
engine, against the embedded Redis, on a throwaway migrated database), `--runs` times for each
configuration, alternating configurations so drift in the machine's load falls on both. Each
run is a fresh process; the clock starts just before it is spawned and stops when it touches its
ready file. The phases are the ones the worker and its engine-core process log themselves
(`inference.startup_phases` lines in the worker's log), not estimates. Prints min/median/max per
phase and configuration, and writes one small JSON per run under `--out`.

Configurations (each a set of the settings start-up reads; README, "Configuration"):
- `off`: as the worker started before issue 17: vLLM spawns its engine core, the UI4A grammar
  is compiled when the warm-up asks for it, the KV cache is written whole and the drafter is
  compiled at every start.
- `fork`: the engine core is forked from the worker (`MACARON_ENGINE_FORK=1`).
- `precompile`: spawned, but the engine core compiles the warm-up's grammar on a thread while
  it loads the model (`MACARON_GRAMMAR_PRECOMPILE=1`).
- `on`: both.
- `cache`: spawned, with the compiled-grammar cache (`MACARON_GRAMMAR_CACHE=1`), filled by one
  start before the measured ones. It does not pay for the UI4A grammar (see grammar_cache.py):
  grammars that large are compiled, not stored.
- `fork-zeroed`: forked, with the KV cache written whole at start and the prompt-lookup drafter
  compiled at every start (`MACARON_KV_ON_TOUCH=0 MACARON_NGRAM_JIT_CACHE=0`): the default
  start before those two.
- `compiled`: spawned, with the model compiled (`MACARON_CPU_COMPILE=1`). A first start
  compiles in its warm-up (about 100 s on 2 cores, bench/RESULTS.md); later ones load
  inductor's cached graph after dynamo traces the model again (a warm-up of about 27 s).
The page cache is warm in every run (the model was read before): a worker that starts after a
reboot reads the model's 0.5 GB from disk on top.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference import startup_phases
from studio.stack import Stack, exit_on_sigterm, free_port, throwaway_stack, wait_worker_ready

CONFIGS: dict[str, dict[str, str]] = {
    "off": {
        "MACARON_ENGINE_FORK": "0",
        "MACARON_GRAMMAR_PRECOMPILE": "0",
        "MACARON_KV_ON_TOUCH": "0",
        "MACARON_NGRAM_JIT_CACHE": "0",
    },
    "cache": {"MACARON_ENGINE_FORK": "0", "MACARON_GRAMMAR_CACHE": "1"},
    "precompile": {"MACARON_ENGINE_FORK": "0", "MACARON_GRAMMAR_PRECOMPILE": "1"},
    "fork": {"MACARON_ENGINE_FORK": "1", "MACARON_GRAMMAR_PRECOMPILE": "0"},
    "on": {"MACARON_ENGINE_FORK": "1", "MACARON_GRAMMAR_PRECOMPILE": "1"},
    "fork-zeroed": {
        "MACARON_ENGINE_FORK": "1",
        "MACARON_KV_ON_TOUCH": "0",
        "MACARON_NGRAM_JIT_CACHE": "0",
    },
    "compiled": {"MACARON_ENGINE_FORK": "0", "MACARON_CPU_COMPILE": "1"},
}
# Phases logged by the engine-core process or inside another phase: shown indented under it.
WITHIN = {
    "engine core: process start and imports": "engine construction",
    "engine core: model load": "engine construction",
    "engine core: kv cache and model warm-up": "engine construction",
    "grammar: tokenizer info": "warm-up",
    "grammar: compile": "warm-up",
    "grammar: cache load": "warm-up",
    "grammar: cache write": "warm-up",
    "grammar: precompile": "engine construction",
    "grammar: early compile": "engine construction",
    "grammar: wait for precompile": "warm-up",
}
TOTAL = "total: spawn to ready"
OUTSIDE = "outside any phase (Celery's own start, signals)"


def run_once(stack: Stack, name: str, env: dict[str, str]) -> dict[str, Any]:
    """Start one worker, wait until it is ready, stop it; its phases from its log."""
    spawned = time.time()
    worker = stack.start_worker(name=name, concurrency=4, env=env)
    try:
        wait_worker_ready(worker, timeout=900)
    finally:
        worker.stop()
    lines = worker.log_path.read_text(errors="replace").splitlines()
    phases = [p for line in lines if (p := startup_phases.parse(line)) is not None]
    ready = next(p["end"] for p in phases if p["phase"] == "ready")
    rows = [
        {
            "phase": p["phase"],
            "start_s": round(p["start"] - spawned, 3),
            "duration_s": round(p["end"] - p["start"], 3),
            **{k: v for k, v in p.items() if k not in ("phase", "start", "end", "pid")},
        }
        for p in phases
        if p["phase"] != "ready"
    ]
    top = sum(r["duration_s"] for r in rows if r["phase"] not in WITHIN)
    return {
        "total_s": round(ready - spawned, 3),
        "outside_s": round(ready - spawned - top, 3),
        "phases": rows,
    }


def durations(run: dict[str, Any]) -> dict[str, float]:
    found: dict[str, float] = {TOTAL: run["total_s"], OUTSIDE: run["outside_s"]}
    for row in run["phases"]:
        found[row["phase"]] = found.get(row["phase"], 0.0) + row["duration_s"]
    return found


def table(runs: dict[str, list[dict[str, Any]]]) -> str:
    """Min/median/max seconds per phase (rows, in the order the first run logged them) and
    configuration (columns)."""
    order: list[str] = []
    for config_runs in runs.values():
        for run in config_runs:
            for row in run["phases"]:
                if row["phase"] not in order:
                    order.append(row["phase"])
    top = [p for p in order if p not in WITHIN]
    rows = []
    for phase in top:
        rows.append(phase)
        rows.extend(p for p in order if WITHIN.get(p) == phase)
    rows.extend(p for p in order if p in WITHIN and WITHIN[p] not in top)
    rows += [OUTSIDE, TOTAL]
    head = "| phase (s, min / median / max) | " + " | ".join(runs) + " |"
    lines = [head, "| --- |" + " --- |" * len(runs)]
    for phase in rows:
        cells = []
        for config_runs in runs.values():
            values = [d[phase] for run in config_runs if phase in (d := durations(run))]
            cells.append(
                f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"
                if values
                else "-"
            )
        label = f"&nbsp;&nbsp;{phase}" if phase in WITHIN else phase
        if phase == TOTAL:
            label = f"**{phase}**"
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--configs", default="off,fork,on")
    parser.add_argument("--out", type=Path, default=Path("bench/results/startup"))
    parser.add_argument("--json", type=Path, help="also write each configuration's totals here")
    args = parser.parse_args()
    configs = args.configs.split(",")
    unknown = set(configs) - set(CONFIGS)
    if unknown:
        parser.error(f"unknown configurations {sorted(unknown)}; known: {sorted(CONFIGS)}")

    exit_on_sigterm()
    args.out.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-startup-"))
    cache_dir = run_dir / "grammar-cache"
    stack = throwaway_stack(run_dir, {"MACARON_GRAMMAR_CACHE_DIR": str(cache_dir)})
    runs: dict[str, list[dict[str, Any]]] = {config: [] for config in configs}
    try:
        stack.start_redis(free_port())
        if "cache" in configs:  # the cache the "cache" runs read, written by a start of its own
            print("writing the grammar cache (one start, not counted)", flush=True)
            run_once(stack, "startup-fill", CONFIGS["cache"])
        for index in range(args.runs):
            for config in configs:  # alternating, so the machine's drift falls on each
                load_before = os.getloadavg()
                run = run_once(stack, f"startup-{config}-{index + 1}", CONFIGS[config])
                run.update(
                    config=config,
                    run=index + 1,
                    settings=CONFIGS[config],
                    started_at=datetime.now(UTC).isoformat(timespec="seconds"),
                    loadavg_1min_before=round(load_before[0], 2),
                    cpus=os.cpu_count(),
                )
                runs[config].append(run)
                out = args.out / f"startup-{config}-run{index + 1}.json"
                out.write_text(json.dumps(run, indent=1) + "\n")
                print(
                    f"{config} run {index + 1}: ready in {run['total_s']:.1f} s ({out})", flush=True
                )
    finally:
        stack.stop()
    print()
    print(table(runs))
    if args.json:
        totals = {config: [run["total_s"] for run in found] for config, found in runs.items()}
        args.json.write_text(json.dumps({"total_s": totals}, indent=1) + "\n")


if __name__ == "__main__":
    main()
