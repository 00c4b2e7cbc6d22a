"""UI4A-Bench's figures: per-variant metrics, the quality gates' deltas, the printed table, the
JSON, and an HTML report with a screenshot grid a person can scan."""

from __future__ import annotations

import html
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bench.ui4a_bench.devset import HELD_OUT, DevPrompt
from bench.ui4a_bench.generate import Generated
from bench.ui4a_bench.judge import Verdict

# The targets for the trained ui expert on the dev set (a benchmark, not CI): issue 12's, and
# the earlier lift over the base model.
GATE_ALL_REQUIREMENTS = 50.0  # screens meeting all their requirements, %
GATE_ALL_VS_RETRIEVAL_POINTS = 20.0  # ... and this many points above the retrieval baseline
GATE_REQUIREMENTS = 75.0
GATE_WEAKEST_KIND = 40.0  # requirements met, %, in every screen kind
GATE_SCRIPTS = 80.0  # prompt-written interaction scripts passed, %
GATE_VALID = 100.0
GATE_REQUIREMENT_POINTS = 30.0  # requirements met, trained - base


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

    def brief(self) -> dict[str, Any]:
        """The committed line: what was judged and how it fared, without the spec's text."""
        g, v = self.generated, self.verdict
        return {
            "prompt_id": self.prompt.id,
            "kind": self.prompt.kind,
            "held_out": self.prompt.held_out,
            "variant": g.variant,
            "all_requirements_met": v.all_met,
            "requirements_met": sum(o.passed for o in v.requirements),
            "requirements": len(v.requirements),
            "failed": [o.requirement for o in v.requirements if not o.passed],
            "script": v.script.as_dict() if v.script else None,
            "valid": g.valid,
            # Why a spec is not valid: its validation problems, or why it was not read at all.
            "problems": [f"{p['code']} at {p['path']}: {p['message']}" for p in g.problems],
            "error": g.error,
            "clean_render": v.clean,
            "finish_reason": g.finish_reason,
            "tokens": g.tokens,
            "seconds": g.seconds,
            "source": g.generation_id if g.variant in ("retrieval", "fixed") else "",
            "derived_checks": f"{sum(c.passed for c in v.checks)}/{len(v.checks)}",
        }


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def metrics(rows: list[Row]) -> dict[str, Any]:
    """The table's figures for one variant's rows. The headline is `all_requirements_pct`: the
    share of screens that meet every requirement of their prompt."""
    reqs = [o for r in rows for o in r.verdict.requirements]
    played = [r.verdict.script for r in rows if r.verdict.script is not None]
    checks = [c for r in rows for c in r.verdict.checks]
    tokens = [r.generated.tokens for r in rows if r.generated.status in ("done", "failed")]
    seconds = [r.generated.seconds for r in rows if r.generated.seconds is not None]
    held = [r for r in rows if r.prompt.held_out]
    seen = [r for r in rows if not r.prompt.held_out]
    return {
        "screens": len(rows),
        "all_requirements_pct": _all_met(rows),
        "all_requirements": f"{sum(r.verdict.all_met for r in rows)}/{len(rows)}",
        "held_out_all_requirements_pct": _all_met(held),
        "trained_kinds_all_requirements_pct": _all_met(seen),
        "requirements_pct": _percent(sum(o.passed for o in reqs), len(reqs)),
        "requirements": f"{sum(o.passed for o in reqs)}/{len(reqs)}",
        "scripts_pct": _percent(sum(s.passed for s in played), len(played)),
        "scripts": f"{sum(s.passed for s in played)}/{len(played)}",
        "parses_pct": _percent(sum(r.generated.parses for r in rows), len(rows)),
        "valid_pct": _percent(sum(r.generated.valid for r in rows), len(rows)),
        "clean_render_pct": _percent(sum(r.verdict.clean for r in rows), len(rows)),
        "derived_checks_pct": _percent(sum(c.passed for c in checks), len(checks)),
        "derived_checks": f"{sum(c.passed for c in checks)}/{len(checks)}",
        "cut_off": sum(r.generated.finish_reason == "length" for r in rows),
        "median_tokens": statistics.median(tokens) if tokens else None,
        "median_seconds": round(statistics.median(seconds), 2) if seconds else None,
    }


def _all_met(rows: list[Row]) -> float | None:
    return _percent(sum(r.verdict.all_met for r in rows), len(rows))


def check_type(source: str) -> str:
    """What a requirement asks for, for the by-check breakdown: its first role, or `text`."""
    return source.split(" ")[0].split("|")[0]


