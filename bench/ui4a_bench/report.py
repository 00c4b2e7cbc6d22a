"""UI4A-Bench's figures: per-variant metrics, the quality gates' deltas, the printed table, the
JSON, and an HTML report with a screenshot grid a person can scan."""

from __future__ import annotations

import html
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bench.ui4a_bench.devset import DevPrompt
from bench.ui4a_bench.generate import Generated
from bench.ui4a_bench.judge import Verdict

# The targets for the trained ui expert (a benchmark, not CI).
GATE_REQUIREMENT_POINTS = 30.0
GATE_VALID = 100.0
GATE_INTERACTION = 90.0


@dataclass
class Row:
    """One prompt under one variant: what the stack stored and what the browser saw."""

    prompt: DevPrompt
    generated: Generated
    verdict: Verdict
    screenshot: str = ""  # relative to the report

    def as_dict(self) -> dict[str, Any]:
        g = self.generated
        return {
            "prompt_id": self.prompt.id,
            "kind": self.prompt.kind,
            "prompt": self.prompt.prompt,
            "variant": g.variant,
            "generation": g.generation_id,
            "status": g.status,
            "finish_reason": g.finish_reason,
            "parses": g.parses,
            "valid": g.valid,
            "problems": g.problems,
            "error": g.error,
            "tokens": g.tokens,
            "seconds": g.seconds,
            "text": g.text,
            "spec": g.spec,
            "screenshot": self.screenshot,
            **self.verdict.as_dict(),
        }


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def metrics(rows: list[Row]) -> dict[str, Any]:
    """The table's figures for one variant's rows."""
    reqs = [o for r in rows for o in r.verdict.requirements]
    checks = [c for r in rows for c in r.verdict.checks]
    tokens = [r.generated.tokens for r in rows if r.generated.status in ("done", "failed")]
    seconds = [r.generated.seconds for r in rows if r.generated.seconds is not None]
    return {
        "screens": len(rows),
        "parses_pct": _percent(sum(r.generated.parses for r in rows), len(rows)),
        "valid_pct": _percent(sum(r.generated.valid for r in rows), len(rows)),
        "clean_render_pct": _percent(sum(r.verdict.clean for r in rows), len(rows)),
        "requirements_pct": _percent(sum(o.passed for o in reqs), len(reqs)),
        "requirements": f"{sum(o.passed for o in reqs)}/{len(reqs)}",
        "screens_all_requirements_pct": _percent(
            sum(all(o.passed for o in r.verdict.requirements) for r in rows), len(rows)
        ),
        "interaction_pct": _percent(sum(c.passed for c in checks), len(checks)),
        "interactions": f"{sum(c.passed for c in checks)}/{len(checks)}",
        "cut_off": sum(r.generated.finish_reason == "length" for r in rows),
        "median_tokens": statistics.median(tokens) if tokens else None,
        "median_seconds": round(statistics.median(seconds), 2) if seconds else None,
    }


def summarize(rows: list[Row], variants: list[str]) -> dict[str, Any]:
    per = {v: metrics([r for r in rows if r.generated.variant == v]) for v in variants}
    gates: dict[str, Any] = {}
    trained = per.get("trained")
    if trained and "base" in per:
        a, b = trained["requirements_pct"], per["base"]["requirements_pct"]
        if a is not None and b is not None:
            delta = round(a - b, 1)
            gates["requirements_vs_base_points"] = _gate(delta, delta >= GATE_REQUIREMENT_POINTS)
    if trained:
        valid = trained["valid_pct"]
        gates["valid_pct"] = _gate(valid, valid is not None and valid >= GATE_VALID)
        inter = trained["interaction_pct"]
        gates["interaction_pct"] = _gate(inter, inter is not None and inter >= GATE_INTERACTION)
    if trained and "unconstrained" in per:
        a, b = trained["valid_pct"], per["unconstrained"]["valid_pct"]
        if a is not None and b is not None:
            gates["valid_vs_unconstrained_points"] = {"value": round(a - b, 1)}
    return {"variants": per, "gates": gates, "failure_modes": failure_modes(rows, variants)}


def _gate(value: float | None, met: bool) -> dict[str, Any]:
    return {"value": value, "met": met}


def failure_modes(rows: list[Row], variants: list[str]) -> dict[str, list[tuple[str, int]]]:
    """The commonest reasons a screen fell short, per variant."""
    out: dict[str, list[tuple[str, int]]] = {}
    for variant in variants:
        seen: Counter[str] = Counter()
        for row in rows:
            if row.generated.variant != variant:
                continue
            g = row.generated
            if g.finish_reason == "length":
                seen["cut off at the token limit"] += 1
            elif not g.parses:
                seen["text is not a JSON object"] += 1
            for problem in g.problems:
                seen[f"ui4a problem: {problem.get('code')}"] += 1
            if row.verdict.errors:
                seen["console error"] += 1
            for outcome in row.verdict.requirements:
                if not outcome.passed:
                    seen[f"missing: {outcome.requirement.split(' /')[0].split(' ')[0]}"] += 1
            for check in row.verdict.checks:
                if not check.passed:
                    seen[f"{check.kind}: {check.detail.split(':')[0].split(' after')[0]}"] += 1
        out[variant] = seen.most_common(6)
    return out


COLUMNS = [
    ("valid spec %", "valid_pct"),
    ("clean render %", "clean_render_pct"),
    ("requirements %", "requirements_pct"),
    ("interaction %", "interaction_pct"),
    ("median tokens", "median_tokens"),
    ("median s/screen", "median_seconds"),
    ("cut off", "cut_off"),
]


