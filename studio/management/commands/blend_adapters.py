"""`manage.py blend_adapters START TUNED OUT --weight W`: a fine-tuned adapter pulled back
towards its warm start, at the adapters' rank (inference/offline/training/blend.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from inference.offline.training.blend import blend_adapters


class Command(BaseCommand):
    help = "Blend two adapter folders of one base into OUT: (1 - W) * START + W * TUNED."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("start", type=Path)
        parser.add_argument("tuned", type=Path)
        parser.add_argument("out", type=Path)
        parser.add_argument("--weight", type=float, default=0.5, help="TUNED's share, 0 to 1")

    def handle(self, *args: Any, **o: Any) -> None:
        if o["out"].exists():
            raise CommandError(f"{o['out']} exists: blend into a new folder")
        try:
            blend_adapters(o["start"], o["tuned"], o["out"], o["weight"])
        except (ValueError, FileNotFoundError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"blended adapter written to {o['out']}")
