"""UI4A-Bench's figures: per-variant metrics with the headline (screens meeting all their
requirements), the breakdowns by kind and check, the gates, and the report's escaping of
whatever the model wrote."""

from __future__ import annotations

from bench.ui4a_bench.devset import DevPrompt
from bench.ui4a_bench.generate import Generated
from bench.ui4a_bench.interactions import Result
from bench.ui4a_bench.judge import Verdict
from bench.ui4a_bench.report import Row, html_report, summarize, table
from bench.ui4a_bench.requirements import Outcome, parse
from bench.ui4a_bench.scripts import ScriptResult, parse_script

PROMPT = DevPrompt(
    "auth-01",
    "auth",
    "a login",
    (parse("button /log ?in/"), parse("textbox")),
    parse_script(["click button /log ?in/", "see text /welcome/"]),
)
HELD = DevPrompt("quiz-01", "quiz", "a quiz", (parse("radio >=3"),))
SPEC = '{"title":"x","root":{"t":"page"}}'


def row(
    variant: str,
    *,
    text: str,
    reqs: tuple[bool, ...],
    script: bool | None = None,
    prompt: DevPrompt = PROMPT,
) -> Row:
    parses = text == SPEC
    generated = Generated(
        prompt.id,
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
            Outcome(r.source, ok, int(ok)) for r, ok in zip(prompt.requires, reqs, strict=True)
        ],
        script=None if script is None else ScriptResult(script, 1, "x"),
        checks=[Result("button", "button 'Go'", True, "x")],
    )
    return Row(prompt, generated, verdict, "shots/x.png" if parses else "")


def test_it_computes_the_headline_breakdowns_and_gates() -> None:
    rows = [
        row("retrieval", text=SPEC, reqs=(True, True), script=False),
        row("retrieval", text=SPEC, reqs=(False,), prompt=HELD),
        row("base", text=SPEC, reqs=(False, True), script=False),
        row("base", text=SPEC, reqs=(False,), prompt=HELD),
        row("trained", text=SPEC, reqs=(True, True), script=True),
        row("trained", text=SPEC, reqs=(True,), prompt=HELD),
        row("unconstrained", text="<script>{{", reqs=(False, False), script=False),
    ]
    summary = summarize(rows, ["retrieval", "base", "trained", "unconstrained"])
    m = summary["variants"]
    assert m["trained"]["all_requirements_pct"] == 100.0 and m["base"]["all_requirements_pct"] == 0
    assert m["retrieval"]["all_requirements_pct"] == 50.0
    assert m["retrieval"]["held_out_all_requirements_pct"] == 0.0
    assert m["retrieval"]["trained_kinds_all_requirements_pct"] == 100.0
    assert m["base"]["requirements_pct"] == round(100 / 3, 1)
    assert m["trained"]["scripts_pct"] == 100.0 and m["trained"]["scripts"] == "1/1"
    assert m["retrieval"]["scripts_pct"] == 0.0
    assert m["trained"]["derived_checks"] == "2/2"  # reported apart from the headline
    assert m["unconstrained"]["valid_pct"] == 0.0 and m["unconstrained"]["cut_off"] == 1
    assert summary["by_kind"]["quiz"] == {
        "retrieval": 0.0,
        "base": 0.0,
        "trained": 100.0,
        "unconstrained": None,
    }
    assert summary["by_check"]["radio"]["trained"] == "1/1"
    assert summary["by_check"]["button"]["base"] == "0/1"
    assert summary["by_kind_requirements"]["quiz"]["base"] == 0.0
    assert summary["by_kind_requirements"]["quiz"]["trained"] == 100.0
    gates = summary["gates"]
    assert gates["requirements_vs_base_points"] == {"value": 66.7, "target": 30.0, "met": True}
    assert gates["scripts_pct"] == {"value": 100.0, "target": 80.0, "met": True}
    assert gates["all_requirements_vs_retrieval_points"] == {
        "value": 50.0,
        "target": 20.0,
        "met": True,
    }
    assert gates["valid_pct"]["met"] and gates["all_requirements_pct"]["met"]
    printed = table(summary)
    assert "all reqs met %" in printed.splitlines()[0]
    assert "quiz*" in printed and "cut off at the token limit x1" in printed
    assert "derived from each variant's own spec" in printed


def test_the_targets_name_the_weakest_kind_and_say_what_is_missed() -> None:
    rows = [
        row("retrieval", text=SPEC, reqs=(True, True), script=False),
        row("retrieval", text=SPEC, reqs=(False,), prompt=HELD),
        row("trained", text=SPEC, reqs=(True, False), script=True),
        row("trained", text="<script>{{", reqs=(False,), prompt=HELD),
    ]
    gates = summarize(rows, ["retrieval", "trained"])["gates"]
    assert gates["weakest_kind_requirements_pct"] == {
        "value": 0.0,
        "target": 40.0,
        "met": False,
        "kind": "quiz",
    }
    assert gates["requirements_pct"] == {"value": round(100 / 3, 1), "target": 75.0, "met": False}
    assert gates["valid_pct"]["value"] == 50.0 and not gates["valid_pct"]["met"]
    assert gates["all_requirements_vs_retrieval_points"]["value"] == -50.0
    assert "requirements_vs_base_points" not in gates  # no base in this run
    printed = table(summarize(rows, ["retrieval", "trained"]))
    assert "requirements met in the weakest kind, %: 0.0 (quiz)  (target >= 40: NOT met)" in printed
    assert "screens meeting all, trained - retrieval, points: -50.0" in printed


def test_the_html_report_escapes_model_output() -> None:
    rows = [
        row("trained", text=SPEC, reqs=(True, False), script=False),
        row("unconstrained", text="<script>{{", reqs=(False, False)),
    ]
    rows[1].generated.error = "<img src=x onerror=alert(1)>"
    page = html_report(summarize(rows, ["trained", "unconstrained"]), rows, ["trained"])
    assert "<img src=x" not in page and "&lt;img src=x" not in page  # unconstrained not shown
    page = html_report(
        summarize(rows, ["trained", "unconstrained"]), rows, ["trained", "unconstrained"]
    )
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<img src='shots/x.png'" in page and "requirement textbox" in page
    assert "script: x" in page and "click button /log ?in/" in page


def test_a_row_briefs_what_the_committed_json_keeps() -> None:
    brief = row("trained", text=SPEC, reqs=(True, False), script=True).brief()
    assert brief["all_requirements_met"] is False and brief["failed"] == ["textbox"]
    assert brief["script"] == {"passed": True, "steps_done": 1, "detail": "x"}
    assert "spec" not in brief and "text" not in brief
    assert (brief["problems"], brief["error"]) == ([], "")


def test_a_brief_says_why_a_spec_is_not_valid() -> None:
    invalid = row("trained", text=SPEC, reqs=(True, False))
    invalid.generated.problems = [
        {"path": "/root/c/0/on", "code": "no_target", "message": "no tabs bind 'tab'"}
    ]
    brief = invalid.brief()
    assert brief["valid"] is False
    assert brief["problems"] == ["no_target at /root/c/0/on: no tabs bind 'tab'"]
