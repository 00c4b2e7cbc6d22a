"""UI4A-Bench, one command: every dev prompt under each variant, judged in Debian's Chromium;
prints the table, writes the per-prompt JSON, a summary and an HTML screenshot grid.

Variants, side by side in one run: the no-model baselines `retrieval` (the nearest training
prompt's spec) and `fixed` (one training spec per screen kind), see baselines.py; and, on the
real stack and one engine, `base` (the base model with no adapter, constrained to the UI4A
schema), `trained` (the ui expert's installed adapter, constrained), `edit` (retrieve-then-edit:
the trained expert asked for the prompt as a refinement of the `retrieval` pick) and
`unconstrained` (the ui expert without the JSON-schema grammar). The stack starts only when a
model variant is asked.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from itertools import zip_longest
from pathlib import Path
from typing import Any

from bench.ui4a_bench import devset
from bench.ui4a_bench.baselines import BASELINES, default_token_counter, generate_baselines
from bench.ui4a_bench.generate import Generated, generate_all, product_max_tokens, running_stack
from bench.ui4a_bench.judges import Job, judge_many
from bench.ui4a_bench.report import Row, html_report, summarize, table
from bench.ui4a_bench.stage_endings import write_stage_endings
from bench.ui4a_bench.tail_waits import write_tail_waits
from bench.variants import VARIANTS, UnknownVariant, check_variant

ORDER = (*BASELINES, "base", "sampled", "trained", "best-of", "edit", "unconstrained")
DEFAULT_VARIANTS = (*BASELINES, "base", "trained")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def spread(prompts: list[devset.DevPrompt], per_kind: int = 0) -> list[devset.DevPrompt]:
    """Round-robin over screen kinds, so `--limit N` still samples N different kinds;
    `per_kind` keeps only the first N prompts of each kind (in the dev set's order)."""
    kinds: dict[str, list[devset.DevPrompt]] = {}
    for prompt in prompts:
        kinds.setdefault(prompt.kind, []).append(prompt)
    if per_kind:
        kinds = {kind: listed[:per_kind] for kind, listed in kinds.items()}
    rounds = zip_longest(*kinds.values())
    return [p for group in rounds for p in group if p is not None]


def queue_order(prompts: list[devset.DevPrompt], seed: int) -> list[devset.DevPrompt]:
    """The order the model variants' generations are queued in: the prompts' own for seed 0,
    else shuffled by `seed`. The engine batches what is queued together, and a batch can tip a
    greedy near-tie, so runs of one order repeat each other almost spec for spec; runs of other
    orders show the spread (bench/RESULTS.md, 2026-12-06, 21:35)."""
    return random.Random(seed).sample(prompts, len(prompts)) if seed else list(prompts)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.ui4a_bench", description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="only the first N prompts (spread)")
    parser.add_argument(
        "--per-kind", type=int, default=0, help="only the first N prompts of each kind"
    )
    parser.add_argument("--ids", default="", help="only these prompt ids (comma-separated)")
    parser.add_argument(
        "--variants", default=",".join(DEFAULT_VARIANTS), help=f"comma-separated, of {ORDER}"
    )
    parser.add_argument(
        "--derived",
        action="store_true",
        help="also run the interaction checks derived from each spec (reported apart)",
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        help="per screen (default: the product's, MACARON_UI_MAX_TOKENS)",
    )
    parser.add_argument("--concurrency", type=int, default=8, help="worker threads")
    parser.add_argument(
        "--order-seed",
        type=int,
        default=0,
        help="queue the model variants' generations shuffled by this seed (0: dev-set order)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results/ui4a_bench"))
    parser.add_argument(
        "--judges", type=int, default=os.cpu_count() or 1, help="Chromium processes judging"
    )
    parser.add_argument(
        "--rejudge", type=Path, help="judge the generations in this results.json again"
    )
    args = parser.parse_args(argv)
    named = [v.strip() for v in args.variants.split(",") if v.strip()]
    try:
        args.variants = [v if v in BASELINES else check_variant(v) for v in named]
    except UnknownVariant as exc:
        parser.error(f"{exc}, or a baseline: {', '.join(BASELINES)}")
    if not args.variants:
        parser.error(f"--variants needs at least one of {', '.join((*BASELINES, *VARIANTS))}")
    if min(args.limit, args.per_kind) < 0 or (args.max_tokens is not None and args.max_tokens < 16):
        parser.error("--limit and --per-kind must be >= 0, --max-tokens >= 16")
    if min(args.concurrency, args.judges) < 1:
        parser.error("--concurrency and --judges must be >= 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    # Stop the stack on Ctrl-C or a kill, even when started in the background (which ignores
    # SIGINT): both unwind through `running_stack`, which stops Redis, the worker and Daphne.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    prompts = spread(devset.load(), args.per_kind)
    if args.ids:
        wanted = set(args.ids.split(","))
        prompts = [p for p in prompts if p.id in wanted]
        if len(prompts) != len(wanted):
            raise SystemExit(f"unknown prompt ids: {wanted - {p.id for p in prompts}}")
    if args.limit:
        prompts = prompts[: args.limit]
    variants = [v for v in ORDER if v in args.variants]
    models = [v for v in variants if v not in BASELINES]
    started = time.monotonic()
    if args.rejudge:
        chosen = {p.id for p in prompts}  # --limit applies to a rejudge too
        generated = [g for g in _reload(args.rejudge, variants) if g.prompt_id in chosen]
        prompts = [p for p in prompts if any(g.prompt_id == p.id for g in generated)]
    else:
        log(
            f"UI4A-Bench: {len(prompts)} prompts x {len(variants)} variants ({', '.join(variants)})"
        )
        baselines = [v for v in variants if v in BASELINES]
        generated = generate_baselines(prompts, baselines, count_tokens=default_token_counter())
        if models:
            queued = generate_models(queue_order(prompts, args.order_seed), models, args, started)
            place = {p.id: i for i, p in enumerate(prompts)}  # reported in the dev set's order
            generated += sorted(queued, key=lambda g: place[g.prompt_id])
    judged_at = time.monotonic()
    rows = judge_all(prompts, generated, args.out, workers=args.judges, derived=args.derived)
    log(f"judged in Chromium in {time.monotonic() - judged_at:.0f} s")

    summary = summarize(rows, variants)
    summary["config"] = {
        "prompts": len(prompts),
        "variants": variants,
        "per_kind": args.per_kind,
        "ids": args.ids,
        "limit": args.limit,
        "derived_checks": args.derived,
        **run_settings(args, models),
        "concurrency": args.concurrency,
        "order_seed": args.order_seed,
        "model": Path(os.environ["MACARON_MODEL"]).name
        if "MACARON_MODEL" in os.environ
        else "default",
        "profile": os.environ.get("MACARON_PROFILE", "macaron-tiny"),
        "wall_s": round(time.monotonic() - started, 1),
    }
    print(table(summary))
    write(args.out, summary, rows, variants)


# The engine settings that shape what a spec decodes to, recorded with a run's figures.
DECODING = (
    "staged_data",
    "copy_bias",
    "copy_bias_repeats",
    "copy_bias_no_stutter",
    "copy_follow",
    "copy_steer",
)


def decoding() -> dict[str, Any]:
    """The decoding settings as the run's engine reads them: the stack's worker inherits this
    process's environment (studio.stack)."""
    from inference.settings import EngineSettings

    settings = EngineSettings.from_env()
    return {name: getattr(settings, name) for name in DECODING}


def run_settings(args: argparse.Namespace, models: list[str]) -> dict[str, Any]:
    """What the generations were decoded under: the token limit and the decoding settings of
    this run's engine, or, for a rejudge, of the run that wrote them (None where it did not
    say)."""
    if args.rejudge:
        earlier = json.loads(args.rejudge.read_text())["summary"].get("config", {})
        ran = {key: earlier.get(key) for key in ("max_tokens", "decoding")}
        return {**ran, "rejudged": True}
    if not models:
        return {"max_tokens": None, "decoding": None}
    return {"max_tokens": args.max_tokens or product_max_tokens(), "decoding": decoding()}


def write(out: Path, summary: dict[str, Any], rows: list[Row], variants: list[str]) -> None:
    """results.json (everything, specs and texts included, for --rejudge), and the small files
    a run commits: summary.json and per_prompt.json (one line per prompt and variant)."""
    out.mkdir(parents=True, exist_ok=True)
    results = {"summary": summary, "results": [row.as_dict() for row in rows]}
    (out / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False))
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False))
    lines = [json.dumps(row.brief(), ensure_ascii=False) for row in rows]
    (out / "per_prompt.json").write_text("[\n" + ",\n".join(lines) + "\n]\n")
    (out / "report.html").write_text(html_report(summary, rows, variants))
    log(f"wrote results.json, summary.json, per_prompt.json and report.html in {out}")