def breakdowns(rows: list[Row], variants: list[str]) -> dict[str, Any]:
    """Per screen kind: screens meeting all requirements (%) and requirements met (%); per check
    type: requirements met (n/m); each per variant."""
    by_kind: dict[str, dict[str, float | None]] = {}
    by_kind_requirements: dict[str, dict[str, float | None]] = {}
    for kind in dict.fromkeys(r.prompt.kind for r in rows):
        of_kind = {
            v: [r for r in rows if r.prompt.kind == kind and r.generated.variant == v]
            for v in variants
        }
        by_kind[kind] = {v: _all_met(kind_rows) for v, kind_rows in of_kind.items()}
        by_kind_requirements[kind] = {}
        for v, kind_rows in of_kind.items():
            met = [o.passed for r in kind_rows for o in r.verdict.requirements]
            by_kind_requirements[kind][v] = _percent(sum(met), len(met))
    by_check: dict[str, dict[str, str]] = {}
    types = sorted({check_type(o.requirement) for r in rows for o in r.verdict.requirements})
    for kind in types:
        by_check[kind] = {}
        for v in variants:
            found = [
                o.passed
                for r in rows
                if r.generated.variant == v
                for o in r.verdict.requirements
                if check_type(o.requirement) == kind
            ]
            by_check[kind][v] = f"{sum(found)}/{len(found)}"
    return {"by_kind": by_kind, "by_kind_requirements": by_kind_requirements, "by_check": by_check}


def summarize(rows: list[Row], variants: list[str]) -> dict[str, Any]:
    per = {v: metrics([r for r in rows if r.generated.variant == v]) for v in variants}
    found = breakdowns(rows, variants)
    trained = per.get("trained")
    return {
        "variants": per,
        "gates": gates(per, found["by_kind_requirements"]) if trained else {},
        **found,
        "failure_modes": failure_modes(rows, variants),
    }


