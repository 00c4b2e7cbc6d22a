"""Property-based fuzzing of ui4a: parse, repair, validate and render never raise unexpectedly
and stay within their time and size budgets.

    .venv/bin/python -m bench.fuzz_ui4a [--cases 10000] [--schema-cases 2000] [--out F.json]

Specs come from two sources. Beyond the schema: drawn from the component catalog (every
component, every field by its kind), with hostile values mixed in: wrong types, strings with
markup, huge and non-finite numbers, nested lists over large datasets, catastrophic patterns,
remote images, garbage keys. Within it: drawn from the decoding schema by hypothesis-jsonschema
(bench/schema_specs.py), what the ui expert can write under the grammar.

Each case is parsed from its JSON text (whole, and cut at a few prefixes, as a stream arrives),
validated, repaired and rendered (the body of the raw spec, the document of the repaired one).
A case fails when any step raises anything but SpecTooLarge, takes more CPU than STEP_SECONDS,
draws more than the byte budget, or repair hands back a spec that is not strict JSON. Prints
one row a source (cases, failures, max ms, max bytes) and writes the figures and the first
failures as JSON. tests/ui4a/test_ui4a_fuzz.py runs a few hundred of each.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ui4a import (  # noqa: E402
    SpecTooLarge,
    parse_partial,
    render_body,
    render_document,
    repair,
    validate,
)
from ui4a import actions as ui4a_actions  # noqa: E402
from ui4a.budget import MAX_RENDERED_BYTES  # noqa: E402
from ui4a.catalog import COMMON_FIELDS, Field  # noqa: E402
from ui4a.registry import components  # noqa: E402

# No single step of one case may take more CPU than this. A step at the render budget (20,000
# nodes) takes about a second; CPU time, not wall time, so a busy machine does not fail it.
STEP_SECONDS = 3.0
# The view's HTML is held to MAX_RENDERED_BYTES; a document adds its inline scripts and styles
# and the datasets as JSON (under the spec's own byte limit).
BYTES_BUDGET = MAX_RENDERED_BYTES + 2 * 1024 * 1024
PREFIX_CUTS = 4

NAMES = ["a", "b", "n", "k", "sales", "todos", "x_1"]
HOSTILE_TEXT = [
    "",
    "<script>window.pwned=1</script>",
    '"><img src=x onerror=alert(1)>',
    "{a} {.b} {missing}",
    "[x](//evil.example/login) [y](javascript:alert(1))",
    '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    '<link rel="prefetch" href="https://evil.example">',
    "\u202e\u0000\ud7ff\U0001f600",
    "x" * 700,
]
PATTERNS = ["(a|a)*b", "(a+)+b", "[0-9]{5}", "^[^@]+@[^@]+$", "(", "\\p{L}+", "(\\w+)\\1"]
URLS = [
    "https://evil.example/?d=secret",
    "//evil.example/x.png",
    "data:image/png;base64,iVBORw0KGgo=",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
]
EXTREME_NUMBERS = [
    0,
    -1,
    0.5,
    1e308,
    -1e308,
    5e-324,
    math.inf,
    -math.inf,
    math.nan,
    10**400,
    -(10**30),
]

numbers = st.one_of(
    st.integers(-1000, 1000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(EXTREME_NUMBERS),
)
texts = st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE_TEXT))
scalars = st.one_of(texts, numbers, st.booleans(), st.none())
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)
names = st.one_of(st.sampled_from(NAMES), st.text(max_size=6))


def value_for(field: Field) -> st.SearchStrategy[Any]:
    """A value for `field`: usually of its kind, sometimes anything at all."""
    kind = field.kind
    if field.regex:
        typed: st.SearchStrategy[Any] = st.one_of(st.sampled_from(PATTERNS), texts)
    elif kind in ("str", "text", "md"):
        typed = texts
    elif kind in ("key", "data"):
        typed = st.one_of(st.sampled_from(NAMES), st.sampled_from([".a", ".n"]), names)
    elif kind == "enum":
        typed = st.sampled_from(field.values) if field.values else texts
    elif kind == "num":
        typed = numbers
    elif kind == "bool":
        typed = st.booleans()
    elif kind in ("strs", "filter"):
        typed = st.lists(
            st.one_of(texts, st.sampled_from(["n>k", "a=b", "*~k", "n>=1e400"])), max_size=4
        )
    elif kind == "cond":
        typed = st.sampled_from(["a", "!a", "n>2", ".a", "n=1e400", "k!=x", "??"])
    elif kind == "url":
        typed = st.one_of(st.sampled_from(URLS), texts)
    elif kind == "record":
        typed = st.dictionaries(st.sampled_from(NAMES), scalars, max_size=4)
    elif kind == "action":
        typed = actions_value()
    else:
        typed = scalars
    return st.one_of(typed, typed, typed, json_values)


def actions_value() -> st.SearchStrategy[Any]:
    one = st.builds(
        lambda do, path, value: {"do": do, "path": path, "value": value},
        st.sampled_from([*ui4a_actions.ACTIONS, "nope"]),
        st.one_of(st.sampled_from(NAMES), names),
        st.one_of(scalars, st.dictionaries(st.sampled_from(NAMES), scalars, max_size=3)),
    )
    return st.one_of(one, st.lists(one, min_size=1, max_size=4))


@st.composite
def nodes(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    catalog = components()
    name = draw(st.sampled_from([*sorted(catalog), "nope"]))
    component = catalog.get(name)
    node: dict[str, Any] = {"t": name}
    fields = (*COMMON_FIELDS, *(component.fields if component else ()))
    for one in fields:
        if draw(st.booleans()) or one.required:
            node[one.name] = draw(value_for(one))
    if draw(st.integers(0, 9)) == 0:
        node[draw(texts)] = draw(json_values)  # a property no component has
    if component is not None and component.children and depth < 5:
        node["c"] = draw(st.lists(nodes(depth + 1), max_size=4 if depth < 3 else 2))
    return node


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    """A spec shaped like the model's, with hostile values in any field."""
    spec: dict[str, Any] = {"root": {"t": "page", "c": draw(st.lists(nodes(1), max_size=5))}}
    if draw(st.booleans()):
        spec["title"] = draw(texts)
    if draw(st.booleans()):
        spec["state"] = draw(st.dictionaries(st.sampled_from(NAMES), scalars, max_size=6))
    row = st.dictionaries(st.sampled_from(NAMES), scalars, max_size=4)
    # Sometimes a long dataset, so that nested lists over it multiply.
    rows = st.one_of(
        st.lists(row, max_size=6),
        st.integers(0, 200).map(lambda n: [{"a": i, "n": i} for i in range(n)]),
    )
    if draw(st.booleans()):
        spec["data"] = draw(st.dictionaries(st.sampled_from(NAMES), rows, max_size=3))
    if draw(st.integers(0, 9)) == 0:
        spec[draw(texts)] = draw(json_values)
    if draw(st.integers(0, 9)) == 0:
        # Lists nested in lists over one long dataset: each level multiplies what is drawn.
        bomb: dict[str, Any] = {"t": "text", "text": draw(texts)}
        for _ in range(draw(st.integers(2, 6))):
            bomb = {"t": "list", "data": "bomb", "c": [bomb]}
        spec["root"]["c"].append(bomb)
        spec.setdefault("data", {})["bomb"] = [{"a": i} for i in range(draw(st.integers(1, 60)))]
    return spec


