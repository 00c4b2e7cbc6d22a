"""Small constructors for UI4A nodes, so the screen builders read like the screens they make.

Fields are emitted in catalog order (the order the schema makes the model write them); fields
left as None are dropped, because the compact format implies defaults.
"""

from __future__ import annotations

from typing import Any

Node = dict[str, Any]


def node(t: str, *kids: Node, **fields: Any) -> Node:
    out: Node = {"t": t}
    if fields.get("if_") is not None:
        out["if"] = fields.pop("if_")
    fields.pop("if_", None)
    out.update({k: v for k, v in fields.items() if v is not None})
    if kids:
        out["c"] = list(kids)
    return out


def page(*kids: Node) -> Node:
    return node("page", *kids)


def heading(text: str, level: int | None = None, **kw: Any) -> Node:
    return node("heading", text=text, level=level, **kw)


def text(value: str, **kw: Any) -> Node:
    return node("text", text=value, **kw)


def field(label: str, bind: str, kind: str | None = None, **kw: Any) -> Node:
    return node("input", label=label, bind=bind, kind=kind, **kw)


def labelled_input(label: str, bind: str, kind: str, req: bool | None = None) -> Node:
    """A textarea, or an input of `kind` ("text" being the default, left out)."""
    if kind == "textarea":
        return node("textarea", label=label, bind=bind)
    return field(label, bind, None if kind == "text" else kind, req=req)


def button(label: str, on: Any = None, kind: str | None = None, **kw: Any) -> Node:
    return node("button", label=label, on=on, kind=kind, **kw)


def set_(path: str, value: Any) -> Node:
    return {"do": "set", "path": path, "value": value}


def toggle(path: str) -> Node:
    return {"do": "toggle", "path": path}


def spec(title: str, root: Node, state: dict[str, Any] | None = None, **extra: Any) -> Node:
    out: Node = {"title": title}
    if extra.get("theme"):
        out["theme"] = extra["theme"]
    out["root"] = root
    if state:
        out["state"] = state
    if extra.get("data"):
        out["data"] = extra["data"]
    return out
