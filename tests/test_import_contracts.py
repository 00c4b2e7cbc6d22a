"""The import contracts in pyproject.toml ([tool.importlinter]) hold, and they do fail: a copy
of the packages with one deliberate bad import breaks them, naming the chain."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The three packages' sources and the contracts, without data files."""
    for package in ("ui4a", "studio", "inference"):
        shutil.copytree(
            REPO / package,
            tmp_path / package,
            ignore=lambda _, names: [n for n in names if "." in n and not n.endswith(".py")],
        )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n{line}\n")


def test_it_keeps_every_contract() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout
    assert "0 broken" in result.stdout


def test_a_view_that_imports_the_engine_breaks_the_process_boundary(copy: Path) -> None:
    add_line(copy / "studio/web/views.py", "from inference.serving import hosting")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "The web side loads no engine, offline tooling or worker code BROKEN" in result.stdout
    assert "studio.web.views -> inference.serving.hosting" in result.stdout


def test_serving_that_imports_training_breaks_its_contract(copy: Path) -> None:
    add_line(copy / "inference/serving/engine.py", "from inference.offline.training import trainer")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "Serving never imports offline tooling BROKEN" in result.stdout


def test_a_cycle_hidden_in_a_function_breaks_the_contracts(copy: Path) -> None:
    # The shape of the old hidden cycles: a read that reaches back into a writer, lazily.
    add_line(
        copy / "studio/selectors.py",
        "def _lazy() -> None:\n    from studio.services.generations import generation_create",
    )
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "No import cycles, at any depth BROKEN" in result.stdout
    assert ".selectors -> .services" in result.stdout


def test_the_web_process_loads_no_engine_offline_or_worker_module() -> None:
    """What the contracts cannot see (settings name modules as strings): start the web process's
    app as Daphne does, load every URL's view, and list what got imported."""
    code = (
        "import os, sys\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'studio.settings'\n"
        "from studio.web.asgi import application\n"
        "import studio.web.urls\n"
        "banned = ('vllm', 'inference.serving', 'inference.offline', 'studio.worker')\n"
        "print(sorted(m for m in sys.modules if m.startswith(banned)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
