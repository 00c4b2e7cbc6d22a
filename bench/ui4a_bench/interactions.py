"""Interaction checks generated from a spec, run on its rendered view in Chromium.

For every `button` node: it is reachable (visible at first, or after the user clicks what the
view offers, such as Next, a tab, or a form's submit with valid input) and effective (clicking
it changes the DOM, the view's state or submits a form). For every `form` node: submitting valid
input carries every bound field it shows, and bad input (a required field left empty, an
invalid email, a value outside its limits) shows a validation message and submits nothing.

Each check opens the view afresh, so checks never depend on each other. Reaching a hidden
element is a bounded breadth-first walk over the controls the view shows: a heuristic that
finds wizards' later steps, dialogs and tabs, and says what it pressed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bench.ui4a_bench.view import LoadedView, ViewHost
from ui4a.tree import NodeRef, walk
from ui4a.validate import ID_PATTERN

if TYPE_CHECKING:
    from playwright.sync_api import Locator

FIELDS = ("input", "textarea", "select", "checkbox", "switch", "radio", "slider")
CLICK_MS = 5_000  # a busy 2-core machine can take seconds to settle a modal dialog
OPENER_CLICK_MS = 2_000  # an opener hidden behind a modal dialog is skipped, not waited for
REVEAL_DEPTH = 3  # presses in a row, enough for the last step of a four-step wizard
REVEAL_LOADS = 16  # fresh loads one reveal may spend
# Controls a user can press to move the view along; table sorting and paging reveal nothing.
OPENERS = "button[id][data-action], [role=tab][id], form.u4-form[id] > button[type=submit]"
TEXT_SAMPLES = {
    "email": "ada@example.com",
    "password": "Correct-horse-42",
    "tel": "+1 555 0100",
    "url": "https://example.com",
    "date": "2026-05-01",
    "search": "lamp",
    "time": "10:30",
}
PATTERN_SAMPLES = ("Ada Lovelace", "12345", "AB-1234", "ada", "2026-05-01", "+1 555 0100", "42")


@dataclass(frozen=True)
class Check:
    kind: str  # "button", "form submit" or "form validation"
    name: str  # what the report shows, e.g. 'button "Sign up"'
    selector: str  # the element the check needs to reach, inside the view's frame
    node: dict[str, Any] = field(compare=False, repr=False)


@dataclass
class Result:
    kind: str
    name: str
    passed: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "passed": self.passed, "detail": self.detail}


def checks_for(spec: dict[str, Any]) -> list[Check]:
    """Every interaction check the spec implies, in document order."""
    out: list[Check] = []
    for ref, in_list in _nodes(spec):
        node = ref.node
        if node.get("t") == "button":
            label = str(node.get("label", ""))
            out.append(Check("button", f"button {label!r}", _selector(node, in_list), node))
        elif node.get("t") == "form":
            submit = f"{_selector(node, in_list)} > button[type=submit]"
            label = str(node.get("submit") or "Submit")
            out.append(Check("form submit", f"form {label!r} submits its fields", submit, node))
            if any(_rules(kid) for kid in _fields(node)):
                name = f"form {label!r} refuses bad input"
                out.append(Check("form validation", name, submit, node))
    return out


def run_check(host: ViewHost, spec: dict[str, Any], check: Check) -> Result:
    """Open the view, reach the check's element and run it; a crash is a failed check."""
    runner = {"button": _button, "form submit": _form_submit, "form validation": _validation}
    try:
        view, target, steps = reveal(host.open(spec), check.selector)
        if target is None:
            return Result(check.kind, check.name, False, "not reachable from the first screen")
        passed, detail = runner[check.kind](view, target, check)
        if steps:
            detail = f"{detail} (reached after {', '.join(steps)})"
        if view.errors:
            passed, detail = False, f"console error: {view.errors[0][:200]}"
        return Result(check.kind, check.name, passed, detail)
    except Exception as exc:  # a broken view must not stop the bench
        return Result(check.kind, check.name, False, f"{type(exc).__name__}: {str(exc)[:200]}")


