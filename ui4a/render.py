"""Rendering a (possibly partial) spec to HTML with Jinja2: one template per component.

Everything the model wrote reaches the page as escaped text or attribute values; the only
markup is ours (and sanitized markdown). Element ids come from node paths, so re-rendering a
growing spec keeps identities and the browser can morph instead of replace. Data components
(tables, lists, charts) render their first view here; the runtime re-renders them as state
and data change, by the same rules.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from functools import cache, cached_property
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template
from markupsafe import Markup, escape

from ui4a import actions, assets, expr, registry, theme
from ui4a.budget import MAX_RENDERED_BYTES, MAX_RENDERED_NODES, over_budget
from ui4a.catalog import COMMON_FIELDS, Component, Field
from ui4a.fields import is_scalar, kind_of
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.patterns import pattern_problem
from ui4a.policy import Surface, policy_for
from ui4a.queries import MAX_QUERY_ROWS, is_query
from ui4a.resolve import DATA_NOTES_KEY, NOTE_MAX
from ui4a.state import (
    format_value,
    has_placeholders,
    interpolate,
    truthy,
)
from ui4a.tree import Path, children, path_id, pointer
from ui4a.validate import ID_PATTERN

TEMPLATES_DIR = registry.COMPONENTS_DIR.parent / "templates"
Row = Mapping[str, Any]


class RenderTooLarge(Exception):
    """A render went over its node or byte budget; the view is replaced by a notice."""


@cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader([str(TEMPLATES_DIR), str(registry.COMPONENTS_DIR)]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates ship with the package; not stat-ing them on every node halves render time.
        auto_reload=False,
    )


@cache
def template(name: str) -> tuple[Template, dict[str, Any]]:
    """A compiled template and its globals, flattened once (Jinja keeps them in a ChainMap)."""
    tmpl = environment().get_template(name)
    return tmpl, dict(tmpl.globals)


def fields_of(component: Component | None) -> dict[str, Field]:
    """A component's fields by name, common ones included (its own win); built once each."""
    key = component.name if component else ""
    found = _FIELDS.get(key)
    if found is None:
        found = {f.name: f for f in COMMON_FIELDS}
        found.update({f.name: f for f in component.fields} if component else {})
        _FIELDS[key] = found
    return found


_FIELDS: dict[str, dict[str, Field]] = {}


def draw(name: str, view: NodeView) -> Markup:
    """Template.render without its per-call cost: copying Jinja's ChainMap of globals into
    every context took a quarter of the render time of a leaf."""
    tmpl, globals_ = template(name)
    env = tmpl.environment
    # The context Template.new_context(shared=True) makes, less a set() of the same ChainMap
    # (only `{% import %}` reads it, and no component template imports).
    context = env.context_class(env, {**globals_, "n": view}, tmpl.name, tmpl.blocks)
    return Markup("".join(tmpl.root_render_func(context)))


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def humanize(key: str) -> str:
    """A column key as a header: "unit_price" and "unitPrice" read "Unit price"."""
    words: list[str] = []
    for part in key.replace("_", " ").split():
        start = 0
        for i in range(1, len(part)):
            if part[i].isupper() and part[i - 1].islower():
                words.append(part[start:i])
                start = i
        words.append(part[start:])
    text = " ".join(words).lower()
    return text[:1].upper() + text[1:]


