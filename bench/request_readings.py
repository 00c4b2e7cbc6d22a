"""How often the request readings the head acts on agree with a spec written for the request:
over the ui training prompts, whose specs are known, the fields listed bare
(inference/serving/asked_fields.py) and the values given to show
(inference/serving/named_values.py) read from each prompt, and how many of them its spec
draws. A reading the spec does not draw is one the head would add where it was not asked.

It runs with no model and no stack, in about half a minute:

    python -m bench.request_readings --out bench/results-ui4a/DATE-readings

and writes readings.json: the counts, and the misses (up to MAX_MISSES of each) to read.
The prompts are the train split's first turns, as the retrieval baseline reads them
(bench/ui4a_bench/baselines.py), so this says nothing of the dev set's phrasings
(bench/ui4a_bench/devset.jsonl): it is a check for false readings, not for recall.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bench.ui4a_bench.baselines import training_examples
from inference.serving.asked_fields import asked_fields
from inference.serving.field_completion import LABEL
from inference.serving.named_fields import labels_field
from inference.serving.named_values import named_values, value_shown

MAX_MISSES = 20
FIELD_TYPES = frozenset({"input", "textarea", "select", "radio"})


def field_drawn(name: str, spec: str) -> bool:
    labels = [label for kind, label in LABEL.findall(spec) if kind in FIELD_TYPES]
    return any(labels_field(label, name) for label in labels)


def value_drawn(value: str, spec: str) -> bool:
    return value_shown(value, spec.lower())


def tally(read: list[tuple[str, list[str], str]], drawn: Any) -> dict[str, Any]:
    """Counts of the readings (`read`: prompt, what was read, spec) the spec draws."""
    hits = misses = prompts = 0
    missed: list[dict[str, str]] = []
    for prompt, readings, spec in read:
        prompts += bool(readings)
        for reading in readings:
            if drawn(reading, spec):
                hits += 1
                continue
            misses += 1
            if len(missed) < MAX_MISSES:
                missed.append({"reading": reading, "prompt": prompt})
    return {"prompts": prompts, "read": hits + misses, "drawn": hits, "missed": missed}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    generated = training_examples(args.seed)
    fields = [(e.prompt, [name for name, _ in asked_fields(e.prompt)], e.text) for e in generated]
    values = [(e.prompt, named_values(e.prompt), e.text) for e in generated]
    report = {
        "seed": args.seed,
        "training_prompts": len(generated),
        "asked_fields": tally(fields, field_drawn),
        "named_values": tally(values, value_drawn),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "readings.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    for name in ("asked_fields", "named_values"):
        counts = report[name]
        print(
            f"{name:13} {counts['drawn']}/{counts['read']} drawn by the spec,"
            f" on {counts['prompts']} of {len(generated)} prompts"
        )


if __name__ == "__main__":
    main()
