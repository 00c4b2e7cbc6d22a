"""`manage.py train_expert NAME`: trains the expert's LoRA on the frozen base, resumably."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from inference.experts import EXPERTS, adapter_dir
from inference.offline.datasets.build import dataset_home, read_split, records_for
from inference.offline.datasets.edit_pairs import edit_mix
from inference.offline.training.focus import focus_mix
from inference.offline.training.trainer import TrainConfig, train
from inference.paths import data_home
from inference.settings import EngineSettings


class Command(BaseCommand):
    help = "Train an expert's LoRA adapter (into var/training/NAME/adapter unless --install)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", choices=sorted(EXPERTS))
        defaults = TrainConfig(expert="", base=Path(), out=Path(), work=Path())
        parser.add_argument("--steps", type=int, default=defaults.steps)
        parser.add_argument("--rank", type=int, default=defaults.rank)
        parser.add_argument("--lr", type=float, default=defaults.lr)
        parser.add_argument("--max-len", type=int, default=defaults.max_len)
        parser.add_argument("--batch", type=int, default=defaults.batch)
        parser.add_argument("--save-every", type=int, default=defaults.save_every)
        parser.add_argument("--eval-examples", type=int, default=defaults.eval_examples)
        parser.add_argument("--seed", type=int, default=defaults.seed)
        parser.add_argument(
            "--targets",
            default=",".join(defaults.targets),
            help="comma-separated module names the LoRA adapts",
        )
        parser.add_argument("--out", type=Path, default=None, help="the finished adapter folder")
        parser.add_argument(
            "--work", type=Path, default=None, help="checkpoints; var/training/NAME"
        )
        parser.add_argument("--base", type=Path, default=None, help="default: the engine's model")
        parser.add_argument("--data", type=Path, default=None, help="built datasets; var/datasets")
        parser.add_argument(
            "--init-adapter",
            type=Path,
            default=None,
            help="warm start from this adapter folder's weights (same rank and targets)",
        )
        parser.add_argument(
            "--focus",
            default=None,
            help="train on this kind of example plus a replay of the others (with --init-adapter)",
        )
        parser.add_argument("--focus-share", type=float, default=0.5)
        parser.add_argument(
            "--edit-pairs",
            action="store_true",
            help="ui: train retrieve-then-edit (a neighbour's prompt and spec, then the request)",
        )
        parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
        parser.add_argument("--install", action="store_true", help="write var/adapters/NAME")

    def handle(self, *args: Any, **o: Any) -> None:
        name = o["name"]
        work = o["work"] or data_home() / "training" / name
        installed = adapter_dir(name, EngineSettings.from_env().adapter_root)
        out = installed if o["install"] else (o["out"] or work / "adapter")
        if out.resolve() == installed.resolve() and not o["install"]:
            raise CommandError(f"{out} is the served adapter: pass --install to replace it")
        data = o["data"] or dataset_home()
        if (data / name / "train.jsonl").is_file():
            train_set, eval_set = read_split(name, "train", data), read_split(name, "eval", data)
        else:
            self.stdout.write(f"no built dataset under {data}; generating it in memory")
            train_set, eval_set = records_for(name, "train"), records_for(name, "eval")
        if o["focus"]:
            train_set = focus_mix(train_set, o["focus"], o["focus_share"], o["seed"])
            eval_set = focus_mix(eval_set, o["focus"], o["focus_share"], o["seed"])
        if o["edit_pairs"]:
            train_set, eval_set = edit_mix(train_set, eval_set, o["seed"])
        cfg = TrainConfig(
            expert=name,
            base=o["base"] or Path(EngineSettings.from_env().model),
            out=out,
            work=work,
            steps=o["steps"],
            rank=o["rank"],
            lr=o["lr"],
            max_len=o["max_len"],
            batch=o["batch"],
            save_every=o["save_every"],
            eval_examples=o["eval_examples"],
            seed=o["seed"],
            init_adapter=o["init_adapter"],
            focus=o["focus"] or "",
            focus_share=o["focus_share"],
            edit_pairs=o["edit_pairs"],
            targets=[t.strip() for t in o["targets"].split(",") if t.strip()],
        )
        train(cfg, train_set, eval_set, resume=o["resume"], log=self.stdout.write)
