"""The studio's view-state panel showed password values the view posted: it now leaves out
every key a password field of the current spec binds, whatever a frame sends
(static/studio/developer.js; the view's runtime no longer posts them either, see
tests/ui4a/test_ui4a_browser.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

DEVELOPER_JS = Path(__file__).parents[2] / "static/studio/developer.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_panel_leaves_out_password_keys() -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [
                {
                    "t": "form",
                    "c": [
                        {"t": "input", "label": "User", "bind": "user"},
                        {"t": "input", "label": "Password", "bind": "pw", "kind": "password"},
                    ],
                }
            ],
        }
    }
    state = {"user": "ada", "pw": "hunter2"}
    script = (
        f"const m = await import({json.dumps(DEVELOPER_JS.as_uri())});"
        f"console.log(JSON.stringify([m.shownState({json.dumps(state)}, {json.dumps(spec)}),"
        f" m.shownState({json.dumps(state)}, null)]));"
    )
    run = subprocess.run(
        ["node", "--no-warnings", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    shown, without_spec = json.loads(run.stdout)
    assert shown == {"user": "ada"}
    assert without_spec == state  # no spec: nothing known to hide (the runtime hid it already)
