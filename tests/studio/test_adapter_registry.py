"""The adapter registry: registering validates against the served base and writes nothing on
a refusal; ids are never reused; workers are told after the commit; requests can name a
registered expert at once; the studio and /v1/models show manifest summaries."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from inference.experts import EXPERTS, adapter_dir
from studio.errors import NotFound
from studio.models import Adapter, Generation
from studio.selectors import expert_resolve, experts_list
from studio.services.adapters import (
    AdapterRejected,
    adapter_register,
    adapter_unregister,
    adapters_sync_builtin,
)
from studio.services.api_keys import api_key_create
from studio.services.projects import project_create
from tests.studio.conftest import FakeWorker

pytestmark = pytest.mark.django_db(transaction=True)

Broadcasts = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def make_adapter(tmp_path: Path) -> Callable[..., Path]:
    """A copy of the chat expert's real peft adapter, with config and manifest edited."""

    def make(name: str = "poet", config: dict[str, Any] | None = None, **manifest: Any) -> Path:
        folder = tmp_path / name
        shutil.copytree(adapter_dir("chat"), folder)
        for file, changes in (("adapter_config.json", config), ("macaron-manifest.json", manifest)):
            data = json.loads((folder / file).read_text())
            data.update(changes or {})
            (folder / file).write_text(json.dumps(data))
        return folder

    return make


def test_it_registers_an_adapter_and_tells_every_worker(
    make_adapter: Callable[..., Path], broadcasts: Broadcasts
) -> None:
    folder = make_adapter()
    config = json.loads((folder / "adapter_config.json").read_text())
    record = adapter_register(name="poet", path=folder, purpose="short poems")
    assert record.status == "active"
    assert record.rank == config["r"]
    assert record.target_modules == config["target_modules"]
    assert len(record.sha256) == 64
    assert record.manifest["expert"] == "chat"
    assert not record.structured and not record.builtin
    assert broadcasts == [
        (
            "macaron_adapter_load",
            {
                "name": "poet",
                "lora_id": record.lora_id,
                "path": record.path,
                "sha256": record.sha256,
            },
        )
    ]
    resolved = expert_resolve(name="poet")
    assert resolved is not None and resolved.adapter is not None
    assert resolved.adapter.lora_id == record.lora_id
    assert resolved.expert.purpose == "short poems"


@pytest.mark.parametrize(
    ("config", "manifest", "message"),
    [
        ({"r": 64}, {"rank": 64}, "rank 64 is not served"),
        (
            {"target_modules": ["q_proj", "wq"]},
            {},
            r"target modules \['wq'\] are not linear layers",
        ),
        ({}, {"base_sha256": "0" * 64}, "made for base 000000000000"),
        ({}, {"base_weights_sha256": "f" * 64}, "trained on base weights ffffffffffff"),
        ({"peft_type": "IA3"}, {}, "peft_type is 'IA3'"),
    ],
)
def test_it_refuses_adapters_the_served_base_cannot_take_and_writes_nothing(
    make_adapter: Callable[..., Path],
    broadcasts: Broadcasts,
    config: dict[str, Any],
    manifest: dict[str, Any],
    message: str,
) -> None:
    with pytest.raises(AdapterRejected, match=message):
        adapter_register(name="poet", path=make_adapter(config=config, **manifest))
    assert not Adapter.objects.exists()
    assert broadcasts == []


def test_it_refuses_folders_without_a_manifest_or_weights_and_bad_names(
    make_adapter: Callable[..., Path],
) -> None:
    folder = make_adapter()
    (folder / "macaron-manifest.json").unlink()
    with pytest.raises(AdapterRejected, match=r"macaron-manifest.json is missing"):
        adapter_register(name="poet", path=folder)
    with pytest.raises(AdapterRejected, match="not a folder"):
        adapter_register(name="poet", path=folder / "nowhere")
    with pytest.raises(AdapterRejected, match="not a valid name"):
        adapter_register(name="Poet Laureate", path=make_adapter("other"))
    assert not Adapter.objects.exists()


def test_a_re_registered_name_gets_a_new_lora_id_and_ids_are_never_reused(
    make_adapter: Callable[..., Path], broadcasts: Broadcasts
) -> None:
    first = adapter_register(name="poet", path=make_adapter())
    second = adapter_register(name="poet", path=make_adapter("poet-v2"))
    assert second.lora_id > first.lora_id
    first.refresh_from_db()
    assert first.status == "retired" and first.retired_at is not None
    assert broadcasts[-1] == ("macaron_adapter_unload", {"lora_id": first.lora_id})
    adapter_unregister(name="poet")
    third = adapter_register(name="poet", path=make_adapter("poet-v3"))
    assert third.lora_id > second.lora_id
    assert Adapter.objects.filter(name="poet", status="active").count() == 1