def reveal(view: LoadedView, selector: str) -> tuple[LoadedView, Locator | None, list[str]]:
    """The visible element for `selector`: at once, or after pressing what the view offers.

    A breadth-first walk over press sequences (Next, a tab, Edit, a form's submit with valid
    input), each replayed on a fresh load, so the shortest way in is found and a press that
    leads away (Back) does not strand the walk. Views that look alike are explored once."""
    host, spec = view.host, view.spec
    queue: list[list[str]] = [[]]
    seen: set[str] = set()
    loads = 0
    while queue and loads < REVEAL_LOADS:
        presses = queue.pop(0)
        if presses:
            view = host.open(spec)
            loads += 1
            if not all(_press(view, key) for key in presses):
                continue
        target = view.locator.locator(selector).first
        if _visible(target):
            return view, target, [_label(key) for key in presses]
        snapshot = view.snapshot()
        if snapshot in seen or len(presses) >= REVEAL_DEPTH:
            continue
        seen.add(snapshot)
        for opener in view.locator.locator(OPENERS).all():
            if _visible(opener):
                queue.append([*presses, _press_key(opener)])
    return view, None, []


def _press_key(opener: Locator) -> str:
    """How to find a control again on a fresh load of the same view, with its text to show."""
    key = _key(opener)
    kind = "submit" if opener.get_attribute("type") == "submit" else "click"
    return f"{kind}\t{key}\t{opener.inner_text().strip()[:40]}"


def _label(press: str) -> str:
    return repr(press.split("\t")[2])


def _press(view: LoadedView, press: str) -> bool:
    kind, key, _ = press.split("\t")
    if kind == "submit":
        opener = view.locator.locator(f"[id='{key}'] > button[type=submit]")
    else:
        opener = view.locator.locator(f"[id='{key}']")
    if not _visible(opener):
        return False
    if kind == "submit":
        fill_form(opener.locator("xpath=.."))
    try:
        opener.first.click(timeout=OPENER_CLICK_MS)
    except Exception:
        return False  # covered by a modal dialog, say
    view.settle()
    return True


def _button(view: LoadedView, target: Locator, check: Check) -> tuple[bool, str]:
    changed = _click_changes(view, target)
    if changed:
        return True, f"changed {changed}"
    # It may act only in another state (Back on a first step): press each other control, then it.
    for opener in view.locator.locator(OPENERS).all():
        if not _visible(opener) or _key(opener) == _key(target):
            continue
        try:
            opener.click(timeout=OPENER_CLICK_MS)
        except Exception:
            continue
        view.settle()
        if _visible(target) and (changed := _click_changes(view, target)):
            return True, f"changed {changed} after {opener.inner_text().strip()[:40]!r}"
    return False, "clicking it changed nothing (no DOM, state or submit change)"


def _click_changes(view: LoadedView, target: Locator) -> str:
    """What one click changed: the view, its state, a submit; empty when nothing."""
    before, state, submits = view.snapshot(), view.state(), len(view.posted("ui4a.submit"))
    target.click(timeout=CLICK_MS)
    view.settle()
    changed = []
    if view.snapshot() != before:
        changed.append("the view")
    if view.state() != state:
        changed.append("state")
    if len(view.posted("ui4a.submit")) > submits:
        changed.append("a submit")
    return " and ".join(changed)