def table(summary: dict[str, Any]) -> str:
    """The printed table: one row per variant, then the gates and the failure modes."""
    head = ["variant", "screens", *(name for name, _ in COLUMNS)]
    body = []
    for variant, m in summary["variants"].items():
        cells = [variant, str(m["screens"])]
        cells += ["-" if m[key] is None else f"{m[key]}" for _, key in COLUMNS]
        body.append(cells)
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    gates = summary["gates"]
    if gates:
        lines.append("")
        lines.append("quality gates for the trained ui expert (a benchmark, not CI):")
        labels = {
            "requirements_vs_base_points": f"requirements, trained - base (target >= "
            f"+{GATE_REQUIREMENT_POINTS:.0f} points)",
            "valid_pct": f"valid specs, trained (target {GATE_VALID:.0f}%)",
            "interaction_pct": f"interaction checks, trained (target >= {GATE_INTERACTION:.0f}%)",
            "valid_vs_unconstrained_points": "valid specs, trained - unconstrained (points)",
        }
        for key, gate in gates.items():
            mark = "" if "met" not in gate else ("  met" if gate["met"] else "  NOT met")
            value = "-" if gate["value"] is None else f"{gate['value']:+.1f}"
            if key in ("valid_pct", "interaction_pct") and gate["value"] is not None:
                value = f"{gate['value']:.1f}%"
            lines.append(f"  {labels[key]}: {value}{mark}")
    lines.append("")
    lines.append("commonest failure modes:")
    for variant, modes in summary["failure_modes"].items():
        listed = "; ".join(f"{what} x{n}" for what, n in modes) or "none"
        lines.append(f"  {variant}: {listed}")
    return "\n".join(lines)


def html_report(summary: dict[str, Any], rows: list[Row], variants: list[str]) -> str:
    """One page: the table, then per prompt the variants' screenshots with pass/fail marks."""
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>UI4A-Bench</title><style>",
        "body{font:14px system-ui,sans-serif;margin:24px;color:#1d2230}"
        "table.sum{border-collapse:collapse;margin-bottom:8px}"
        ".sum td,.sum th{border:1px solid #d5d9e2;padding:4px 10px;text-align:right}"
        ".sum td:first-child,.sum th:first-child{text-align:left}"
        ".grid{display:grid;grid-template-columns:260px repeat(VARS,1fr);gap:10px;"
        "align-items:start;border-top:1px solid #d5d9e2;padding:12px 0}"
        ".cell img{width:100%;border:1px solid #d5d9e2;border-radius:6px}"
        ".ok{color:#137333}.bad{color:#b3261e}.muted{color:#5d6478}"
        "ul{margin:4px 0;padding-left:18px}pre{white-space:pre-wrap;font-size:12px}"
        "h3{margin:0 0 4px;font-size:14px}",
        "</style></head><body><h1>UI4A-Bench</h1>",
        "<pre>" + esc(table(summary)) + "</pre>",
    ]
    parts[1] = parts[1].replace("VARS", str(len(variants)))
    by_prompt: dict[str, dict[str, Row]] = {}
    for row in rows:
        by_prompt.setdefault(row.prompt.id, {})[row.generated.variant] = row
    for prompt_rows in by_prompt.values():
        prompt = next(iter(prompt_rows.values())).prompt
        reqs = "".join(f"<li>{esc(r.source)}</li>" for r in prompt.requires)
        parts.append(
            f"<div class='grid'><div><h3>{esc(prompt.id)} · {esc(prompt.kind)}</h3>"
            f"<p>{esc(prompt.prompt)}</p><ul class='muted'>{reqs}</ul></div>"
        )
        for variant in variants:
            found = prompt_rows.get(variant)
            parts.append(_cell(found, variant) if found else "<div class='cell'>-</div>")
        parts.append("</div>")
    parts.append("</body></html>")
    return "".join(parts)


def _mark(ok: bool, text: str) -> str:
    return f"<span class='{'ok' if ok else 'bad'}'>{'✓' if ok else '✗'} {html.escape(text)}</span>"


def _cell(row: Row, variant: str) -> str:
    esc = html.escape
    g, v = row.generated, row.verdict
    met = sum(o.passed for o in v.requirements)
    passed = sum(c.passed for c in v.checks)
    marks = " ".join(
        [
            _mark(g.valid, "valid"),
            _mark(v.clean, "clean"),
            _mark(met == len(v.requirements), f"req {met}/{len(v.requirements)}"),
        ]
        + (
            [_mark(passed == len(v.checks), f"int {passed}/{len(v.checks)}")]
            if v.checks
            else ["<span class='muted'>no interactions</span>"]
        )
    )
    shot = f"<img src='{esc(row.screenshot)}' alt='{esc(variant)} view'>" if row.screenshot else ""
    if not shot:
        shot = f"<p class='bad'>no view: {esc(g.error or g.status)}</p>"
    failed = [f"requirement {o.requirement}" for o in v.requirements if not o.passed]
    failed += [f"{c.name}: {c.detail}" for c in v.checks if not c.passed]
    failed += [f"console: {e}" for e in v.errors[:2]]
    listed = "".join(f"<li>{esc(f[:160])}</li>" for f in failed)
    facts = f"{g.tokens} tokens, {g.seconds if g.seconds is not None else '-'} s, {g.finish_reason}"
    return (
        f"<div class='cell'><h3>{esc(variant)}</h3><div>{marks}</div>"
        f"<div class='muted'>{esc(facts)}</div>{shot}<ul class='bad'>{listed}</ul></div>"
    )