def test_unregistering_retires_the_adapter_and_requests_can_no_longer_name_it(
    make_adapter: Callable[..., Path], broadcasts: Broadcasts
) -> None:
    record = adapter_register(name="poet", path=make_adapter())
    adapter_unregister(name="poet")
    assert expert_resolve(name="poet") is None
    assert broadcasts[-1] == ("macaron_adapter_unload", {"lora_id": record.lora_id})
    with pytest.raises(NotFound):
        adapter_unregister(name="poet")
    with pytest.raises(AdapterRejected, match="built-in expert"):
        adapter_unregister(name="chat")


def test_the_built_in_experts_are_synced_once_and_again_when_their_weights_change(
    tmp_path: Path,
) -> None:
    root = tmp_path / "adapters"
    for name in EXPERTS:
        shutil.copytree(adapter_dir(name), root / name)
    first = adapters_sync_builtin(root=root)
    assert sorted(r.name for r in first) == sorted(EXPERTS)
    assert all(r.builtin for r in first)
    assert next(r for r in first if r.name == "ui").structured
    assert adapters_sync_builtin(root=root) == []  # idempotent
    weights = root / "coding" / "adapter_model.safetensors"
    weights.write_bytes(weights.read_bytes() + b" ")  # a retrained, installed adapter
    [coding] = adapters_sync_builtin(root=root)
    assert coding.name == "coding"
    assert Adapter.objects.filter(name="coding").count() == 2


