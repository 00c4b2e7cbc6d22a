"""Registry benchmark: listing and looking up adapters with 10,000 registered, in the registry
(database rows, indexed) against what a user would otherwise do: one folder per adapter with
its manifest on disk, scanned and read.

    .venv/bin/python bench/registry.py [--entries 10000] [--json bench/results/registry.json]

Both sides hold the same 10,000 adapters (manifest and config only; the weights do not matter
to a lookup). The registry side calls the code the product calls: `expert_resolve` on every
request, `experts_list` for /v1/models and the studio. The folder side gets its best case: the
page cache is warm and each manifest already names its weights' sha256. The database is a
throwaway SQLite file, the default deployment's engine. Medians over repeated runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MANIFEST = "macaron-manifest.json"


def manifest_for(index: int) -> dict[str, Any]:
    return {
        "expert": f"expert-{index:05d}",
        "trained": True,
        "base_sha256": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        "dataset_examples": 500 + index % 700,
        "rank": 16,
        "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj"],
        "hyperparameters": {"steps": 300, "lr": 2e-4, "max_len": 768, "batch": 4},
        "metrics": {"eval_loss": 1.0 + index % 100 / 100, "trained_tokens": 100000 + index},
        "sha256": hashlib.sha256(f"weights {index}".encode()).hexdigest(),
    }


def build_folders(root: Path, entries: int) -> None:
    for index in range(entries):
        folder = root / f"expert-{index:05d}"
        folder.mkdir(parents=True)
        (folder / MANIFEST).write_text(json.dumps(manifest_for(index)))
        (folder / "adapter_config.json").write_text(json.dumps({"peft_type": "LORA", "r": 16}))


def build_rows(entries: int, adapter_root: Path) -> None:
    from studio.models import Adapter

    rows = []
    for index in range(entries):
        manifest = manifest_for(index)
        rows.append(
            Adapter(
                name=manifest["expert"],
                purpose="a benchmark expert",
                base_model="bench",
                base_sha256=manifest["base_sha256"],
                path=str(adapter_root / manifest["expert"]),
                sha256=manifest["sha256"],
                rank=16,
                target_modules=manifest["target_modules"],
                manifest=manifest,
                lora_id=index + 1,
            )
        )
    Adapter.objects.bulk_create(rows, batch_size=1000)


# The folder-based alternative: what a registry-less deployment would write.
def folder_lookup(root: Path, name: str) -> dict[str, Any]:
    folder = root / name
    manifest: dict[str, Any] = json.loads((folder / MANIFEST).read_text())
    manifest["config"] = json.loads((folder / "adapter_config.json").read_text())
    return manifest


def folder_list(root: Path) -> list[dict[str, Any]]:
    return [json.loads((d / MANIFEST).read_text()) for d in sorted(root.iterdir())]


def folder_page(root: Path, size: int) -> list[dict[str, Any]]:
    return [json.loads((root / n / MANIFEST).read_text()) for n in sorted(os.listdir(root))[:size]]


def folder_by_sha(root: Path, sha: str) -> str | None:
    for folder in root.iterdir():
        if json.loads((folder / MANIFEST).read_text())["sha256"] == sha:
            return folder.name
    return None


def median_ms(run: Callable[[], object], repeats: int) -> float:
    run()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="macaron-registry-bench-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch / 'registry.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from studio.models import Adapter
    from studio.selectors import adapters_active, expert_resolve, experts_list

    call_command("migrate", verbosity=0)
    root = scratch / "adapters"
    build_folders(root, args.entries)
    build_rows(args.entries, root)
    assert Adapter.objects.count() == args.entries

    rng = random.Random(0)
    names = [f"expert-{rng.randrange(args.entries):05d}" for _ in range(200)]
    shas = [manifest_for(rng.randrange(args.entries))["sha256"] for _ in range(5)]
    lookups = iter(names * 1000)

    def registry_page() -> list[Any]:
        return list(adapters_active().values("name", "sha256", "manifest")[:50])

    results = {
        "lookup by name (per request)": (
            median_ms(lambda: expert_resolve(name=next(lookups)), 200),
            median_ms(lambda: folder_lookup(root, next(lookups)), 200),
        ),
        "lookup by weights sha256": (
            median_ms(lambda: Adapter.objects.filter(sha256=rng.choice(shas)).first(), 50),
            median_ms(lambda: folder_by_sha(root, rng.choice(shas)), 5),
        ),
        "first page of 50, by name": (
            median_ms(registry_page, 50),
            median_ms(lambda: folder_page(root, 50), 20),
        ),
        f"list all {args.entries} with summaries": (
            median_ms(experts_list, 5),
            median_ms(lambda: folder_list(root), 5),
        ),
    }
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"adapter registry with {args.entries} entries (SQLite) vs one folder per adapter")
    print(f"{'operation':36}{'registry ms':>13}{'folders ms':>13}{'folders/registry':>18}")
    for op, (ours, theirs) in results.items():
        print(f"{op:36}{ours:>13.3f}{theirs:>13.3f}{theirs / ours:>17.1f}x")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {op: {"registry_ms": a, "folders_ms": b} for op, (a, b) in results.items()}
        args.json.write_text(json.dumps({"entries": args.entries, **payload}, indent=2))


if __name__ == "__main__":
    main()
