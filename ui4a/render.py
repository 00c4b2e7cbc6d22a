"""Rendering a (possibly partial) spec to HTML with Jinja2: one template per component.

Everything the model wrote reaches the page as escaped text or attribute values; the only
markup is ours. Element ids come from node paths, so re-rendering a growing spec keeps
identities and the browser can morph instead of replace.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ui4a import actions, assets, registry
from ui4a.catalog import COMMON_FIELDS, Component, Field
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.state import condition_holds, format_value, interpolate, placeholders, truthy
from ui4a.tree import Path, children, path_id
from ui4a.validate import ID_PATTERN

TEMPLATES_DIR = registry.COMPONENTS_DIR.parent / "templates"


@cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader([str(TEMPLATES_DIR), str(registry.COMPONENTS_DIR)]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


class NodeView:
    """What a component template sees: the node's fields, already checked and defaulted."""

    def __init__(
        self,
        node: Mapping[str, Any],
        component: Component | None,
        dom_id: str,
        state: Mapping[str, Any],
        children: Markup,
    ) -> None:
        self.node = node
        self.component = component
        self.dom_id = dom_id
        self.state = state
        self.children = children

    def _field(self, name: str) -> Field | None:
        own = self.component.field(name) if self.component else None
        return own or next((f for f in COMMON_FIELDS if f.name == name), None)

    def val(self, name: str) -> Any:
        """The field's value when it has the right shape, else its default ("" for text)."""
        field = self._field(name)
        if field is None:
            return ""
        value = self.node.get(name)
        if field.kind == "enum":
            ok = not isinstance(value, bool) and value in field.values
            return value if ok else field.default
        if field.kind in ("str", "text", "key"):
            return value if isinstance(value, str) else ""
        return value

    @property
    def text(self) -> str:
        return interpolate(self.val("text"), self.state)

    @property
    def tpl(self) -> str:
        """The raw text when it has `{key}` placeholders, for the runtime to re-apply."""
        raw: str = self.val("text")
        return raw if placeholders(raw) else ""

    @property
    def bind(self) -> str:
        return str(self.val("bind"))

    @property
    def value(self) -> str:
        return format_value(self.state.get(self.bind))

    @property
    def checked(self) -> bool:
        return truthy(self.state.get(self.bind))

    @property
    def cond(self) -> str:
        return str(self.val("if"))

    @property
    def hidden(self) -> bool:
        return bool(self.cond) and not condition_holds(self.cond, self.state)

    @property
    def action(self) -> str:
        """The action as JSON for data-action, keeping only what the vocabulary defines."""
        on = self.node.get("on")
        action = actions.get(on.get("do")) if isinstance(on, dict) else None
        if action is None or not isinstance(on, dict):
            return ""
        kept: dict[str, object] = {"do": action.name}
        for field in action.fields:
            value = on.get(field.name)
            if isinstance(value, (str, int, float, bool)):
                kept[field.name] = value
        return json.dumps(kept, separators=(",", ":"))


class _Renderer:
    def __init__(self, state: Mapping[str, Any], partial: bool) -> None:
        self.state = state
        self.partial = partial
        self.used_ids: set[str] = set()
        self.env = environment()

    def dom_id(self, node: Mapping[str, Any], path: Path) -> str:
        own = node.get("id")
        base = own if isinstance(own, str) and ID_PATTERN.fullmatch(own) else path_id(path)
        candidate, n = f"u4-{base}", 2
        while candidate in self.used_ids:
            candidate, n = f"u4-{base}-{n}", n + 1
        self.used_ids.add(candidate)
        return candidate

    def node(self, node: Mapping[str, Any], path: Path) -> Markup:
        # Depth is bounded by check_value (at most limits.max_depth), so recursion is safe.
        component = registry.get(node.get("t"))
        dom_id = self.dom_id(node, path)
        if component is None:
            pending = self.partial or "t" not in node
            template = "_pending.html.j2" if pending else "_unknown.html.j2"
            view = NodeView(node, None, dom_id, self.state, Markup(""))
            return Markup(self.env.get_template(template).render(n=view))
        kids = Markup("")
        if component.children:
            kids = Markup("\n").join(
                self.node(kid, (*path, "c", i))
                for i, kid in enumerate(children(dict(node)))
                if isinstance(kid, dict)
            )
        view = NodeView(node, component, dom_id, self.state, kids)
        return Markup(self.env.get_template(registry.template_name(component)).render(n=view))


def initial_state(spec: object) -> dict[str, Any]:
    """The spec's declared state, keeping only scalar values."""
    state = spec.get("state") if isinstance(spec, dict) else None
    if not isinstance(state, dict):
        return {}
    # NaN and infinities (Python's json accepts them) have no JSON form for the browser.
    return {
        k: v
        for k, v in state.items()
        if v is None
        or isinstance(v, (str, int, bool))
        or (isinstance(v, float) and math.isfinite(v))
    }


def render_body(spec: object, *, partial: bool = False, limits: Limits = DEFAULT_LIMITS) -> str:
    """The view's HTML fragment (the inside of #ui4a-root). `partial` marks a streaming spec:
    nodes whose type has not arrived yet render as small placeholders."""
    if spec is None:
        return ""
    check_value(spec, limits)
    root = spec.get("root") if isinstance(spec, dict) else None
    if not isinstance(root, dict):
        return ""
    return str(_Renderer(initial_state(spec), partial).node(root, ("root",)))


def state_json(state: Mapping[str, Any]) -> str:
    """State as JSON that is safe inside <script type="application/json">: no < > & at all."""
    text = json.dumps(state, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_document(
    spec: object,
    *,
    title: str = "UI4A view",
    partial: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> str:
    """A standalone HTML document of the view, with its runtime and a strict CSP.

    The spec's own "title", when it has one, names the document; `title` is the fallback.
    `render_document(None)` is the empty shell a studio frame starts from before streaming.
    """
    body = render_body(spec, partial=partial, limits=limits)
    own_title = spec.get("title") if isinstance(spec, dict) else None
    scripts = [assets.idiomorph_js(), assets.runtime_js()]
    css = assets.view_css()
    return (
        environment()
        .get_template("document.html.j2")
        .render(
            csp=assets.content_security_policy(scripts, [css]),
            title=own_title if isinstance(own_title, str) and own_title else title,
            css=Markup(css),
            body=Markup(body),
            state_json=Markup(state_json(initial_state(spec))),
            scripts=[Markup(s) for s in scripts],
        )
    )
