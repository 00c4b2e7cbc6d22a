"""UI4A-Bench's figures: per-variant metrics, the quality gates' deltas, and the report's
escaping of whatever the model wrote."""

from __future__ import annotations

from bench.ui4a_bench.devset import DevPrompt
from bench.ui4a_bench.generate import Generated
from bench.ui4a_bench.interactions import Result
from bench.ui4a_bench.judge import Verdict
from bench.ui4a_bench.report import Row, html_report, summarize, table
from bench.ui4a_bench.requirements import Outcome, parse

PROMPT = DevPrompt("auth-01", "auth", "a login", (parse("button /log ?in/"), parse("textbox")))
SPEC = '{"title":"x","root":{"t":"page"}}'


def row(variant: str, *, text: str, reqs: tuple[bool, bool], checks: list[bool]) -> Row:
    parses = text == SPEC
    generated = Generated(
        "auth-01",
        variant,
        "g",
        "done",
        "stop" if parses else "length",
        text,
        {"root": {"t": "page"}} if parses else None,
        tokens=100 if parses else 700,
        seconds=10.0,
    )
    verdict = Verdict(
        rendered=parses,
        requirements=[
            Outcome(r.source, ok, int(ok)) for r, ok in zip(PROMPT.requires, reqs, strict=True)
        ],
        checks=[Result("button", "button 'Go'", ok, "x") for ok in checks],
    )
    return Row(PROMPT, generated, verdict, "shots/x.png" if parses else "")


def test_it_computes_each_variants_figures_and_the_gates() -> None:
    rows = [
        row("base", text=SPEC, reqs=(False, True), checks=[True, False]),
        row("trained", text=SPEC, reqs=(True, True), checks=[True, True]),
        row("unconstrained", text="<script>{{", reqs=(False, False), checks=[]),
    ]
    summary = summarize(rows, ["base", "trained", "unconstrained"])
    base, trained, free = (summary["variants"][v] for v in ("base", "trained", "unconstrained"))
    assert base["requirements_pct"] == 50.0 and trained["requirements_pct"] == 100.0
    assert trained["valid_pct"] == 100.0 and free["valid_pct"] == 0.0
    assert base["interaction_pct"] == 50.0 and free["interaction_pct"] is None
    assert free["cut_off"] == 1 and free["median_tokens"] == 700
    gates = summary["gates"]
    assert gates["requirements_vs_base_points"] == {"value": 50.0, "met": True}
    assert gates["valid_pct"] == {"value": 100.0, "met": True}
    assert gates["interaction_pct"] == {"value": 100.0, "met": True}
    assert gates["valid_vs_unconstrained_points"] == {"value": 100.0}
    printed = table(summary)
    assert "requirements, trained - base (target >= +30 points): +50.0  met" in printed
    assert "cut off at the token limit x1" in printed


def test_the_html_report_escapes_model_output() -> None:
    rows = [
        row("trained", text=SPEC, reqs=(True, False), checks=[False]),
        row("unconstrained", text="<script>{{", reqs=(False, False), checks=[]),
    ]
    rows[1].generated.error = "<img src=x onerror=alert(1)>"
    page = html_report(summarize(rows, ["trained", "unconstrained"]), rows, ["trained"])
    assert "<img src=x" not in page and "&lt;img src=x" not in page  # unconstrained not shown
    page = html_report(
        summarize(rows, ["trained", "unconstrained"]), rows, ["trained", "unconstrained"]
    )
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<img src='shots/x.png'" in page and "requirement textbox" in page