def gates(per: dict[str, dict[str, Any]], by_kind: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The trained expert's figures against their targets, with what each is measured against
    where that is another variant of the same run."""
    trained = per["trained"]
    found: dict[str, Any] = {
        "all_requirements_pct": _at_least(trained["all_requirements_pct"], GATE_ALL_REQUIREMENTS),
        "requirements_pct": _at_least(trained["requirements_pct"], GATE_REQUIREMENTS),
        "scripts_pct": _at_least(trained["scripts_pct"], GATE_SCRIPTS),
        "valid_pct": _at_least(trained["valid_pct"], GATE_VALID),
    }
    kinds = {kind: v["trained"] for kind, v in by_kind.items() if v.get("trained") is not None}
    if kinds:
        weakest = min(kinds, key=kinds.__getitem__)
        found["weakest_kind_requirements_pct"] = {
            **_at_least(kinds[weakest], GATE_WEAKEST_KIND),
            "kind": weakest,
        }
    for reference, key, points in (
        ("retrieval", "all_requirements_pct", GATE_ALL_VS_RETRIEVAL_POINTS),
        ("base", "requirements_pct", GATE_REQUIREMENT_POINTS),
    ):
        a, b = trained[key], per.get(reference, {}).get(key)
        if a is not None and b is not None:
            found[f"{key.removesuffix('_pct')}_vs_{reference}_points"] = _at_least(
                round(a - b, 1), points
            )
    if "unconstrained" in per:
        a, b = trained["valid_pct"], per["unconstrained"]["valid_pct"]
        if a is not None and b is not None:
            found["valid_vs_unconstrained_points"] = {"value": round(a - b, 1)}
    return found


def _at_least(value: float | None, target: float) -> dict[str, Any]:
    return {"value": value, "target": target, "met": value is not None and value >= target}


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
                    seen[f"missing: {check_type(outcome.requirement)}"] += 1
            script = row.verdict.script
            if script is not None and not script.passed:
                seen["script failed"] += 1
        out[variant] = seen.most_common(6)
    return out


COLUMNS = [
    ("all reqs met %", "all_requirements_pct"),
    ("held-out kinds", "held_out_all_requirements_pct"),
    ("trained kinds", "trained_kinds_all_requirements_pct"),
    ("requirements %", "requirements_pct"),
    ("scripts %", "scripts_pct"),
    ("valid %", "valid_pct"),
    ("clean render %", "clean_render_pct"),
    ("median tokens", "median_tokens"),
    ("median s", "median_seconds"),
    ("cut off", "cut_off"),
]


def _grid(head: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def _shown(value: Any) -> str:
    return "-" if value is None else f"{value}"


def table(summary: dict[str, Any]) -> str:
    """The printed report: one row per variant (headline first: screens meeting all their
    requirements), the gates, then per kind, per check, and the failure modes."""
    variants = list(summary["variants"])
    head = ["variant", "screens", *(name for name, _ in COLUMNS)]
    body = [
        [variant, str(m["screens"]), *(_shown(m[key]) for _, key in COLUMNS)]
        for variant, m in summary["variants"].items()
    ]
    lines = _grid(head, body)
    derived = {v: m["derived_checks"] for v, m in summary["variants"].items()}
    if any(not d.endswith("/0") for d in derived.values()):
        lines.append("")
        lines.append("interaction checks derived from each variant's own spec (not the prompt):")
        lines += [
            f"  {v}: {d} ({summary['variants'][v]['derived_checks_pct']}%)"
            for v, d in derived.items()
        ]
    if summary["gates"]:
        lines.append("")
        lines.append("targets for the trained ui expert (a benchmark, not CI):")
        lines += [f"  {_gate_line(key, gate)}" for key, gate in summary["gates"].items()]
    lines.append("")
    for title, key in (
        ("screens meeting all requirements", "by_kind"),
        ("requirements met", "by_kind_requirements"),
    ):
        lines.append(f"{title}, % by kind (* held out of training):")
        lines += _grid(
            ["kind", *variants],
            [
                [kind + ("*" if kind in HELD_OUT else ""), *(_shown(v) for v in per.values())]
                for kind, per in summary[key].items()
            ],
        )
        lines.append("")
    lines.append("requirements met by check type:")
    lines += _grid(
        ["check", *variants],
        [[kind, *per.values()] for kind, per in summary["by_check"].items()],
    )
    lines.append("")
    lines.append("commonest failure modes:")
    for variant, modes in summary["failure_modes"].items():
        listed = "; ".join(f"{what} x{n}" for what, n in modes) or "none"
        lines.append(f"  {variant}: {listed}")
    return "\n".join(lines)


GATE_LABELS = {
    "all_requirements_pct": "screens meeting all their requirements, %",
    "requirements_pct": "requirements met, %",
    "scripts_pct": "prompt-written interaction scripts passed, %",
    "valid_pct": "valid specs, %",
    "weakest_kind_requirements_pct": "requirements met in the weakest kind, %",
    "all_requirements_vs_retrieval_points": "screens meeting all, trained - retrieval, points",
    "requirements_vs_base_points": "requirements met, trained - base, points",
    "valid_vs_unconstrained_points": "valid specs, trained - unconstrained, points",
}


def _gate_line(key: str, gate: dict[str, Any]) -> str:
    value = gate["value"]
    shown = "-" if value is None else f"{value:+.1f}" if key.endswith("_points") else f"{value}"
    if "kind" in gate:
        shown += f" ({gate['kind']})"
    if "target" not in gate:
        return f"{GATE_LABELS[key]}: {shown}"
    met = "met" if gate["met"] else "NOT met"
    return f"{GATE_LABELS[key]}: {shown}  (target >= {gate['target']:g}: {met})"


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
        steps = "".join(f"<li>{esc(step.source)}</li>" for step in prompt.script)
        script = f"<p class='muted'>script:</p><ol class='muted'>{steps}</ol>" if steps else ""
        parts.append(
            f"<div class='grid'><div><h3>{esc(prompt.id)} · {esc(prompt.kind)}</h3>"
            f"<p>{esc(prompt.prompt)}</p><ul class='muted'>{reqs}</ul>{script}</div>"
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
    marks = " ".join(
        [
            _mark(g.valid, "valid"),
            _mark(v.clean, "clean"),
            _mark(v.all_met, f"req {met}/{len(v.requirements)}"),
        ]
        + ([_mark(v.script.passed, "script")] if v.script else [])
    )
    shot = f"<img src='{esc(row.screenshot)}' alt='{esc(variant)} view'>" if row.screenshot else ""
    if not shot:
        shot = f"<p class='bad'>no view: {esc(g.error or g.status)}</p>"
    failed = [f"requirement {o.requirement}" for o in v.requirements if not o.passed]
    if v.script and not v.script.passed:
        failed.append(f"script: {v.script.detail}")
    failed += [f"derived {c.name}: {c.detail}" for c in v.checks if not c.passed]
    failed += [f"console: {e}" for e in v.errors[:2]]
    listed = "".join(f"<li>{esc(f[:160])}</li>" for f in failed)
    facts = f"{g.tokens} tokens, {g.seconds if g.seconds is not None else '-'} s, {g.finish_reason}"
    return (
        f"<div class='cell'><h3>{esc(variant)}</h3><div>{marks}</div>"
        f"<div class='muted'>{esc(facts)}</div>{shot}<ul class='bad'>{listed}</ul></div>"
    )
