"""What each way of drafting gives the ui expert's specs, on the engine alone (issue 17, item 2).

    .venv/bin/python -m bench.drafts [--prompts 4] [--runs 2] [--tokens 512]
        [--expert ui] [--configs none,jump-forward,lookup,both,corpus,corpus-8] [--json FILE]

The ui expert writes dev-set screens (one prompt of each kind, in id order) under the UI4A
grammar, greedily, one request at a time, on our engine started each of these ways:
- none: no drafts (one token a step), the reference;
- jump-forward: the text the grammar forces is the draft (`MACARON_JUMP_FORWARD=1`);
- lookup: vLLM's prompt-lookup drafts (`MACARON_SPEC_NGRAM=4`);
- both: jump-forward where the grammar forces text, prompt lookup elsewhere;
- both-8: the same with up to 8 draft tokens a step, not 4;
- corpus: both, with drafts from the adapter's own corpus too (`MACARON_CORPUS_DRAFTS=4`);
- corpus-8: the same with up to 8 draft tokens a step for a request with a corpus (the default).
Each configuration runs in an engine of its own, one after the other, in the order above, and
the order is repeated `--runs` times so a slow spell of the machine falls on every one. For
each: seconds per spec (submission to last token), tokens, engine steps (streamed deltas: one
a step), and whether the text is the same as none's. Ratios are taken within a run.
Settings from the environment apply to every configuration (e.g. `MACARON_CPU_COMPILE=1`).
`--expert chat` (or any expert without a grammar) asks the same prompts of an expert that writes
free text: jump-forward then drafts nothing, and the figure is what drafting's machinery costs a
request it cannot help.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_timing import spread
from bench.ui4a_bench.devset import DevPrompt, one_per_kind
from inference.settings import EngineSettings

# name: (MACARON_SPEC_NGRAM, MACARON_JUMP_FORWARD, MACARON_CORPUS_DRAFTS): the last is 8,
# the default, in "corpus-8" only.
CONFIGS = {
    "none": (0, False, 0),
    "jump-forward": (0, True, 0),
    "lookup": (4, False, 0),
    "both": (4, True, 0),
    # Up to 8 draft tokens a step, not 4: a forced run of keys and brackets is often longer.
    "both-8": (8, True, 0),
    "corpus": (4, True, 4),
    "corpus-8": (4, True, 8),
}


@dataclass
class Spec:
    config: str
    run: int
    prompt: str
    seconds: float
    tokens: int
    steps: int
    text: str


def write(
    config: str, run: int, prompts: list[DevPrompt], tokens: int, expert: str = "ui"
) -> list[Spec]:
    from inference.serving.engine import VllmEngine
    from inference.serving.prompts import request_for

    lookup, jump_forward, corpus = CONFIGS[config]
    settings = replace(
        EngineSettings.from_env(),
        spec_ngram_tokens=lookup,
        jump_forward=jump_forward,
        corpus_draft_tokens=corpus,
    )
    engine = VllmEngine(settings)
    try:
        specs = []
        for prompt in prompts:
            request = request_for(
                request_id=str(uuid.uuid4()), expert=expert, prompt=prompt.prompt, max_tokens=tokens
            )
            started = time.perf_counter()
            deltas = list(engine.stream(request))
            seconds = time.perf_counter() - started
            text = "".join(d.text for d in deltas)
            specs.append(
                Spec(config, run, prompt.id, seconds, deltas[-1].tokens, len(deltas), text)
            )
        return specs
    finally:
        engine.shutdown()


def table(
    specs: list[Spec], default: dict[tuple[int, str], Spec], runs: int, configs: list[str]
) -> str:
    lines = [
        "| configuration | s a spec (median) | steps / tokens | time / default's (min / median"
        " / max over runs) | same text as default |",
        "| --- | --- | --- | --- | --- |",
    ]
    for config in configs:
        mine = [s for s in specs if s.config == config]
        ratios = []
        for run in range(runs):
            ran = [s for s in mine if s.run == run]
            ratios.append(
                sum(s.seconds for s in ran) / sum(default[run, s.prompt].seconds for s in ran)
            )
        same = sum(s.text == default[s.run, s.prompt].text for s in mine)
        steps = sum(s.steps for s in mine) / sum(s.tokens for s in mine)
        r = spread(ratios)
        lines.append(
            f"| {config} | {statistics.median(s.seconds for s in mine):.2f} | {steps:.2f} | "
            f"{r['min']:.2f} / {r['median']:.2f} / {r['max']:.2f} | {same} of {len(mine)} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--expert", default="ui")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="none comes first, always")
    parser.add_argument("--json", type=Path, default=Path("bench/results/drafts.json"))
    args = parser.parse_args()
    configs = ["none"] + [c for c in args.configs.split(",") if c and c != "none"]
    if unknown := set(configs) - set(CONFIGS):
        parser.error(f"unknown configurations {sorted(unknown)}; known: {sorted(CONFIGS)}")
    prompts = one_per_kind(args.prompts)
    specs: list[Spec] = []
    for run in range(args.runs):
        for config in configs:
            specs += write(config, run, prompts, args.tokens, args.expert)
            print(f"run {run + 1}: {config} done", file=sys.stderr, flush=True)
    default = {(s.run, s.prompt): s for s in specs if s.config == "none"}
    text = table(specs, default, args.runs, configs)
    print(text)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "expert": args.expert,
        "prompts": [p.id for p in prompts],
        "runs": args.runs,
        "max_tokens": args.tokens,
        "specs": [{k: v for k, v in asdict(s).items() if k != "text"} for s in specs],
        "same_text_as_default": {
            config: [s.text == default[s.run, s.prompt].text for s in specs if s.config == config]
            for config in configs
        },
        "table": text,
    }
    args.json.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
