"""REPL benchmark: what a sandboxed session costs per cell, alone and with 8 sessions at once,
beside a plain Jupyter kernel (no bubblewrap, no limits, loopback TCP) in the same run.

    .venv/bin/python -m bench.repl [--cells 40] [--sessions 8] [--json bench/results/repl.json]

Per-cell overhead is submit to result for `1+1`, through `ReplSessions.execute` as the API's
view calls it (its flock, its state file, a fresh client connection each call). The reference
drives a kernel that `jupyter_client` starts the usual way with one long-lived client, so the
ratio is what the sandbox and the session bookkeeping add; 8 plain kernels at once are the
reference for 8 sessions at once. Also: a session's start (kernel up
and answering), median over the sessions started. Prints one table of medians and p95s.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django
from jupyter_client.manager import start_new_kernel

from bench.stats import p95
from studio.repl.sessions import ReplConfig, ReplSessions

CODE = "1+1"


def figures(seconds: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(seconds) * 1000, 2),
        "p95_ms": round(p95(seconds) * 1000, 2),
        "n": len(seconds),
    }


def bench_config(root: Path) -> ReplConfig:
    """The service's configuration (studio/settings.py), in a root of the bench's own, and
    room for every session the bench starts under one owner."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
    django.setup()
    from studio.services.repl import repl_config

    return dataclasses.replace(repl_config(), root=root, max_sessions_per_owner=64)


def timed_cells(run: Callable[[], Any], cells: int) -> list[float]:
    seconds = []
    for _ in range(cells):
        started = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - started)
    return seconds


def all_at_once(work: Callable[[int], list[float]], n: int) -> list[float]:
    """Every cell time of `n` threads running `work(i)` at once."""
    seconds: list[float] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        mine = work(i)
        with lock:
            seconds.extend(mine)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return seconds


def plain_kernels(n: int, cells: int) -> tuple[list[float], list[float]]:
    """Cell times of one plain kernel alone, then of `n` plain kernels at once."""
    kernels = [start_new_kernel(kernel_name="python3") for _ in range(n)]

    def run(i: int) -> None:
        kernels[i][1].execute_interactive(CODE, timeout=30, output_hook=lambda message: None)

    try:
        for i in range(n):
            run(i)  # warm, as a session's first cell is
        alone = timed_cells(lambda: run(0), cells)
        together = all_at_once(lambda i: timed_cells(lambda: run(i), cells), n)
        return alone, together
    finally:
        for manager, client in kernels:
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def sandboxed(root: Path, sessions_at_once: int, cells: int) -> dict[str, Any]:
    sessions = ReplSessions(bench_config(root))
    starts: list[float] = []
    ids: list[str] = []
    for _ in range(sessions_at_once):
        started = time.perf_counter()
        ids.append(sessions.create("bench").id)
        sessions.execute(ids[-1], "bench", CODE)  # up and answering
        starts.append(time.perf_counter() - started)
    alone = timed_cells(lambda: sessions.execute(ids[0], "bench", CODE), cells)
    together = all_at_once(
        lambda i: timed_cells(lambda: sessions.execute(ids[i], "bench", CODE), cells),
        sessions_at_once,
    )
    sessions.close_all()
    return {"start": figures(starts), "alone": figures(alone), "together": figures(together)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=int, default=40, help="cells a session runs, timed")
    parser.add_argument("--sessions", type=int, default=8, help="sessions running at once")
    parser.add_argument("--json", type=Path, default=Path("bench/results/repl.json"))
    args = parser.parse_args(argv)
    # Socket paths must fit in 108 bytes: a short root under /tmp.
    root = Path(tempfile.mkdtemp(prefix="repl-bench-", dir="/tmp"))
    try:
        plain_alone, plain_together = plain_kernels(args.sessions, args.cells)
        ours = sandboxed(root, args.sessions, args.cells)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    reference = {"alone": figures(plain_alone), "together": figures(plain_together)}
    at_once = f"{args.sessions} at once (each cell)"
    rows = [
        ("plain kernel, alone (reference)", reference["alone"], reference["alone"]),
        ("session, alone", ours["alone"], reference["alone"]),
        (f"plain kernels, {at_once} (reference)", reference["together"], reference["together"]),
        (f"sessions, {at_once}", ours["together"], reference["together"]),
    ]
    print(f"{'`1+1`, submit to result':<50} {'median ms':>10} {'p95 ms':>8} {'x reference':>12}")
    for name, row, ref in rows:
        ratio = row["median_ms"] / ref["median_ms"]
        print(f"{name:<50} {row['median_ms']:>10} {row['p95_ms']:>8} {ratio:>11.2f}x")
    start = ours["start"]
    print(
        f"session start, kernel answering: median {start['median_ms']:.0f} ms, p95 "
        f"{start['p95_ms']:.0f} ms ({start['n']} sessions)"
    )
    report = {
        "cells": args.cells,
        "sessions": args.sessions,
        "cpus": os.cpu_count(),
        "plain_kernels": reference,
        **ours,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