def _form_submit(view: LoadedView, target: Locator, check: Check) -> tuple[bool, str]:
    form = target.locator("xpath=..")
    filled = fill_form(form)
    # A password never leaves the view (static/ui4a/runtime.js): its key is not in the submit.
    secret = {el.get_attribute("data-bind") for el in form.locator("input[type=password]").all()}
    expected = {key for key in _bound_keys(check.node) if key in filled and key not in secret}
    form_id = form.get_attribute("id")
    before = len(view.posted("ui4a.submit"))
    target.click(timeout=CLICK_MS)
    view.settle()
    sent = [m for m in view.posted("ui4a.submit")[before:] if m.get("form") == form_id]
    if not sent:
        invalid = form.locator("[aria-invalid=true]").all()
        why = f"; fields marked invalid: {len(invalid)}" if invalid else ""
        return False, f"no submit was posted for valid input{why}"
    values = sent[-1].get("values") or {}
    missing = sorted(k for k in expected if k not in values)
    wrong = sorted(k for k in expected if k in values and values[k] != filled[k])
    if missing or wrong:
        said = [f"lacked {', '.join(missing)}"] if missing else []
        said += [f"sent other values for {', '.join(wrong)}"] if wrong else []
        return False, f"the submit {' and '.join(said)}"
    return True, f"submitted {len(expected)} bound field(s)"


def _validation(view: LoadedView, target: Locator, check: Check) -> tuple[bool, str]:
    form = target.locator("xpath=..")
    fill_form(form)
    broken = _break_one_field(form)
    if broken is None:
        return False, "no shown field has a rule that bad input can break"
    element, how = broken
    form_id = form.get_attribute("id")
    before = len(view.posted("ui4a.submit"))
    target.click(timeout=CLICK_MS)
    view.settle()
    if any(m.get("form") == form_id for m in view.posted("ui4a.submit")[before:]):
        return False, f"the form submitted with {how}"
    message = _error_message(view, element)
    if not message:
        return False, f"no validation message appeared for {how}"
    return True, f"{how}: {message!r}"