def test_the_management_commands_register_and_unregister(
    make_adapter: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("register_adapter", "poet", str(make_adapter()), "--purpose", "poems")
    out = capsys.readouterr().out
    assert "Registered poet" in out and "text expert" in out
    with pytest.raises(CommandError, match="rank 64 is not served"):
        call_command("register_adapter", "big", str(make_adapter("big", config={"r": 64})))
    call_command("unregister_adapter", "poet")
    assert expert_resolve(name="poet") is None
    with pytest.raises(CommandError, match="No adapter named 'poet'"):
        call_command("unregister_adapter", "poet")


def test_the_api_can_name_a_registered_expert_at_once(
    make_adapter: Callable[..., Path], client: Client, fake_worker: FakeWorker
) -> None:
    record = adapter_register(name="poet", path=make_adapter())
    key = api_key_create(name="alice")[1]
    body = {
        "model": "macaron-tiny",
        "router": "poet",
        "messages": [{"role": "user", "content": "A haiku, please."}],
    }
    response = client.post(
        "/v1/chat/completions",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["router"] == "poet"
    assert answer["adapter_sha256"] == record.sha256
    assert answer["timings"]["adapter_load_ms"] == 1.0  # the fake engine "loaded" it
    assert "view_url" not in answer  # a text expert
    generation = Generation.objects.get()
    assert generation.adapter_sha256 == record.sha256


def test_the_expert_list_and_v1_models_show_manifest_summaries(
    make_adapter: Callable[..., Path], client: Client
) -> None:
    trained = {
        "trained": True,
        "dataset_examples": 640,
        "hyperparameters": {"steps": 300, "lr": 0.0002},
        "metrics": {"eval_loss": 1.25, "trained_tokens": 150000},
    }
    adapter_register(name="poet", path=make_adapter(**trained), purpose="a test poet")
    listed = {e["name"]: e for e in experts_list()}
    assert list(listed)[:4] == sorted(EXPERTS)
    poet = listed["poet"]
    assert (poet["trained"], poet["steps"], poet["dataset_examples"]) == (True, 300, 640)
    assert (poet["eval_loss"], poet["trained_tokens"]) == (1.25, 150000)
    assert poet["base"] == "b179c9523d0e"
    assert "lora_id" not in poet
    key = api_key_create(name="alice")[1]
    models = client.get("/v1/models", headers={"Authorization": f"Bearer {key}"}).json()
    tiny = next(m for m in models["data"] if m["id"] == "macaron-tiny")
    assert {e["name"]: e["steps"] for e in tiny["experts"]}["poet"] == 300
    designer = User.objects.create_user("designer")
    client.force_login(designer)  # the studio page is a signed-in owner's
    html = client.get(f"/p/{project_create(owner=designer).id}/").content.decode()
    # The page's script draws its experts table from this summary (static/studio/developer.js).
    embedded = re.search(
        r'<script id="studio-experts" type="application/json">(.*?)</script>', html
    )
    assert embedded is not None
    shown = {e["name"]: e for e in json.loads(embedded.group(1))}
    assert (shown["poet"]["trained"], shown["poet"]["steps"]) == (True, 300)
    assert shown["poet"]["purpose"] == "a test poet"


def test_the_admin_registers_through_the_same_validation(
    make_adapter: Callable[..., Path], client: Client, broadcasts: Broadcasts
) -> None:
    from django.contrib.auth.models import User

    User.objects.create_superuser("ops", "ops@example.com", "pw")
    client.login(username="ops", password="pw")
    bad = make_adapter("big", config={"r": 64})
    response = client.post("/admin/studio/adapter/add/", {"name": "big", "path": str(bad)})
    assert response.status_code == 200  # the form again, with the reason
    assert "rank 64 is not served" in response.content.decode()
    assert not Adapter.objects.exists()
    good = make_adapter()
    response = client.post(
        "/admin/studio/adapter/add/", {"name": "poet", "path": str(good), "purpose": "poems"}
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    record = Adapter.objects.get(name="poet")
    assert record.purpose == "poems"
    assert broadcasts[0][0] == "macaron_adapter_load"
    listing = client.get("/admin/studio/adapter/")
    assert "poet" in listing.content.decode()


def test_saving_a_registered_version_in_the_admin_writes_nothing(
    make_adapter: Callable[..., Path], client: Client, broadcasts: Broadcasts
) -> None:
    from django.contrib.auth.models import User

    User.objects.create_superuser("ops", "ops@example.com", "pw")
    client.login(username="ops", password="pw")
    record = adapter_register(name="poet", path=make_adapter(), purpose="poems")
    sent = len(broadcasts)
    response = client.post(f"/admin/studio/adapter/{record.pk}/change/", {})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert list(Adapter.objects.values_list("name", "status")) == [("poet", "active")]
    assert len(broadcasts) == sent


@pytest.mark.parametrize(
    ("manifest_says", "choice", "structured"),
    [(True, "", True), (False, "", False), (True, "no", False), (False, "yes", True)],
)
def test_the_admin_leaves_structured_to_the_manifest_unless_told(
    make_adapter: Callable[..., Path],
    client: Client,
    broadcasts: Broadcasts,
    manifest_says: bool,
    choice: str,
    structured: bool,
) -> None:
    from django.contrib.auth.models import User

    User.objects.create_superuser("ops", "ops@example.com", "pw")
    client.login(username="ops", password="pw")
    folder = make_adapter(structured=manifest_says)
    form = {"name": "screens", "path": str(folder), "purpose": "p", "structured": choice}
    response = client.post("/admin/studio/adapter/add/", form)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Adapter.objects.get(name="screens").structured is structured


@pytest.mark.usefixtures("real_channel_layer")
def test_a_registered_expert_is_text_unless_its_manifest_says_structured(
    make_adapter: Callable[..., Path], enqueued: list[str], spec_text: str
) -> None:
    import ui4a
    from studio.models import Project
    from studio.services.generations import generation_create
    from studio.worker.run import generation_run
    from tests.fakes import ScriptedFakeEngine

    adapter_register(name="poet", path=make_adapter(system_prompt="You write haiku."))
    designer = adapter_register(name="designer", path=make_adapter("designer", structured=True))
    project = Project.objects.create()

    poem = generation_create(prompt="the sea", expert="poet", project_id=project.id)
    engine = ScriptedFakeEngine("Waves fold into foam.")
    generation_run(generation_id=poem.id, engine=engine)
    [request] = engine.requests
    assert request.json_schema is None
    assert request.messages[0].content == "You write haiku."  # the manifest's system prompt

    view = generation_create(prompt="a login form", expert="designer", project_id=project.id)
    assert view.structured
    engine = ScriptedFakeEngine(spec_text)
    generation_run(generation_id=view.id, engine=engine)
    [request] = engine.requests
    assert request.json_schema == ui4a.json_schema(queries=False)  # no datasets here
    assert request.adapter is not None and request.adapter.sha256 == designer.sha256
    view.refresh_from_db()
    assert view.status == "done" and view.spec is not None  # rendered like the ui expert's
    assert view.adapter_sha256 == designer.sha256
