"""Interaction scripts: what a user would do on a screen and what they should then see,
written from the prompt (never from a spec), and their run in Chromium.

One step is one line; the target is a requirement line (requirements.py), so roles, names and
counts read the same way:

    fill textbox /task/ "Buy milk"      type into the first visible textbox named /task/
    select combobox /status/ "Done"     choose the option labelled Done (any case; else the
                                        one option holding it as a word: "4" -> "4 people")
    click button /add/                  press it (a `text /regex/` target clicks that text)
    check checkbox /terms/              tick a checkbox, switch or radio (uncheck: untick)
    see listitem /buy milk/             wait until the view shows it (counts allowed: >=3, =2)
    gone text /no items/                wait until the view no longer shows it

A script runs on a fresh load of the view, step by step; each step gets STEP_MS to succeed,
and the first one that does not fails the script, named in the result.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bench.ui4a_bench.requirements import BadRequirement, Requirement, matches, parse

if TYPE_CHECKING:
    from playwright.sync_api import FrameLocator, Locator

    from bench.ui4a_bench.view import ViewHost

VERBS = ("fill", "select", "click", "check", "uncheck", "see", "gone")
MAX_STEPS = 10
STEP_MS = 2_500  # a loaded 2-core machine can take a second to settle a click
_STEP = re.compile(r'^(?P<verb>[a-z]+)\s+(?P<target>.+?)(?:\s+"(?P<value>[^"]*)")?$')


class BadStep(ValueError):
    """A script line that does not parse; the message says why and quotes it."""


@dataclass(frozen=True)
class Step:
    source: str
    verb: str
    target: Requirement
    value: str = ""


@dataclass
class ScriptResult:
    passed: bool
    steps_done: int
    detail: str  # the failed step and why, or "all N steps"

    def as_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "steps_done": self.steps_done, "detail": self.detail}


def parse_step(line: str) -> Step:
    text = " ".join(line.split())
    match = _STEP.match(text)
    if not match or match["verb"] not in VERBS:
        raise BadStep(f"cannot read step {line!r}: start with one of {', '.join(VERBS)}")
    verb, value = match["verb"], match["value"]
    if (verb in ("fill", "select")) != (value is not None):
        raise BadStep(f"'fill' and 'select' (and only they) end with a \"value\", in {line!r}")
    try:
        target = parse(match["target"])
    except BadRequirement as exc:
        raise BadStep(f"bad target in step {line!r}: {exc}") from None
    if verb not in ("see", "gone") and (target.at_least != 1 or target.exactly):
        raise BadStep(f"'{verb}' acts on the first match: no count, in {line!r}")
    return Step(text, verb, target, value or "")


def parse_script(lines: list[str]) -> tuple[Step, ...]:
    if len(lines) > MAX_STEPS:
        raise BadStep(f"a script has at most {MAX_STEPS} steps, not {len(lines)}")
    steps = tuple(parse_step(line) for line in lines)
    if steps and not any(s.verb in ("see", "gone") for s in steps):
        raise BadStep("a script must say what the user should see ('see' or 'gone')")
    return steps


def run_script(host: ViewHost, spec: dict[str, Any], steps: tuple[Step, ...]) -> ScriptResult:
    """Open the view afresh and play the steps; a crash or a console error fails the script."""
    try:
        view = host.open(spec)
    except Exception as exc:
        return ScriptResult(False, 0, f"the view did not open: {str(exc)[:160]}")
    for done, step in enumerate(steps):
        try:
            problem = _play(view.locator, step)
        except Exception as exc:
            problem = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
        if problem:
            return ScriptResult(False, done, f"step {done + 1} `{step.source}`: {problem}")
        if view.errors:
            return ScriptResult(False, done, f"console error: {view.errors[0][:160]}")
    return ScriptResult(True, len(steps), f"all {len(steps)} steps")


def _play(view: FrameLocator, step: Step) -> str:
    """Run one step; an empty string when it succeeded, else what went wrong."""
    if step.verb in ("see", "gone"):
        return _wait_for(view, step)
    target = _first_visible(view, step.target)
    if target is None:
        return "nothing on the screen matches it"
    if step.verb == "fill":
        target.fill(step.value, timeout=STEP_MS)
    elif step.verb == "select":
        options = [o.strip() for o in target.locator("option").all_inner_texts()]
        chosen = pick_option(options, step.value)
        if chosen is None:
            return f"no option {step.value!r} (it offers {options[:8]})"
        target.select_option(label=chosen, timeout=STEP_MS)
    elif step.verb == "click":
        target.click(timeout=STEP_MS)
    else:
        target.set_checked(step.verb == "check", timeout=STEP_MS)
    return ""


def pick_option(options: list[str], value: str) -> str | None:
    """The option labelled `value` (any case), else the one option holding it as a word
    ("4" picks "4 people")."""
    exact = [o for o in options if o.lower() == value.lower()]
    if exact:
        return exact[0]
    word = re.compile(rf"\b{re.escape(value)}\b", re.IGNORECASE)
    holding = [o for o in options if word.search(o)]
    return holding[0] if len(holding) == 1 else None


def _first_visible(view: FrameLocator, target: Requirement) -> Locator | None:
    """The first visible match, waiting up to STEP_MS for it to appear."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        shown = [el for el in matches(view, target) if el.is_visible()]
        if shown:
            return shown[0]
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def _wait_for(view: FrameLocator, step: Step) -> str:
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        found = sum(el.is_visible() for el in matches(view, step.target))
        if (found == 0) if step.verb == "gone" else step.target.counted(found):
            return ""
        if time.monotonic() > deadline:
            return f"found {found} after {STEP_MS} ms"
        time.sleep(0.1)
