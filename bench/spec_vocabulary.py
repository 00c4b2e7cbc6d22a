"""A shorter spec vocabulary, measured before building it: how many of a ui spec's tokens a
one- or two-letter vocabulary for its keys and its component names would save.

    .venv/bin/python -m bench.spec_vocabulary [--json bench/results/spec_vocabulary.json]

Reads the ui adapter's draft corpus (200 of its training answers, as the expert learned to write
them), and tokenizes each with the base model's tokenizer, compact as the engine decodes it: as
it is, with every key of the spec's vocabulary renamed to the shortest code (`a`, `b`, ... by
frequency; the designer's own names, state keys and datasets' columns, stay as written), with
every component type (`"t"`'s value) renamed the same way, and with both. No model runs: the
figures are token counts, exact for each variant. What they cost in time depends on how many of
those tokens are steps of their own, which jump-forward's drafts already decide (see
bench/RESULTS.md, where the figures are read).
"""

from __future__ import annotations

import argparse
import json
import statistics
import string
import sys
from collections import Counter
from itertools import count, product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference.paths import REPO_ROOT
from inference.settings import EngineSettings

CORPUS = REPO_ROOT / "inference/offline/trained_adapters/ui/draft-corpus.jsonl"
VARIANTS = ("as written", "short keys", "short component names", "both")


def short_codes(names: Counter[str]) -> dict[str, str]:
    """The most frequent name gets `a`, then `b`, ... `z`, `aa`, ..."""
    codes = (
        "".join(letters)
        for size in count(1)
        for letters in product(string.ascii_lowercase, repeat=size)
    )
    return {name: next(codes) for name, _ in names.most_common()}


# Top-level values whose keys are the designer's names (state keys, datasets and their
# columns), not the spec's vocabulary: kept as written in every variant.
NAMED = ("state", "data")


def vocabulary(spec: dict[str, Any], keys: Counter[str], types: Counter[str]) -> None:
    keys.update(list(spec))
    for key, value in spec.items():
        if key not in NAMED:
            walk(value, keys, types)


def walk(node: Any, keys: Counter[str], types: Counter[str]) -> None:
    if isinstance(node, dict):
        keys.update(list(node))
        if isinstance(node.get("t"), str):
            types[node["t"]] += 1
        for value in node.values():
            walk(value, keys, types)
    elif isinstance(node, list):
        for item in node:
            walk(item, keys, types)


def renamed_spec(
    spec: dict[str, Any], keys: dict[str, str] | None, types: dict[str, str] | None
) -> dict[str, Any]:
    return {
        (keys[key] if keys is not None else key): (
            value if key in NAMED else renamed(value, keys, types)
        )
        for key, value in spec.items()
    }


def renamed(node: Any, keys: dict[str, str] | None, types: dict[str, str] | None) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "t" and types is not None and isinstance(value, str):
                value = types[value]
            out[keys[key] if keys is not None else key] = renamed(value, keys, types)
        return out
    if isinstance(node, list):
        return [renamed(item, keys, types) for item in node]
    return node


def measure(specs: list[dict[str, Any]], encode: Any) -> dict[str, Any]:
    keys: Counter[str] = Counter()
    types: Counter[str] = Counter()
    for spec in specs:
        vocabulary(spec, keys, types)
    key_codes, type_codes = short_codes(keys), short_codes(types)
    mappings = {
        "as written": (None, None),
        "short keys": (key_codes, None),
        "short component names": (None, type_codes),
        "both": (key_codes, type_codes),
    }
    tokens: dict[str, list[int]] = {variant: [] for variant in VARIANTS}
    for spec in specs:
        for variant, (k, t) in mappings.items():
            text = json.dumps(renamed_spec(spec, k, t), separators=(",", ":"), ensure_ascii=False)
            tokens[variant].append(len(encode(text)))
    written = sum(tokens["as written"])
    return {
        "specs": len(specs),
        "distinct_keys": len(keys),
        "distinct_component_names": len(types),
        "tokens": {variant: sum(counts) for variant, counts in tokens.items()},
        "share_of_tokens": {
            variant: round(sum(counts) / written, 3) for variant, counts in tokens.items()
        },
        "median_tokens_a_spec": {
            variant: statistics.median(counts) for variant, counts in tokens.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, default=Path("bench/results/spec_vocabulary.json"))
    args = parser.parse_args()
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(EngineSettings.from_env().model)
    specs = [json.loads(json.loads(line)) for line in CORPUS.read_text().splitlines() if line]
    result = measure(specs, lambda text: tokenizer.encode(text, add_special_tokens=False))
    print(f"{result['specs']} specs of the ui corpus, base tokenizer")
    print(f"{'vocabulary':<24}{'tokens':>8}{'share':>8}{'median a spec':>15}")
    for variant in VARIANTS:
        print(
            f"{variant:<24}{result['tokens'][variant]:>8}"
            f"{result['share_of_tokens'][variant]:>8}{result['median_tokens_a_spec'][variant]:>15}"
        )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