def generate_models(
    prompts: list[devset.DevPrompt], models: list[str], args: argparse.Namespace, started: float
) -> list[Generated]:
    """The model variants on the real stack, started for this run and stopped after it."""
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-ui4a-bench-"))
    with running_stack(
        run_dir, concurrency=args.concurrency, max_tokens=args.max_tokens, log=log
    ) as stack:
        ready = time.monotonic()
        timeout = 600 + 300 * len(prompts) * len(models) / args.concurrency
        generated = generate_all(stack, prompts, models, log=log, timeout_s=timeout)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    write_tail_waits(run_dir / "worker.log", Path(args.out) / "tail_waits.json")
    write_stage_endings(run_dir / "worker.log", Path(args.out) / "stage_endings.json")
    log(
        f"generated in {time.monotonic() - ready:.0f} s (stack start included: "
        f"{time.monotonic() - started:.0f} s)"
    )
    return generated


def judge_all(
    prompts: list[devset.DevPrompt],
    generated: list[Generated],
    out: Path,
    *,
    workers: int,
    derived: bool = False,
) -> list[Row]:
    by_id = {p.id: p for p in prompts}
    shots = [Path("shots") / f"{g.prompt_id}-{g.variant}.png" for g in generated]
    jobs: list[Job] = [
        (g.spec, list(by_id[g.prompt_id].requires), by_id[g.prompt_id].script, out / shot, derived)
        for g, shot in zip(generated, shots, strict=True)
    ]
    verdicts = dict(judge_many(jobs, workers=workers, log=log))
    return [
        Row(by_id[g.prompt_id], g, verdicts[i], str(shots[i]) if verdicts[i].rendered else "")
        for i, g in enumerate(generated)
    ]


def _reload(path: Path, variants: list[str]) -> list[Generated]:
    """Generations from an earlier run's results.json, to judge again without the engine."""
    stored = json.loads(path.read_text())["results"]
    keep = set(Generated.__dataclass_fields__)
    return [
        Generated(**{k: v for k, v in r.items() if k in keep})
        for r in (dict(r, prompt_id=r["prompt_id"], generation_id=r["generation"]) for r in stored)
        if r["variant"] in variants
    ]


if __name__ == "__main__":
    main()