class NodeView:
    """What a component template sees: the node's fields, already checked and defaulted."""

    def __init__(
        self,
        renderer: _Renderer,
        node: Mapping[str, Any],
        component: Component | None,
        dom_id: str,
        path: Path,
        kids: list[Markup],
    ) -> None:
        self.r = renderer
        self.node = node
        self.component = component
        self.dom_id = dom_id
        self.path = path
        self.child_list = kids
        self.state = renderer.state
        self.fields = fields_of(component)
        self._vals: dict[str, Any] = {}

    @cached_property
    def children(self) -> Markup:
        # Every kid is our own Markup already: join without escaping each one again.
        return Markup("\n".join(self.child_list))

    def _field(self, name: str) -> Field | None:
        return self.fields.get(name)

    def val(self, name: str) -> Any:
        """The field's value when it has the right shape, else its default ("" for text)."""
        # Templates read some fields several times; a node does not change while it renders.
        # Lists are copied so a template cannot change the cached value.
        try:
            value = self._vals[name]
        except KeyError:
            value = self._vals[name] = self._val(name)
        return list(value) if isinstance(value, list) else value

    def _val(self, name: str) -> Any:
        field = self.fields.get(name)
        if field is None:
            return ""
        return kind_of(field).shown(field, self.node.get(name))

    def num(self, name: str, default: float | None = None) -> str | None:
        value = self.val(name) if self._field(name) else None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            value = default
        return None if value is None else format_value(value)

    @cached_property
    def attrs(self) -> Markup:
        """Attributes every node carries: a stable id from its path, the JSON pointer the
        studio's design mode selects it by (list items repeat their template's pointer), and
        its condition."""
        # escape() and concatenation: Markup.format costs more than the rest of a leaf.
        # dom_id is "u4-" and ID_PATTERN characters or a path id, and a path is "root", "c" and
        # numbers: nothing in either to escape.
        out = f' id="{self.dom_id}" data-ui4a-node="{pointer(self.path)}"'
        if self.cond:
            out += f' data-if="{escape(self.cond)}"'
        return Markup(out + " hidden" if self.hidden else out)

    def tpl(self, name: str = "text") -> Markup:
        """data-tpl with the raw `{key}` text of a field, which the runtime re-applies."""
        raw = self.raw_tpl(name)
        return Markup(f' data-tpl="{escape(raw)}"') if raw else Markup("")

    @property
    def rules(self) -> Markup:
        """A form field's validation rules, which the runtime checks on submit."""
        out = ""
        if self.val("req"):
            out += ' data-req="1" aria-required="true"'
        for name in ("min", "max"):
            value = self.num(name)
            if value is not None:
                out += f' data-{name}="{escape(value)}"'
        pattern = self.val("pattern")
        # A pattern that may backtrack catastrophically would freeze the view's thread on
        # submit: it is left out (validation reports it), not compiled.
        if pattern and not pattern_problem(pattern):
            out += f' data-pattern="{escape(pattern)}"'
        return Markup(f'{out} aria-describedby="{self.dom_id}-err"')

    def interp(self, name: str) -> str:
        return interpolate(str(self.val(name)), self.state, self.r.item)

    def raw_tpl(self, name: str) -> str:
        """The raw text when it has `{key}` placeholders, for the runtime to re-apply."""
        raw = str(self.val(name))
        return raw if has_placeholders(raw) else ""

    @property
    def text(self) -> str:
        return self.interp("text")

    @cached_property
    def bind(self) -> str:
        return str(self.val("bind"))

    def _read(self, key: str) -> object:
        if key.startswith("."):
            return self.r.item.get(key[1:]) if self.r.item is not None else None
        return self.state.get(key)

    @property
    def value(self) -> str:
        return format_value(self._read(self.bind))

    @property
    def checked(self) -> bool:
        return truthy(self._read(self.bind))

    @cached_property
    def cond(self) -> str:
        return str(self.val("if"))

    @property
    def hidden(self) -> bool:
        cond = self.cond
        if not cond:
            return False
        if cond.lstrip("!").startswith("."):
            scope: Mapping[str, object] = self.r.item or {}
            return not expr.holds(cond.replace(".", "", 1), scope)
        return not expr.holds(cond, self.state)

    @property
    def action(self) -> str:
        """The action(s) as JSON for data-action, keeping only what the vocabulary defines."""
        on = self.node.get("on")
        kept = [a for a in (_clean_action(one) for one in actions.as_list(on)) if a]
        if not kept:
            return ""
        return compact(kept if isinstance(on, list) else kept[0])

    @property
    def data_note(self) -> str:
        """What the server said about this node's dataset (paged, or why it is empty)."""
        return self.r.notes.get(self.val("data"), "")

    def rows(self) -> tuple[list[Row], bool]:
        """The dataset's rows that pass this node's filter; and whether they are still coming."""
        name = self.val("data")
        rows = self.r.data.get(name)
        if rows is None:
            # A query the server has not resolved yet shows its placeholder, like data that
            # has not streamed in.
            return [], self.r.partial or name in self.r.queries
        clauses = [c for c in map(expr.parse_clause, self.val("filter")) if c is not None]
        return [r for r in rows if expr.row_passes(r, clauses, self.state)], False


def view_class(component: Component) -> type[NodeView]:
    """What a component's template sees: its folder's `view.View` when it declares render
    helpers, else the plain NodeView."""
    found = _VIEWS.get(component.name)
    if found is None:
        found = _VIEWS[component.name] = _load_view(component)
    return found


_VIEWS: dict[str, type[NodeView]] = {}


def _load_view(component: Component) -> type[NodeView]:
    if not component.has_view:
        return NodeView
    module = importlib.import_module(registry.view_module(component))
    found = getattr(module, "View", None)
    if not (isinstance(found, type) and issubclass(found, NodeView)):
        raise TypeError(f"{registry.view_module(component)} must define View(NodeView)")
    return found