def fill_form(form: Locator) -> dict[str, Any]:
    """Fill every shown, bound field of a form with valid input; returns what the runtime should
    hold for each key (numbers as numbers, checkboxes as booleans)."""
    values: dict[str, Any] = {}
    for element in form.locator("[data-bind]").all():
        key = element.get_attribute("data-bind") or ""
        if key.startswith(".") or key in values or not _visible(element):
            continue
        kind = str(element.evaluate("e => e.type"))
        if kind in ("checkbox", "radio"):
            element.check(timeout=CLICK_MS)
            values[key] = True if kind == "checkbox" else element.get_attribute("value")
        elif kind.startswith("select"):
            options = [v for v in element.locator("option").all() if v.get_attribute("value")]
            if options:
                value = options[0].get_attribute("value") or ""
                element.select_option(value)
                values[key] = value
        elif kind == "range":
            low = float(element.get_attribute("min") or 0)
            high = float(element.get_attribute("max") or 100)
            number = _whole(low + (high - low) // 2)
            element.evaluate(
                "(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }",
                str(number),
            )
            values[key] = float(element.evaluate("e => Number(e.value)"))
        else:
            text = valid_text(kind, _attrs(element))
            element.fill(text)
            values[key] = _whole(float(text)) if kind == "number" else text
    return values


def valid_text(kind: str, rules: dict[str, str]) -> str:
    """Input that passes the runtime's rules for a field of this type."""
    low, high = _float(rules.get("data-min")), _float(rules.get("data-max"))
    if kind == "number":
        number = low if low is not None else (min(3.0, high) if high is not None else 3.0)
        return str(_whole(number))
    text = TEXT_SAMPLES.get(kind, "Ada Lovelace")
    pattern = rules.get("data-pattern")
    if pattern:
        text = next((s for s in PATTERN_SAMPLES if _full_match(pattern, s)), text)
    if kind in TEXT_SAMPLES:
        return text
    if low is not None and len(text) < low:
        text += "x" * int(low - len(text))
    if high is not None and len(text) > high:
        text = text[: max(int(high), 1)]
    return text


def _break_one_field(form: Locator) -> tuple[Locator, str] | None:
    """Give the first shown field that has a rule input its rule refuses."""
    for element in form.locator("[data-bind]").all():
        if not _visible(element):
            continue
        rules = _attrs(element)
        kind = str(element.evaluate("e => e.type"))
        low, high = _float(rules.get("data-min")), _float(rules.get("data-max"))
        if "data-req" in rules and kind == "checkbox":
            element.uncheck(timeout=CLICK_MS)
            return element, "a required box left unticked"
        if "data-req" in rules and kind not in ("radio", "range") and not kind.startswith("sel"):
            element.fill("")
            return element, "a required field left empty"
        if kind == "email":
            element.fill("not-an-email")
            return element, "an invalid email"
        if kind == "number" and low is not None:
            element.fill(str(_whole(low - 1)))
            return element, "a number under its minimum"
        if kind == "number" and high is not None:
            element.fill(str(_whole(high + 1)))
            return element, "a number over its maximum"
        if kind in ("text", "password", "textarea", "tel", "search") and low and low >= 2:
            element.fill("x" * int(low - 1))
            return element, "text under its minimum length"
        pattern = rules.get("data-pattern")
        if pattern and kind not in ("range", "checkbox", "radio") and not _full_match(pattern, "#"):
            element.fill("#")
            return element, "text that breaks its pattern"
    return None


def _error_message(view: LoadedView, owner: Locator) -> str:
    if owner.count() == 0 or owner.get_attribute("aria-invalid") != "true":
        return ""
    described = owner.get_attribute("aria-describedby") or ""
    for error_id in described.split():
        error = view.locator.locator(f"[id='{error_id}']")
        if error.count() and error.is_visible():
            return error.inner_text().strip()
    inner = owner.locator(".u4-error")
    if inner.count() and inner.first.is_visible():
        return inner.first.inner_text().strip()
    return ""


def _nodes(spec: dict[str, Any]) -> Iterator[tuple[NodeRef, bool]]:
    """Every node with whether it sits in a list's item template (rendered once per item)."""
    lists: list[tuple[int, ...]] = []
    for ref in walk(spec):
        path = tuple(p for p in ref.path if isinstance(p, int))
        in_list = any(path[: len(lp)] == lp and path != lp for lp in lists)
        if ref.node.get("t") == "list":
            lists.append(path)
        yield ref, in_list


def _selector(node: dict[str, Any], in_list: bool) -> str:
    node_id = node.get("id")
    if not (isinstance(node_id, str) and ID_PATTERN.fullmatch(node_id)):
        return "#missing-id"  # repair gives every node an id; without one nothing is found
    return f"[id^='u4-{node_id}-i']" if in_list else f"[id='u4-{node_id}']"


def _fields(form: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack = list(form.get("c") or [])
    while stack:
        kid = stack.pop()
        if not isinstance(kid, dict) or kid.get("t") == "list":
            continue
        if kid.get("t") in FIELDS:
            yield kid
        stack.extend(kid.get("c") or [])


def _bound_keys(form: dict[str, Any]) -> set[str]:
    keys = {kid.get("bind") for kid in _fields(form)}
    return {k for k in keys if isinstance(k, str) and k and not k.startswith(".")}


def _rules(node: dict[str, Any]) -> bool:
    has_rule = any(node.get(k) not in (None, False, "") for k in ("req", "min", "max", "pattern"))
    return has_rule or node.get("kind") == "email"


def _attrs(element: Locator) -> dict[str, str]:
    found: dict[str, str] = element.evaluate(
        "e => Object.fromEntries([...e.attributes].map((a) => [a.name, a.value]))"
    )
    return found


def _visible(element: Locator) -> bool:
    try:
        return element.count() > 0 and element.is_visible()
    except Exception:
        return False


def _key(element: Locator) -> str:
    return str(element.evaluate("e => e.id || (e.parentElement && e.parentElement.id) || ''"))


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _whole(number: float) -> float | int:
    return int(number) if float(number).is_integer() else number


def _full_match(pattern: str, text: str) -> bool:
    try:
        return re.fullmatch(pattern, text) is not None
    except re.error:
        return False
