"""Router benchmark: dev-set accuracy, per-expert recall and routing latency of the classifier,
against the keyword placeholder it replaced, measured in the same run.

    .venv/bin/python bench/router.py [--json bench/results/router.json]

Latency is the whole `route()` call for one prompt (tokenize, embed, score), after one warm-up
call; it is reported as median and p95 over every dev prompt, with the ratio to the placeholder.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import keyword_router
from inference import router


def measure(choose: Callable[[str], str], dev: list[tuple[str, str]]) -> dict[str, object]:
    choose(dev[0][0])  # warm-up: loads the model
    latencies: list[float] = []
    hits: dict[str, list[bool]] = {name: [] for name in router.EXPERT_ORDER}
    for text, expert in dev:
        start = time.perf_counter()
        got = choose(text)
        latencies.append((time.perf_counter() - start) * 1000)
        hits[expert].append(got == expert)
    latencies.sort()
    return {
        "accuracy": sum(sum(h) for h in hits.values()) / len(dev),
        "recall": {name: sum(h) / len(h) for name, h in hits.items()},
        "median_ms": statistics.median(latencies),
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    dev = router.load_prompts("dev")
    results = {
        "classifier": measure(lambda text: router.route(text).expert, dev),
        "keyword placeholder": measure(keyword_router.route, dev),
    }
    new, old = results["classifier"], results["keyword placeholder"]
    print(f"router on {len(dev)} dev prompts ({router.SCORER}; reference: keyword placeholder)")
    head = f"{'':22}{'accuracy':>10}" + "".join(f"{e:>9}" for e in router.EXPERT_ORDER)
    print(head + f"{'median ms':>11}{'p95 ms':>9}")
    for name, r in results.items():
        recall = r["recall"]
        assert isinstance(recall, dict)
        print(
            f"{name:22}{r['accuracy']:>10.1%}"
            + "".join(f"{recall[e]:>9.1%}" for e in router.EXPERT_ORDER)
            + f"{r['median_ms']:>11.2f}{r['p95_ms']:>9.2f}"
        )
    ratio = {
        key: float(new[key]) / max(float(old[key]), 1e-9)  # type: ignore[arg-type]
        for key in ("accuracy", "median_ms", "p95_ms")
    }
    print(
        f"{'ratio (classifier/kw)':22}{ratio['accuracy']:>9.2f}x"
        + " " * 36
        + f"{ratio['median_ms']:>10.0f}x{ratio['p95_ms']:>8.0f}x"
    )
    print("targets: accuracy >= 90%, median <= 20 ms")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"dev_prompts": len(dev), **results}, indent=2))


if __name__ == "__main__":
    main()
