"""`manage.py build_datasets`: writes every expert's train/eval JSONL and a manifest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from inference.offline.datasets.build import build_all, dataset_home


class Command(BaseCommand):
    help = "Build the experts' datasets (deterministic for a seed) under var/datasets/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, default=None, help="default: var/datasets")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        out = options["out"] or dataset_home()
        build_all(out, seed=options["seed"], log=self.stdout.write)
        self.stdout.write(f"datasets written to {out}")
