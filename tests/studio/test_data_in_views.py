"""A project's datasets reach the ui expert as profiles and every render as rows: the prompt the
engine gets, the streamed preview (each query run once per stream), the stored version's view,
and a new upload changing what an old version shows. The engine here is the scripted fake
(`tests.fakes`); the real one answers in tests/stack/test_data_dashboard_browser.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps
import pytest

import ui4a.aggregate
import ui4a.resolve
from inference.loras import WEIGHTS
from studio.models import Generation, Project
from studio.selectors import version_detail
from studio.services.datasets import dataset_upload
from studio.services.generations import generation_create
from studio.services.versions import version_add
from studio.worker.run import generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]

CSV = b"day,region,amount\n2025-01-03,North,10\n2025-01-20,South,5.5\n2025-02-01,North,2\n"
SPEC: dict[str, Any] = {
    "title": "Sales",
    "root": {
        "t": "page",
        "c": [{"t": "table", "title": "By month", "data": "monthly", "cols": ["day", "amount"]}],
    },
    "data": {
        "monthly": {"from": "sales", "group": "day:month", "agg": {"amount": "sum"}},
        "by_region": {"from": "sales", "group": "region", "agg": {"amount": "sum", "n": "count"}},
    },
}


@pytest.fixture
def project() -> Project:
    project = Project.objects.create(name="Shop")
    dataset_upload(project=project, filename="sales.csv", data=CSV)
    return project


def cells(html: str) -> list[str]:
    import re

    return re.findall(r"<td[^>]*>([^<]*)</td>", html)


def test_a_version_shows_rows_computed_from_the_dataset_as_it_is_now(project: Project) -> None:
    version = version_add(project=project, spec=SPEC, kind="generated", label="sales")
    assert cells(version_detail(version)["html"]) == ["2025-01", "15.5", "2025-02", "2"]
    dataset_upload(project=project, filename="sales.csv", data=CSV.replace(b",10\n", b",20\n"))
    assert cells(version_detail(version)["html"]) == ["2025-01", "25.5", "2025-02", "2"]
    assert version.spec == SPEC  # the stored spec keeps its query, never the rows


def test_the_expert_sees_the_profile_and_the_preview_runs_each_query_once(
    project: Project, enqueued: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[str] = []
    real = ui4a.aggregate.run_query  # what ui4a.resolve calls, counted

    def counted(query: Any, table: Any) -> Any:
        runs.append(repr(query))
        return real(query, table)

    monkeypatch.setattr(ui4a.resolve, "run_query", counted)
    generation = generation_create(prompt="a sales table", expert="ui", project_id=project.id)
    # Slow enough for many batches while the second query streams after the first is whole.
    engine = ScriptedFakeEngine(json.dumps(SPEC, separators=(",", ":")), chunk=2, delay=0.02)
    generation_run(generation_id=generation.id, engine=engine)

    (request,) = engine.requests
    assert request.json_schema is not None
    jsonschema.validate(SPEC, request.json_schema)  # queries decode where there are datasets
    user = request.messages[-1].content
    assert user.startswith('Dataset "sales" (3 rows):\n- day: date, 2025-01-03 to 2025-02-01')
    assert user.endswith("\n\na sales table")
    assert "5.5" not in user.split("\n- amount")[0]  # a range, never the rows
    stored = Generation.objects.get(pk=generation.id)
    assert stored.status == Generation.Status.DONE and stored.spec is not None
    assert stored.spec["data"] == SPEC["data"]  # stored as a query
    # Many batches re-rendered the preview after the first query was whole; it ran once for
    # all of them, and once more for the final view.
    assert stored.seq >= 6
    monthly = next(r for r in runs if "month" in r)
    assert runs.count(monthly) == 2


def test_the_expert_decodes_queries_over_the_projects_own_columns(
    project: Project, enqueued: list[str]
) -> None:
    generation = generation_create(prompt="a sales table", expert="ui", project_id=project.id)
    engine = ScriptedFakeEngine(json.dumps(SPEC, separators=(",", ":")))
    generation_run(generation_id=generation.id, engine=engine)
    (request,) = engine.requests
    assert request.json_schema is not None
    invented = {**SPEC, "data": {"monthly": {"from": "sales", "group": "date:month"}}}
    with pytest.raises(jsonschema.ValidationError):  # sales.csv has "day", not "date"
        jsonschema.validate(invented, request.json_schema)


def test_the_ui_expert_answers_over_datasets_with_its_data_adapter(
    project: Project, enqueued: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ui", "ui-data"):
        (tmp_path / name).mkdir()
        (tmp_path / name / WEIGHTS).write_bytes(name.encode())
    monkeypatch.setenv("MACARON_ADAPTERS", str(tmp_path))
    engine = ScriptedFakeEngine(json.dumps(SPEC, separators=(",", ":")))
    with_data = generation_create(prompt="a sales table", expert="ui", project_id=project.id)
    generation_run(generation_id=with_data.id, engine=engine)
    empty = Project.objects.create(name="No data")
    without = generation_create(prompt="a sales table", expert="ui", project_id=empty.id)
    generation_run(generation_id=without.id, engine=engine)
    over_data, plain = engine.requests
    assert over_data.adapter is not None and over_data.adapter.path == str(tmp_path / "ui-data")
    assert plain.adapter is None or Path(plain.adapter.path).name == "ui"


def test_without_datasets_the_expert_cannot_decode_a_query(enqueued: list[str]) -> None:
    project = Project.objects.create(name="No data")
    generation = generation_create(prompt="a sales table", expert="ui", project_id=project.id)
    engine = ScriptedFakeEngine(json.dumps(SPEC, separators=(",", ":")))
    generation_run(generation_id=generation.id, engine=engine)
    (request,) = engine.requests
    assert request.json_schema is not None
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(SPEC, request.json_schema)
    inline = {**SPEC, "data": {"monthly": [{"day": "2025-01", "amount": 15.5}]}}
    jsonschema.validate(inline, request.json_schema)
