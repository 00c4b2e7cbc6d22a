"""Agent bench: each task of bench/agent_bench asked through `/v1/chat/completions` of a running
stack, of the agent and coding experts with the Python tool loop (`tools`: python and
promote_tool, `repl: "new"`) and, as the baseline, of the same expert without tools. Prints a
table of success rate, mean tool steps and seconds per task; writes one JSON per run (expert and
mode) under bench/results-agent/<date>/.

    # on a stack you run (manage.py runstack), with an API key from manage.py create_api_key:
    .venv/bin/python -m bench.agent --url http://127.0.0.1:8000 --key mk_...
    # or on a throwaway stack of its own (Redis, one engine worker, Daphne):
    .venv/bin/python -m bench.agent --stack
    # a few tasks, one expert, tools only:
    .venv/bin/python -m bench.agent --stack --experts agent --modes tools --ids fib30,gcd
    # three runs for a spread, four tasks at a time (the engine batches them):
    .venv/bin/python -m bench.agent --stack --runs 3 --concurrency 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests

from bench.agent_bench.checks import AgentTask
from bench.agent_bench.tasks import TASKS
from inference.tool_calls import PROMOTE_TOOL, PYTHON_TOOL

EXPERTS = ("agent", "coding")
MODES = ("tools", "plain")
REQUEST_TIMEOUT_S = 600


@dataclass(frozen=True)
class Outcome:
    task: str
    kind: str
    ok: bool
    steps: int
    seconds: float
    stopped: str  # why the loop ended, as the server says; "" without tools
    reply: str
    error: str = ""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def request_body(task: AgentTask, expert: str, mode: str, max_tokens: int) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": os.environ.get("MACARON_PROFILE", "macaron-tiny"),
        "router": expert,
        "messages": [{"role": "user", "content": task.prompt}],
        "max_tokens": max_tokens,
        "temperature": 0,
    }
    if mode == "tools":
        body["tools"] = [PYTHON_TOOL, PROMOTE_TOOL]
        body["repl"] = "new"
    return body


def ask(url: str, key: str, task: AgentTask, expert: str, mode: str, max_tokens: int) -> Outcome:
    started = time.perf_counter()
    try:
        response = requests.post(
            f"{url}/v1/chat/completions",
            headers={"Authorization": f"Bearer {key}"},
            json=request_body(task, expert, mode, max_tokens),
            timeout=REQUEST_TIMEOUT_S,
        )
        data = response.json()
    except (requests.RequestException, ValueError) as exc:
        seconds = round(time.perf_counter() - started, 2)
        return Outcome(task.id, task.kind, False, 0, seconds, "", "", f"{type(exc).__name__}")
    seconds = round(time.perf_counter() - started, 2)
    if response.status_code != 200:
        problem = str(data.get("error", {}).get("message", response.status_code))
        return Outcome(task.id, task.kind, False, 0, seconds, "", "", problem)
    reply = str(data["choices"][0]["message"].get("content") or "")
    repl = data.get("repl") or {}
    if repl.get("session_id"):  # one session a task: close it, or the key runs out of them
        requests.delete(
            f"{url}/v1/repl/sessions/{repl['session_id']}",
            headers={"Authorization": f"Bearer {key}"},
            timeout=REQUEST_TIMEOUT_S,
        )
    steps = [s for s in repl.get("steps", []) if isinstance(s, dict)]
    ok = task.check(reply, steps)
    return Outcome(task.id, task.kind, ok, len(steps), seconds, str(repl.get("stopped", "")), reply)


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "tasks": len(outcomes),
        "solved": sum(o.ok for o in outcomes),
        "success_rate": round(sum(o.ok for o in outcomes) / max(1, len(outcomes)), 3),
        "mean_steps": round(statistics.mean(o.steps for o in outcomes), 2) if outcomes else 0,
        "mean_seconds": round(statistics.mean(o.seconds for o in outcomes), 2) if outcomes else 0,
        "errors": sum(bool(o.error) for o in outcomes),
        "by_kind": {
            kind: f"{sum(o.ok for o in outcomes if o.kind == kind)}/"
            f"{sum(o.kind == kind for o in outcomes)}"
            for kind in sorted({o.kind for o in outcomes})
        },
    }


def spread(values: list[float]) -> str:
    """min / median / max of the runs, or the one value."""
    if len(values) == 1:
        return f"{values[0]:g}"
    return "/".join(f"{v:g}" for v in (min(values), statistics.median(values), max(values)))


def table(results: dict[tuple[str, str], list[dict[str, Any]]]) -> str:
    """One line per expert and mode; with several runs, each figure is min/median/max."""
    lines = [f"{'expert':<8} {'mode':<6} {'solved':>14} {'steps':>16} {'s/task':>18}  by kind"]
    for (expert, mode), runs in results.items():
        kinds = " ".join(f"{k}={v}" for k, v in runs[-1]["by_kind"].items())
        solved = spread([s["solved"] for s in runs])
        lines.append(
            f"{expert:<8} {mode:<6} {solved + '/' + str(runs[0]['tasks']):>14} "
            f"{spread([s['mean_steps'] for s in runs]):>16} "
            f"{spread([s['mean_seconds'] for s in runs]):>18}  {kinds}"
        )
    return "\n".join(lines)


@contextmanager
def own_stack() -> Iterator[tuple[str, str]]:
    """Redis, one engine worker and Daphne on a throwaway database, and a fresh API key."""
    from studio.stack import (
        exit_on_sigterm,
        free_port,
        throwaway_stack,
        wait_worker_ready,
    )

    exit_on_sigterm()
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-agent-bench-"))
    limits = {"MACARON_API_RATE_PER_MINUTE": "10000", "MACARON_STUDIO_RATE_PER_MINUTE": "10000"}
    stack = throwaway_stack(run_dir, limits)
    try:
        stack.start_redis(free_port())
        worker = stack.start_worker(name="worker")
        stack.start_daphne(free_port())
        log(f"waiting for the engine worker (logs in {run_dir})")
        wait_worker_ready(worker, timeout=900)
        key = subprocess.run(
            [sys.executable, "manage.py", "create_api_key", "--name", "agent bench"],
            env=stack.env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        yield stack.url, key
    finally:
        stack.stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.agent", description=__doc__)
    parser.add_argument("--url", default="", help="a running stack's base URL")
    parser.add_argument("--key", default=os.environ.get("MACARON_API_KEY", ""))
    parser.add_argument("--stack", action="store_true", help="start a throwaway stack")
    parser.add_argument("--experts", default=",".join(EXPERTS))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--ids", default="", help="only these task ids (comma-separated)")
    parser.add_argument("--max-tokens", type=int, default=400)
    parser.add_argument("--runs", type=int, default=1, help="repeat everything, for a spread")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="tasks in flight (4 at most)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results-agent"))
    args = parser.parse_args(argv)
    if not 1 <= args.concurrency <= 4 or args.runs < 1:
        parser.error("--concurrency takes 1 to 4 (a key holds 4 sessions), --runs at least 1")
    args.experts = [e for e in args.experts.split(",") if e]
    args.modes = [m for m in args.modes.split(",") if m]
    if set(args.experts) - set(EXPERTS) or set(args.modes) - set(MODES):
        parser.error(f"--experts takes some of {EXPERTS}, --modes some of {MODES}")
    if not args.stack and not (args.url and args.key):
        parser.error("pass --stack, or --url and --key (or MACARON_API_KEY)")
    ids = {i for i in args.ids.split(",") if i}
    args.tasks = [t for t in TASKS if not ids or t.id in ids]
    if ids - {t.id for t in args.tasks}:
        parser.error(f"unknown task ids {sorted(ids - {t.id for t in TASKS})}")
    return args


def run_once(
    args: argparse.Namespace, url: str, key: str, number: int
) -> dict[tuple[str, str], dict[str, Any]]:
    """Every task for every expert and mode, once; one JSON per expert and mode."""
    stamp = datetime.now(UTC)
    folder = args.out / stamp.strftime("%Y-%m-%d")
    folder.mkdir(parents=True, exist_ok=True)
    results = {}
    for expert in args.experts:
        for mode in args.modes:

            def one(task: AgentTask, expert: str = expert, mode: str = mode) -> Outcome:
                outcome = ask(url, key, task, expert, mode, args.max_tokens)
                verdict = "ok" if outcome.ok else f"no {outcome.error}".strip()
                cost = f"{outcome.steps} steps, {outcome.seconds}s"
                log(f"run {number} {expert}/{mode} {task.id}: {verdict} ({cost})")
                return outcome

            with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
                outcomes = list(pool.map(one, args.tasks))
            results[(expert, mode)] = summary(outcomes)
            record = {
                "expert": expert,
                "mode": mode,
                "started": stamp.isoformat(timespec="seconds"),
                "run": number,
                "concurrency": args.concurrency,
                "max_tokens": args.max_tokens,
                "summary": results[(expert, mode)],
                "tasks": [asdict(o) for o in outcomes],
            }
            name = f"{expert}-{mode}-{stamp.strftime('%H%M%S')}.json"
            (folder / name).write_text(json.dumps(record, indent=1) + "\n")
    return results


def run(
    args: argparse.Namespace, url: str, key: str
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for number in range(1, args.runs + 1):
        for pair, result in run_once(args, url, key, number).items():
            runs.setdefault(pair, []).append(result)
    return runs


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.stack:
        with own_stack() as (url, key):
            results = run(args, url, key)
    else:
        results = run(args, args.url.rstrip("/"), args.key)
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
