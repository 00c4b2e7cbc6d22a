"""A project's datasets over HTTP: upload, paste, list, preview, correct a type, rename,
delete; only for the project's owner, and nothing stored when a request is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from studio.models import Dataset, DatasetVersion, Project
from studio.services.datasets import (
    dataset_upload,
    project_profiles_text,
    project_prompt_with_tables,
    project_tables,
)
from studio.stored_tables.storage import ROWS_CACHE
from ui4a.tables import prompt_with_tables

pytestmark = pytest.mark.django_db

SALES = "date,region,revenue\n" + "".join(
    f"2025-03-{day:02},{'North' if day % 3 else 'South'},{day * 10}\n" for day in range(1, 29)
)


@pytest.fixture
def bob() -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def project(alice: User) -> Project:
    return Project.objects.create(owner=alice, name="Bike shop")


@pytest.fixture
def signed_in(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def upload(
    client: Client, project: Project, filename: str, data: str | bytes, **fields: str
) -> Any:
    content = data.encode() if isinstance(data, str) else data
    return client.post(
        f"/p/{project.id}/datasets/upload",
        {"file": SimpleUploadedFile(filename, content), **fields},
    )


def post(client: Client, url: str, body: object) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def versions_of(project: Project) -> list[tuple[str, int, int]]:
    return sorted(
        DatasetVersion.objects.filter(dataset__project=project).values_list(
            "dataset__name", "number", "row_count"
        )
    )


def test_it_uploads_a_csv_and_lists_it_with_its_columns(
    signed_in: Client, project: Project
) -> None:
    response = upload(signed_in, project, "Sales March.csv", SALES)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["dataset"] == "sales_march"
    [listed] = body["datasets"]
    current = listed["current"]
    assert (listed["name"], current["number"], current["row_count"]) == ("sales_march", 1, 28)
    assert [(c["name"], c["type"]) for c in current["columns"]] == [
        ("date", "date"),
        ("region", "category"),
        ("revenue", "number"),
    ]
    assert current["source_name"] == "Sales March.csv" and current["author"] == "alice"
    assert signed_in.get(f"/p/{project.id}/datasets").json()["datasets"] == body["datasets"]


def test_re_uploading_makes_a_new_version_of_the_same_dataset(
    signed_in: Client, project: Project
) -> None:
    upload(signed_in, project, "sales.csv", SALES)
    assert (
        upload(signed_in, project, "sales.csv", "date,revenue\n2025-04-01,5\n").status_code == 200
    )
    renamed_file = upload(signed_in, project, "april.csv", "x\n1\n", name="sales")
    assert renamed_file.json()["dataset"] == "sales"
    assert versions_of(project) == [("sales", 1, 28), ("sales", 2, 1), ("sales", 3, 1)]
    assert renamed_file.json()["version"] == 3
    assert renamed_file.json()["changes"] == {
        "added": ["x"],
        "removed": ["date", "revenue"],
        "retyped": [],
    }
    [listed] = renamed_file.json()["datasets"]
    assert [v["number"] for v in listed["versions"]] == [3, 2, 1]


def test_a_bad_file_is_refused_with_its_row_and_earlier_data_is_untouched(
    signed_in: Client, project: Project
) -> None:
    upload(signed_in, project, "sales.csv", SALES)
    before = versions_of(project)
    ragged = upload(signed_in, project, "sales.csv", "a,b,c,d\n1,2,3,4\n" * 1 + "1,2,3,4,5\n" * 20)
    assert ragged.status_code == 400
    assert ragged.json()["error"] == {
        "code": "ragged_row",
        "message": "Row 3 has 5 cells, the header has 4. Every row needs one cell per column "
        "(leave a cell empty rather than out; quote cells that contain the separator).",
    }
    garbage = upload(signed_in, project, "other.csv", bytes(range(256)) * 64)
    assert garbage.status_code == 400 and "binary data" in garbage.json()["error"]["message"]
    injected = upload(signed_in, project, "sales.csv", '"=HYPERLINK(""http://x"")"\n<script>\n')
    assert injected.status_code == 200  # a header and cells are data: stored, never run
    assert versions_of(project)[: len(before)] == before
    assert Dataset.objects.filter(project=project).count() == 1


def test_a_project_holds_a_bounded_number_of_datasets(
    signed_in: Client, project: Project, settings: Any
) -> None:
    settings.MACARON_DATASETS_PER_PROJECT = 2
    assert upload(signed_in, project, "a.csv", "x\n1\n").status_code == 200
    assert upload(signed_in, project, "b.csv", "x\n1\n").status_code == 200
    third = upload(signed_in, project, "c.csv", "x\n1\n")
    assert third.status_code == 413 and third.json()["error"]["code"] == "too_many_datasets"
    assert upload(signed_in, project, "a.csv", "x\n2\n").status_code == 200  # a new version
    assert versions_of(project) == [("a", 1, 1), ("a", 2, 1), ("b", 1, 1)]


def test_a_write_that_fails_halfway_leaves_no_dataset_behind(
    signed_in: Client, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(DatasetVersion.objects, "create", broken)
    with pytest.raises(RuntimeError):
        dataset_upload(project=project, filename="new.csv", data=SALES.encode())
    assert not Dataset.objects.filter(project=project).exists()


def test_an_upload_over_the_limit_is_refused_by_its_declared_size(
    signed_in: Client, project: Project, settings: Any
) -> None:
    settings.MACARON_DATASET_MAX_BYTES = 1000
    response = upload(signed_in, project, "big.csv", "n\n" + "1\n" * 40_000)
    assert response.status_code == 413
    assert response.json()["error"]["message"].startswith("Uploads are limited to 1,000 bytes")
    assert not Dataset.objects.exists()


def test_an_upload_over_the_limit_is_cut_off_while_it_is_received(
    signed_in: Client, project: Project, settings: Any
) -> None:
    settings.MACARON_DATASET_MAX_BYTES = 1000  # the declared size passes (within the slack)
    response = upload(signed_in, project, "big.csv", "n\n" + "1\n" * 1000)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "file_too_large"
    assert not Dataset.objects.exists()


def test_a_pasted_table_becomes_a_dataset(signed_in: Client, project: Project) -> None:
    response = post(
        signed_in,
        f"/p/{project.id}/datasets/paste",
        {"text": "Product\tUnits\nBell\t3\nLamp\t12\n", "name": "stock"},
    )
    assert response.status_code == 200, response.content
    assert versions_of(project) == [("stock", 1, 2)]
    empty = post(signed_in, f"/p/{project.id}/datasets/paste", {"text": "  "})
    assert empty.status_code == 400 and empty.json()["error"]["code"] == "empty_file"
    bad_name = post(
        signed_in, f"/p/{project.id}/datasets/paste", {"text": "a\n1\n", "name": "My Data"}
    )
    assert 'for example "my_data"' in bad_name.json()["error"]["message"]
    too_big = post(signed_in, f"/p/{project.id}/datasets/paste", {"text": "a\n" + "1\n" * 600_000})
    assert too_big.status_code == 413
    assert too_big.json()["error"]["message"].startswith(
        "The pasted table is 1.1 MB; the limit is 1 MB"
    )
    huge = post(signed_in, f"/p/{project.id}/datasets/paste", {"text": "a\n" + "1\n" * 2_000_000})
    assert (
        huge.status_code == 413
        and "upload a larger one as a file" in huge.json()["error"]["message"]
    )
    assert versions_of(project) == [("stock", 1, 2)]


def test_the_preview_shows_the_first_50_rows(signed_in: Client, project: Project) -> None:
    upload(signed_in, project, "big.csv", "n,sq\n" + "".join(f"{i},{i * i}\n" for i in range(120)))
    preview = signed_in.get(f"/p/{project.id}/datasets/big/rows").json()
    assert preview["version"]["row_count"] == 120
    assert len(preview["rows"]) == 50 and preview["rows"][7] == [7, 49]
    assert signed_in.get(f"/p/{project.id}/datasets/nope/rows").status_code == 404


def test_correcting_a_type_makes_a_version_or_names_the_cell_that_does_not_convert(
    signed_in: Client, project: Project
) -> None:
    upload(signed_in, project, "codes.csv", "code,amount\n001,5\n002,x\n003,7\n")
    url = f"/p/{project.id}/datasets/codes/type"
    to_number = post(signed_in, url, {"column": "code", "type": "number"})
    assert to_number.status_code == 200, to_number.content
    assert to_number.json()["preview"]["rows"][0] == [1, "5"]
    assert versions_of(project) == [("codes", 1, 3), ("codes", 2, 3)]
    refused = post(signed_in, url, {"column": "amount", "type": "number"})
    assert refused.status_code == 400
    assert refused.json()["error"]["message"].startswith(
        'Row 3, column "amount": "x" is not a number'
    )
    assert post(signed_in, url, {"column": "nope", "type": "text"}).status_code == 400
    assert post(signed_in, url, {"column": "code", "type": "money"}).status_code == 400
    assert len(versions_of(project)) == 2


def test_rename_and_delete(signed_in: Client, project: Project) -> None:
    upload(signed_in, project, "a.csv", "x\n1\n")
    upload(signed_in, project, "b.csv", "x\n2\n")
    taken = post(signed_in, f"/p/{project.id}/datasets/a/rename", {"name": "b"})
    assert taken.status_code == 400 and taken.json()["error"]["code"] == "name_taken"
    renamed = post(signed_in, f"/p/{project.id}/datasets/a/rename", {"name": "orders"})
    assert [d["name"] for d in renamed.json()["datasets"]] == ["b", "orders"]
    deleted = post(signed_in, f"/p/{project.id}/datasets/b/delete", {})
    assert [d["name"] for d in deleted.json()["datasets"]] == ["orders"]
    project.delete()
    assert not DatasetVersion.objects.exists()


def test_another_users_project_is_a_404_and_a_visitor_gets_a_401(
    client: Client, project: Project, bob: User
) -> None:
    dataset_upload(project=project, filename="sales.csv", data=SALES.encode())
    base = f"/p/{project.id}/datasets"
    assert client.get(base).status_code == 401
    assert upload(client, project, "x.csv", "a\n1\n").status_code == 401
    client.force_login(bob)
    assert client.get(base).status_code == 404
    assert client.get(f"{base}/sales/rows").status_code == 404
    assert upload(client, project, "x.csv", "a\n1\n").status_code == 404
    assert post(client, f"{base}/paste", {"text": "a\n1\n"}).status_code == 404
    assert (
        post(client, f"{base}/sales/type", {"column": "revenue", "type": "text"}).status_code == 404
    )
    assert post(client, f"{base}/sales/rename", {"name": "mine"}).status_code == 404
    assert post(client, f"{base}/sales/delete", {}).status_code == 404
    assert versions_of(project) == [("sales", 1, 28)]


def test_uploads_check_csrf(alice: User, project: Project) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert upload(client, project, "x.csv", "a\n1\n").status_code == 403
    assert not Dataset.objects.exists()


def test_project_tables_hold_each_current_version_and_profiles_match_the_prompt_format(
    project: Project,
) -> None:
    dataset_upload(project=project, filename="sales.csv", data=SALES.encode())
    dataset_upload(project=project, filename="sales.csv", data=b"date,revenue\n2025-04-01,5\n")
    dataset_upload(project=project, filename="stores.json", data=b'[{"city": "Oslo"}]')
    ROWS_CACHE.clear()
    tables = project_tables(project)
    assert sorted(tables) == ["sales", "stores"]
    sales = tables["sales"]
    assert [(c.name, c.type) for c in sales.columns] == [("date", "date"), ("revenue", "number")]
    assert list(sales.rows) == [{"date": "2025-04-01", "revenue": 5}]
    prompt = "a dashboard of revenue by month"
    expected = prompt_with_tables(prompt, [tables["sales"], tables["stores"]])
    assert project_prompt_with_tables(project, prompt) == expected
    assert project_profiles_text(project).startswith('Dataset "sales" (1 rows):')
    empty = Project.objects.create(name="empty")
    assert project_prompt_with_tables(empty, prompt) == prompt


def test_a_big_table_is_decoded_once_per_process_and_only_when_read(
    project: Project, django_assert_num_queries: Any
) -> None:
    rows = "".join(f"2025-01-{1 + i % 28:02},{i}\n" for i in range(20_000))
    dataset_upload(project=project, filename="big.csv", data=("day,n\n" + rows).encode())
    ROWS_CACHE.clear()
    with django_assert_num_queries(1):  # the current versions; rows wait until read
        table = project_tables(project)["big"]
        assert len(table.rows) == 20_000
    with django_assert_num_queries(1):  # the rows, once
        assert table.rows[0] == {"day": "2025-01-01", "n": 0}
        assert sum(row["n"] for row in table.rows) == sum(range(20_000))
    with django_assert_num_queries(1):  # another render: the rows come from the cache
        assert project_tables(project)["big"].rows[-1]["n"] == 19_999


def test_the_admin_lists_datasets_and_their_versions_without_rows(
    client: Client, project: Project
) -> None:
    dataset_upload(project=project, filename="sales.csv", data=SALES.encode())
    client.force_login(User.objects.create_superuser("root"))
    listing = client.get("/admin/studio/dataset/")
    assert listing.status_code == 200 and b"sales" in listing.content
    dataset = Dataset.objects.get()
    page = client.get(f"/admin/studio/dataset/{dataset.pk}/change/")
    assert page.status_code == 200 and b"uploaded sales.csv (comma-separated)" in page.content