def _clean_action(on: object) -> dict[str, object] | None:
    action = actions.get(on.get("do")) if isinstance(on, dict) else None
    if action is None or not isinstance(on, dict):
        return None
    kept: dict[str, object] = {"do": action.name}
    for field in action.fields:
        value = on.get(field.name)
        if is_scalar(value):
            kept[field.name] = value
        elif field.kind == "record" and isinstance(value, dict):
            kept[field.name] = {
                k: v for k, v in value.items() if isinstance(k, str) and (is_scalar(v) or v is None)
            }
    return kept


class _Renderer:
    def __init__(
        self,
        state: Mapping[str, Any],
        data: Mapping[str, list[Row]],
        partial: bool,
        queries: frozenset[str] = frozenset(),
        notes: Mapping[str, str] | None = None,
    ) -> None:
        self.state = state
        self.data = data
        self.queries = queries
        self.notes = notes or {}
        self.partial = partial
        self.used_ids: set[str] = set()
        self.next_free: dict[str, int] = {}
        self.env = environment()
        self.item: Mapping[str, Any] | None = None
        self.suffix = ""
        self.drawn_nodes = 0
        self.drawn_bytes = 0

    def dom_id(self, node: Mapping[str, Any], path: Path) -> str:
        own = node.get("id")
        base = own if isinstance(own, str) and ID_PATTERN.fullmatch(own) else path_id(path)
        candidate = f"u4-{base}{self.suffix}"
        # Probing resumes where the last clash of this id left off: every id skipped then is
        # still taken, and starting at 2 each time made repeated ids (a nested list's items
        # share their paths) quadratic.
        n = self.next_free.get(candidate, 2)
        first = candidate
        while candidate in self.used_ids:
            candidate, n = f"u4-{base}-{n}{self.suffix}", n + 1
        self.next_free[first] = n
        self.used_ids.add(candidate)
        return candidate

    def node(self, node: Mapping[str, Any], path: Path) -> Markup:
        self.drawn_nodes += 1
        if self.drawn_nodes > MAX_RENDERED_NODES:
            raise RenderTooLarge(f"the view draws more than {MAX_RENDERED_NODES} nodes")
        before = self.drawn_bytes
        html = self._node(node, path)
        # Only the bytes this node adds: its children's were counted when they were drawn.
        self.drawn_bytes += max(0, len(html) - (self.drawn_bytes - before))
        if self.drawn_bytes > MAX_RENDERED_BYTES:
            raise RenderTooLarge(f"the view draws more than {MAX_RENDERED_BYTES} bytes of HTML")
        return html

    def _node(self, node: Mapping[str, Any], path: Path) -> Markup:
        # Depth is bounded by check_value (at most limits.max_depth), so recursion is safe.
        component = registry.get(node.get("t"))
        dom_id = self.dom_id(node, path)
        if component is None:
            pending = self.partial or "t" not in node
            name = "_pending.html.j2" if pending else "_unknown.html.j2"
            view = NodeView(self, node, None, dom_id, path, [])
            return draw(name, view)
        kids: list[Markup] = []
        if component.children and component.name != "list":
            kids = [
                self.node(kid, (*path, "c", i))
                for i, kid in enumerate(children(dict(node)))
                if isinstance(kid, dict)
            ]
        view = view_class(component)(self, node, component, dom_id, path, kids)
        return draw(registry.template_name(component), view)

    def items(self, view: NodeView, row: Row | None, index: int | None) -> Markup:
        """A list's item template, for one row (ids suffixed "-i<index>") or, with no row, as
        the bare template the runtime clones."""
        saved = self.item, self.suffix
        self.item = row if row is not None else {}
        self.suffix = f"-i{index}" if index is not None else ""
        try:
            return Markup("\n").join(
                self.node(kid, (*view.path, "c", i))
                for i, kid in enumerate(children(dict(view.node)))
                if isinstance(kid, dict)
            )
        finally:
            self.item, self.suffix = saved


def initial_state(spec: object) -> dict[str, Any]:
    """The spec's declared state, keeping only scalar values."""
    state = spec.get("state") if isinstance(spec, dict) else None
    if not isinstance(state, dict):
        return {}
    # NaN and infinities (Python's json accepts them) have no JSON form for the browser.
    return {k: v for k, v in state.items() if v is None or is_scalar(v)}


def initial_data(spec: object) -> dict[str, list[Row]]:
    """The spec's datasets, keeping only records of scalar values. A dataset may be the
    resolved rows of a query (ui4a/resolve.py), hence the cap at MAX_QUERY_ROWS rather than
    the few rows a model writes inline (validation holds those to MAX_ROWS)."""
    data = spec.get("data") if isinstance(spec, dict) else None
    if not isinstance(data, dict):
        return {}
    out: dict[str, list[Row]] = {}
    for name, rows in data.items():
        if isinstance(name, str) and isinstance(rows, list):
            out[name] = [
                {k: v for k, v in row.items() if v is None or is_scalar(v)}
                for row in rows[:MAX_QUERY_ROWS]
                if isinstance(row, dict)
            ]
    return out


