"""The component catalog: one folder per component under `components/`, found by walking them.

A folder owns its component: `schema.py` (defining `COMPONENT`), `template.html.j2`,
`example.json` (its docs example) and `interaction.py` (what its browser test does with the
example) always; `view.py` (render helpers), `behaviour.js` (its part of the runtime) and
`style.css` when `COMPONENT` declares them (`has_view`, `has_behaviour`, `has_style`). Adding
a component means adding its folder; nothing else needs to change.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from ui4a.catalog import Component

COMPONENTS_DIR = Path(__file__).resolve().parent / "components"
REQUIRED_FILES = ("schema.py", "template.html.j2", "example.json", "interaction.py")


def optional_files(component: Component) -> dict[str, bool]:
    """Each optional piece of a component's folder, and whether the component declares it."""
    return {
        "view.py": component.has_view,
        "behaviour.js": component.has_behaviour,
        "style.css": component.has_style,
    }


def component_dirs() -> list[Path]:
    """Every folder under `components/` that looks like a component (has a schema.py)."""
    return sorted(p for p in COMPONENTS_DIR.iterdir() if p.is_dir() and (p / "schema.py").exists())


@cache
def components() -> dict[str, Component]:
    """All registered components by name, in a stable (alphabetical) order."""
    found: dict[str, Component] = {}
    for folder in component_dirs():
        module = importlib.import_module(f"ui4a.components.{folder.name}.schema")
        component = getattr(module, "COMPONENT", None)
        if not isinstance(component, Component):
            raise TypeError(f"{folder}/schema.py must define COMPONENT = Component(...)")
        if component.name != folder.name:
            raise ValueError(f"{folder}/schema.py names its component {component.name!r}")
        found[component.name] = component
    return found


def get(name: object) -> Component | None:
    """The component called `name`, or None when `name` is not a registered component."""
    return components().get(name) if isinstance(name, str) else None


def template_name(component: Component) -> str:
    """The Jinja template path of a component, relative to `components/`."""
    return f"{component.name}/template.html.j2"


def view_module(component: Component) -> str:
    """The module of a component's render helpers (when it declares `has_view`)."""
    return f"ui4a.components.{component.name}.view"


def interaction_module(component: Component) -> str:
    """The module with `interact(page)`, the browser test of a component's docs example."""
    return f"ui4a.components.{component.name}.interaction"


def example_path(component: Component) -> Path:
    return COMPONENTS_DIR / component.name / "example.json"
