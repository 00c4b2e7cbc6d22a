"""Prefix-cache benchmark: time to first token for a request that shares a long, byte-identical
system prompt (about 2,000 tokens: the UI4A catalog with an example per component) with the
requests before it, against the same kind of request with vLLM's prefix cache cleared first.

    .venv/bin/python bench/prefix_cache.py [--runs 5] [--prefix-tokens 2000] [--json FILE]

Runs our engine host (`inference.serving.engine.VllmEngine`) with the configured model through
the ui expert, constrained to the UI4A schema as the studio asks. Each run resets the cache, times a
request (uncached: the whole prompt is computed), then times another request with a different
user message (cached: only the part after the shared prefix is). Prints medians, the ratio
(target: cached at most 0.3 of uncached) and the hit rate from vLLM's own prefix-cache stats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ui4a
from inference.protocol import GenerationRequest, Message
from inference.serving.engine import VllmEngine
from inference.serving.prefix_cache import PrefixCacheStats
from inference.serving.prompts import ui_system_prompt
from inference.settings import EngineSettings
from ui4a.registry import components, example_path

QUESTIONS = [
    "a login form with email and password",
    "a newsletter signup box",
    "a settings page with a dark mode switch",
    "a contact form with name, email and a message",
    "a pricing page with three plans",
    "a todo list with a filter",
    "a dashboard with revenue, orders and a chart",
    "a checkout form with an address",
]


def catalog_prompt(tokenizer: Any, target_tokens: int) -> str:
    """The ui system prompt, then one compact example per component until the target length."""
    lines = [ui_system_prompt(), "", "The UI4A components, each with an example:"]
    for component in components().values():
        example = json.loads(example_path(component).read_text())
        lines.append(f"- {component.name}: {json.dumps(example, separators=(',', ':'))}")
        if len(tokenizer.encode("\n".join(lines))) >= target_tokens:
            break
    return "\n".join(lines)


def time_to_first_token(engine: VllmEngine, system: str, question: str) -> tuple[float, int]:
    request = GenerationRequest(
        request_id=str(uuid.uuid4()),
        expert="ui",
        messages=(Message("system", system), Message("user", question)),
        max_tokens=1,
        json_schema=ui4a.json_schema(queries=False),  # as served with no datasets
    )
    start = time.perf_counter()
    first = None
    prompt_tokens = 0
    for delta in engine.stream(request):
        if first is None and delta.tokens:
            first = time.perf_counter() - start
        prompt_tokens = delta.prompt_tokens or prompt_tokens
    assert first is not None, "the engine produced no token"
    return first, prompt_tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--prefix-tokens", type=int, default=2000)
    parser.add_argument("--json", type=Path, default=Path("bench/results/prefix_cache.json"))
    args = parser.parse_args()

    from transformers import AutoTokenizer

    settings = EngineSettings.from_env()
    tokenizer = AutoTokenizer.from_pretrained(settings.model)
    system = catalog_prompt(tokenizer, args.prefix_tokens)
    prefix_tokens = len(tokenizer.encode(system))
    engine = VllmEngine(settings, count_prefix_cache=True)
    try:
        time_to_first_token(engine, system, "warm up")  # compile the grammar, load the adapter
        uncached: list[float] = []
        cached: list[float] = []
        uncached_stats = cached_stats = PrefixCacheStats(0, 0)
        prompt_tokens = 0
        for run in range(args.runs):
            engine.reset_prefix_cache()
            before = engine.prefix_cache_stats()
            seconds, prompt_tokens = time_to_first_token(
                engine, system, QUESTIONS[(2 * run) % len(QUESTIONS)]
            )
            uncached.append(seconds)
            middle = engine.prefix_cache_stats()
            seconds, _ = time_to_first_token(
                engine, system, QUESTIONS[(2 * run + 1) % len(QUESTIONS)]
            )
            cached.append(seconds)
            after = engine.prefix_cache_stats()
            uncached_stats = uncached_stats + (middle - before)
            cached_stats = cached_stats + (after - middle)
    finally:
        engine.shutdown()

    table = {
        "prefix_tokens": prefix_tokens,
        "prompt_tokens": prompt_tokens,
        "uncached_ttft_ms_median": round(statistics.median(uncached) * 1000, 1),
        "cached_ttft_ms_median": round(statistics.median(cached) * 1000, 1),
        "cached_vs_uncached": round(statistics.median(cached) / statistics.median(uncached), 3),
        "target_cached_vs_uncached": 0.3,
        "uncached_hit_rate": round(uncached_stats.hit_rate, 3),
        "cached_hit_rate": round(cached_stats.hit_rate, 3),
        "cached_hits_tokens": cached_stats.hits,
        "cached_queries_tokens": cached_stats.queries,
        "runs": args.runs,
        "model": settings.model,
    }
    print(
        f"shared prefix {prefix_tokens} tokens of a {prompt_tokens}-token prompt "
        f"(ui expert, UI4A schema); {args.runs} runs, medians"
    )
    header = f"{'request':<40}{'TTFT ms':>10}{'ratio':>8}{'hit rate':>10}"
    print(header)
    print("-" * len(header))
    print(
        f"{'prefix cache cleared first (reference)':<40}"
        f"{table['uncached_ttft_ms_median']:>10}{1.0:>8}{table['uncached_hit_rate']:>10}"
    )
    print(
        f"{'shared prefix cached':<40}{table['cached_ttft_ms_median']:>10}"
        f"{table['cached_vs_uncached']:>8}{table['cached_hit_rate']:>10}"
    )
    print(f"target: cached at most {table['target_cached_vs_uncached']} of uncached")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(table, indent=2))


if __name__ == "__main__":
    main()