def unresolved(spec: object) -> frozenset[str]:
    """Names of the spec's datasets that are still queries (not resolved into rows)."""
    data = spec.get("data") if isinstance(spec, dict) else None
    if not isinstance(data, dict):
        return frozenset()
    return frozenset(name for name, entry in data.items() if is_query(entry))


def data_notes(spec: object) -> dict[str, str]:
    """The notes resolve_data left on the spec it resolved, by dataset name."""
    notes = spec.get(DATA_NOTES_KEY) if isinstance(spec, dict) else None
    if not isinstance(notes, dict):
        return {}
    return {
        name: text[:NOTE_MAX]
        for name, text in notes.items()
        if isinstance(name, str) and isinstance(text, str)
    }


def render_body(spec: object, *, partial: bool = False, limits: Limits = DEFAULT_LIMITS) -> str:
    """The view's HTML fragment (the inside of #ui4a-root). `partial` marks a streaming spec:
    nodes whose type has not arrived yet render as small placeholders, and so do tables,
    lists and charts whose dataset has not arrived."""
    if spec is None:
        return ""
    check_value(spec, limits)
    root = spec.get("root") if isinstance(spec, dict) else None
    if not isinstance(root, dict):
        return ""
    data = initial_data(spec)
    renderer = _Renderer(initial_state(spec), data, partial, unresolved(spec), data_notes(spec))
    reason = over_budget(spec)
    try:
        if reason:
            raise RenderTooLarge(reason)
        html = str(renderer.node(root, ("root",)))
    except RenderTooLarge as over:
        html = too_large_notice(str(over))
    theme_attrs = _theme_attrs(spec)
    # The datasets travel with the body (the studio streams bodies), as inert JSON.
    data_json = safe_json(data)
    return (
        f'<div class="u4-view"{theme_attrs}>{html}</div>'
        f'<script type="application/json" id="ui4a-data">{data_json}</script>'
    )


def too_large_notice(reason: str) -> str:
    """What a view over its render budget shows instead of the rest of itself."""
    return (
        '<div class="u4-alert" role="alert" data-ui4a-problem="too_large">'
        f"This view is too large to show: {escape(reason)}. Nested lists multiply their rows;"
        " fewer rows or less nesting will fit.</div>"
    )


def _theme_attrs(spec: object) -> str:
    tokens = theme.tokens(spec.get("theme") if isinstance(spec, dict) else None)
    # Every token is one of a closed set of names, so no escaping is needed.
    return "".join(f' data-{name}="{value}"' for name, value in tokens.items())


def safe_json(value: object) -> str:
    """JSON that is safe inside <script type="application/json">: no < > & at all."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def state_json(state: Mapping[str, Any]) -> str:
    return safe_json(state)


def render_document(
    spec: object,
    *,
    title: str = "UI4A view",
    partial: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    surface: Surface = Surface.VIEW_META,
    host: Mapping[str, object] | None = None,
) -> str:
    """A standalone HTML document of the view, with its runtime and a strict CSP.

    The spec's own "title", when it has one, names the document; `title` is the fallback.
    `render_document(None)` is the empty shell a studio frame starts from before streaming.
    `surface` picks the meta policy: a served view's, or an exported file's (no network).
    `host` makes it a published widget's document (`{"widget": id, "origin": origin or None,
    "buttons": [labels]}`): the runtime then tells the framing page only its host events (form
    submits, clicks on those buttons), addressed to that origin.
    It is data in a JSON element, so the inline scripts and their CSP hashes stay the same.
    """
    if surface not in (Surface.VIEW_META, Surface.EXPORTED_FILE):
        raise ValueError(f"a document carries a meta policy; {surface} is not one")
    body = render_body(spec, partial=partial, limits=limits)
    own_title = spec.get("title") if isinstance(spec, dict) else None
    scripts = assets.scripts()
    styles = assets.styles()
    return (
        environment()
        .get_template("document.html.j2")
        .render(
            csp=policy_for(surface),
            title=own_title if isinstance(own_title, str) and own_title else title,
            theme=Markup(_theme_attrs(spec)),
            styles=[Markup(s) for s in styles],
            body=Markup(body),
            state_json=Markup(state_json(initial_state(spec))),
            host_json=Markup(safe_json(dict(host))) if host is not None else None,
            scripts=[Markup(s) for s in scripts],
        )
    )
