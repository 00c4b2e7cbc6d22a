"""Scale benchmark: generations per minute and time to first token (median, p95) with 1, 4, 8
and 16 concurrent users, on one worker, then with two workers on this machine, each with half
its cores (`MACARON_ENGINE_THREADS`).

    .venv/bin/python bench/scale.py [--users 1,4,8,16] [--rounds 3] [--tokens 48] [--json FILE]

Starts the real stack (Redis, Celery worker(s) hosting the engine, Daphne) with a throwaway
database. Each user has an API key of its own and sends streaming `/v1/chat/completions`
requests one after another (`--rounds` each), to the chat expert with `--tokens` as max_tokens;
time to first token is measured by the client, from sending the request to the first content
chunk. Each figure is shown beside its reference from the same run: one user on the same
workers, and for two workers, one worker with the same number of users. Each worker runs as
many Celery threads as the largest user count, so Celery's queue does not hide the engine's
batching. The key's per-minute rate limit is raised for the run (one user can exceed 60/min).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import p95
from studio.stack import (
    Service,
    Stack,
    StackError,
    exit_on_sigterm,
    free_port,
    throwaway_stack,
    wait_worker_ready,
)

PROMPTS = [
    "Tell me a long story about a lighthouse keeper.",
    "Explain how a bicycle works, part by part.",
    "Describe a walk through a busy market.",
    "Write about the history of bread.",
    "Explain why the sky is blue, in detail.",
    "Describe your ideal garden.",
    "Tell me about the life of a honeybee.",
    "Explain how trains run on time.",
]
MAKE_KEYS = (
    "from studio.services.api_keys import api_key_create\n"
    "for i in range({n}): print(api_key_create(name=f'scale user {{i}}')[1])"
)


@dataclass(frozen=True)
class Sample:
    started: float
    first_token_s: float
    finished: float
    tokens: int


def one_request(url: str, key: str, prompt: str, tokens: int) -> Sample:
    body: dict[str, Any] = {
        "model": os.environ.get("MACARON_PROFILE", "macaron-tiny"),
        "router": "chat",
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": tokens,
        "temperature": 0,
        "stream": True,
    }
    started = time.perf_counter()
    first = None
    used = 0
    with requests.post(
        f"{url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json=body,
        stream=True,
        timeout=600,
    ) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if not line.startswith(b"data: {"):
                continue
            chunk = json.loads(line[len(b"data: ") :])
            if "error" in chunk:
                raise RuntimeError(chunk["error"]["message"])
            if first is None and chunk["choices"][0]["delta"].get("content"):
                first = time.perf_counter() - started
            used = chunk.get("usage", {}).get("completion_tokens", used)
    assert first is not None, "no content came back"
    return Sample(started, first, time.perf_counter(), used)


def run_level(url: str, keys: list[str], users: int, rounds: int, tokens: int) -> dict[str, Any]:
    samples: list[Sample] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def user(index: int) -> None:
        try:
            for round_ in range(rounds):
                prompt = PROMPTS[(index + round_) % len(PROMPTS)]
                sample = one_request(url, keys[index], prompt, tokens)
                with lock:
                    samples.append(sample)
        except BaseException as exc:  # reported once every user has stopped
            errors.append(exc)

    threads = [threading.Thread(target=user, args=(i,)) for i in range(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    elapsed = max(s.finished for s in samples) - min(s.started for s in samples)
    first = [s.first_token_s for s in samples]
    return {
        "users": users,
        "generations": len(samples),
        "generations_per_minute": round(60 * len(samples) / elapsed, 2),
        "ttft_ms_median": round(statistics.median(first) * 1000, 1),
        "ttft_ms_p95": round(p95(first) * 1000, 1),
        "tokens_per_generation": round(statistics.mean(s.tokens for s in samples), 1),
        "tokens_per_s": round(sum(s.tokens for s in samples) / elapsed, 2),
    }


def tasks_received(worker: Service) -> int:
    text = worker.log_path.read_text(errors="replace")
    return len(re.findall(r"Task studio\.run_generation\[[^\]]+\] received", text))


def measure(
    stack: Stack, workers: list[Service], keys: list[str], args: argparse.Namespace
) -> list[dict[str, Any]]:
    rows = []
    for users in args.users:
        before = [tasks_received(w) for w in workers]
        row = run_level(stack.url, keys, users, args.rounds, args.tokens)
        row["workers"] = len(workers)
        after = [tasks_received(w) for w in workers]
        row["tasks_per_worker"] = [a - b for a, b in zip(after, before, strict=True)]
        print(
            f"  {len(workers)} worker(s), {users:>2} users: {row['generations_per_minute']} "
            f"gen/min, p95 TTFT {row['ttft_ms_p95']} ms, tasks per worker "
            f"{row['tasks_per_worker']}",
            flush=True,
        )
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--users", type=lambda s: [int(n) for n in s.split(",")], default=[1, 4, 8, 16]
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=48)
    parser.add_argument("--json", type=Path, default=Path("bench/results/scale.json"))
    args = parser.parse_args()

    exit_on_sigterm()
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-scale-"))
    stack = throwaway_stack(run_dir, {"MACARON_API_RATE_PER_MINUTE": "100000"})
    made = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-v",
            "0",
            "-c",
            MAKE_KEYS.format(n=max(args.users)),
        ],
        env=stack.env,
        check=True,
        capture_output=True,
        text=True,
    )
    keys = made.stdout.split()
    assert len(keys) == max(args.users), made.stdout
    threads = max(args.users)
    try:
        stack.start_redis(free_port())
        first = stack.start_worker(concurrency=threads)
        stack.start_daphne(free_port())
        wait_worker_ready(first, timeout=900)  # engine start-up on a busy CPU is slow
        one_request(stack.url, keys[0], "warm up", 4)
        rows = measure(stack, [first], keys, args)
        # Two workers on this host share its cores, as the README says to deploy them: the
        # one-worker engine used every core, so it makes way for two that use half each.
        first.stop()
        half = {"MACARON_ENGINE_THREADS": str(max(1, (os.cpu_count() or 2) // 2))}
        pair = [stack.start_worker(name=f"half{i}", concurrency=threads, env=half) for i in (1, 2)]
        try:
            for worker in pair:
                wait_worker_ready(worker, timeout=900)
        except StackError as exc:  # e.g. no memory left for a second engine on this machine
            print(f"  no second worker: {str(exc).splitlines()[0]}", flush=True)
        else:
            one_request(stack.url, keys[0], "warm up", 4)
            rows += measure(stack, pair, keys, args)
    finally:
        stack.stop()

    single = {(r["workers"], r["users"]): r for r in rows}
    for row in rows:
        base = single[(row["workers"], args.users[0])]
        one_worker = single[(1, row["users"])]  # always measured first
        row["gen_per_min_vs_first_level"] = round(
            row["generations_per_minute"] / base["generations_per_minute"], 2
        )
        row["gen_per_min_vs_one_worker"] = round(
            row["generations_per_minute"] / one_worker["generations_per_minute"], 2
        )
        row["ttft_p95_vs_first_level"] = round(row["ttft_ms_p95"] / base["ttft_ms_p95"], 2)

    print(
        f"chat expert, max_tokens {args.tokens}, {args.rounds} requests per user, "
        f"streaming over the API; ratios against {args.users[0]} user(s) on the same workers "
        "and against one worker"
    )
    header = (
        f"{'workers':>7}{'users':>6}{'gen/min':>9}{'vs 1st':>8}{'vs 1 wkr':>9}"
        f"{'TTFT med ms':>12}{'p95 ms':>9}{'p95 vs 1st':>11}{'tok/s':>8}{'tok/gen':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['workers']:>7}{row['users']:>6}{row['generations_per_minute']:>9}"
            f"{row['gen_per_min_vs_first_level']:>8}{row['gen_per_min_vs_one_worker']:>9}"
            f"{row['ttft_ms_median']:>12}{row['ttft_ms_p95']:>9}"
            f"{row['ttft_p95_vs_first_level']:>11}{row['tokens_per_s']:>8}"
            f"{row['tokens_per_generation']:>8}"
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"tokens": args.tokens, "rounds": args.rounds, "rows": rows}, indent=2)
    )


if __name__ == "__main__":
    main()
