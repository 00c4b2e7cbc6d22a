"""One generated spec, judged in Chromium: does it render cleanly, meet its prompt's
requirements, pass its prompt's interaction script, and (when asked) the interaction checks
generated from the spec itself (reported apart: a near-empty spec passes those)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.ui4a_bench import interactions, requirements, scripts
from bench.ui4a_bench.view import HEIGHT, WIDTH, ViewHost, ViewNotReady

# Where the view's content ends (the frame's document is always at least as tall as the frame).
CONTENT_BOTTOM = """() => Math.ceil(Math.max(0, ...[...document.getElementById("ui4a-root")
    .querySelectorAll("*")].map((e) => e.getBoundingClientRect().bottom))) + 16"""


@dataclass
class Verdict:
    rendered: bool = False
    errors: list[str] = field(default_factory=list)
    requirements: list[requirements.Outcome] = field(default_factory=list)
    checks: list[interactions.Result] = field(default_factory=list)  # derived from the spec
    script: scripts.ScriptResult | None = None  # None: the prompt has no script

    @property
    def all_met(self) -> bool:
        return bool(self.requirements) and all(o.passed for o in self.requirements)

    @property
    def clean(self) -> bool:
        return self.rendered and not self.errors

    def as_dict(self) -> dict[str, Any]:
        return {
            "rendered": self.rendered,
            "clean_render": self.clean,
            "console_errors": self.errors,
            "requirements": [vars(o) for o in self.requirements],
            "all_requirements_met": self.all_met,
            "script": self.script.as_dict() if self.script else None,
            "derived_checks": [c.as_dict() for c in self.checks],
        }


def judge(
    host: ViewHost,
    spec: dict[str, Any] | None,
    wanted: list[requirements.Requirement],
    *,
    screenshot: Path | None = None,
    script: tuple[scripts.Step, ...] = (),
    derived: bool = False,
) -> Verdict:
    """Render, screenshot, check requirements on the first screen, then play the prompt's
    script on a fresh load, then (if `derived`) each interaction check the spec implies."""
    verdict = Verdict()
    unplayed = scripts.ScriptResult(False, 0, "no view") if script else None
    if spec is None:
        verdict.requirements = [requirements.Outcome(r.source, False, 0) for r in wanted]
        verdict.script = unplayed
        return verdict
    try:
        view = host.open(spec)
    except ViewNotReady as exc:
        verdict.errors.append(str(exc))
        verdict.requirements = [requirements.Outcome(r.source, False, 0) for r in wanted]
        verdict.script = unplayed
        return verdict
    verdict.rendered = True
    verdict.errors = list(view.errors)
    if screenshot is not None:
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        # The frame is as tall as a laptop screen; the shot stops where the view's content does.
        tall = int(view.frame.evaluate(CONTENT_BOTTOM))
        clip = {"x": 0, "y": 0, "width": WIDTH, "height": min(max(tall, 160), HEIGHT)}
        view.page.screenshot(path=str(screenshot), clip=clip)  # type: ignore[arg-type]
    verdict.requirements = [requirements.check(view.locator, r) for r in wanted]
    if script:
        verdict.script = scripts.run_script(host, spec, script)
    if derived:
        verdict.checks = [
            interactions.run_check(host, spec, check) for check in interactions.checks_for(spec)
        ]
    return verdict