@dataclass
class Tally:
    cases: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    max_ms: float = 0.0
    max_bytes: int = 0
    slowest_step: str = ""
    failed_cases: int = 0


def _timed(tally: Tally | None, step: str, call: Any) -> Any:
    started = time.process_time()
    try:
        result = call()
    except SpecTooLarge:
        result = None  # refused before any work: expected for input over the limits
    elapsed = time.process_time() - started
    if tally is not None and elapsed * 1000 > tally.max_ms:
        tally.max_ms, tally.slowest_step = elapsed * 1000, step
    if elapsed > STEP_SECONDS:
        raise AssertionError(f"{step} took {elapsed:.2f} s of CPU, over {STEP_SECONDS} s")
    if isinstance(result, str):
        if tally is not None:
            tally.max_bytes = max(tally.max_bytes, len(result))
        if len(result) > BYTES_BUDGET:
            raise AssertionError(f"{step} drew {len(result):,} bytes, over {BYTES_BUDGET:,}")
    return result


def check_spec(spec: dict[str, Any], tally: Tally | None = None) -> None:
    """Every ui4a step on `spec`; raises AssertionError (or what a step raised) on a fault."""
    text = json.dumps(spec, allow_nan=True)  # NaN and Infinity, as a model could write them
    for cut in [len(text), *(len(text) * i // (PREFIX_CUTS + 1) for i in range(1, PREFIX_CUTS))]:
        parsed = _timed(tally, "parse", lambda cut=cut: parse_partial(text[:cut]))
        if parsed is not None:
            json.dumps(parsed, allow_nan=False)  # what a database's JSON check accepts
            _timed(tally, "render partial", lambda p=parsed: render_body(p, partial=True))
    problems = _timed(tally, "validate", lambda: validate(spec))
    assert problems is None or all(p.path == "" or p.path.startswith("/") for p in problems)
    fixed = _timed(tally, "repair", lambda: repair(spec))
    _timed(tally, "render body", lambda: render_body(spec))
    if fixed is not None and fixed.spec is not None:
        json.dumps(fixed.spec, allow_nan=False)
        _timed(tally, "render document", lambda: render_document(fixed.spec))


def run(cases: int, seed_value: int, drawn: st.SearchStrategy[dict[str, Any]]) -> Tally:
    tally = Tally()

    @seed(seed_value)
    @settings(
        max_examples=cases,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # every case counted, none shrunk: this is a census
        suppress_health_check=list(HealthCheck),
    )
    @given(drawn)
    def one(spec: dict[str, Any]) -> None:
        tally.cases += 1
        try:
            check_spec(spec, tally)
        except Exception as error:  # a census: count it, keep the first few, carry on
            tally.failed_cases += 1
            if len(tally.failures) < 20:
                tally.failures.append(
                    {
                        "error": f"{type(error).__name__}: {error}"[:500],
                        "where": traceback.format_exc(limit=-3)[-1500:],
                        "spec": json.dumps(spec, allow_nan=True)[:4000],
                    }
                )

    one()
    return tally


def report_of(tally: Tally, seconds: float) -> dict[str, Any]:
    return {
        "cases": tally.cases,
        "failures": tally.failed_cases,
        "max_ms": round(tally.max_ms, 3),
        "max_bytes": tally.max_bytes,
        "slowest_step": tally.slowest_step,
        "seconds": round(seconds, 1),
        "first_failures": tally.failures,
    }


def main(argv: list[str] | None = None) -> int:
    from bench.schema_specs import schema_specs  # hypothesis-jsonschema, only for this bench

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="hostile specs")
    parser.add_argument("--schema-cases", type=int, default=2_000, help="decoding-schema specs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "fuzz_ui4a.json")
    args = parser.parse_args(argv)
    sources = {
        "hostile (catalog, beyond the schema)": (args.cases, specs()),
        "decoding schema (hypothesis-jsonschema)": (args.schema_cases, schema_specs()),
    }
    reports: dict[str, dict[str, Any]] = {}
    for source, (cases, drawn) in sources.items():
        started = time.perf_counter()
        tally = run(cases, args.seed, drawn)
        reports[source] = report_of(tally, time.perf_counter() - started)
    print(f"{'source':<42} {'cases':>7} {'failures':>9} {'max ms':>9} {'max bytes':>11}  slowest")
    for source, r in reports.items():
        print(
            f"{source:<42} {r['cases']:>7} {r['failures']:>9} {r['max_ms']:>9.1f}"
            f" {r['max_bytes']:>11,}  {r['slowest_step']} ({r['seconds']} s in all)"
        )
    print(f"(budgets: {STEP_SECONDS} s of CPU a step, {BYTES_BUDGET:,} bytes)")
    report = {
        "seed": args.seed,
        "budgets": {"step_seconds": STEP_SECONDS, "bytes": BYTES_BUDGET},
        "sources": reports,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 1 if any(r["failures"] for r in reports.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
