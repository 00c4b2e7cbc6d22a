"""Data-Bench, one command: each prompt's files uploaded into a fresh project, the prompt answered
by each variant, the answer's queries resolved against the project's data, and every expected
number looked for in its charts and tables. Prints the table; writes summary.json,
per_prompt.json (one line per prompt and variant) and, for the model variants, tail_waits.json
(how long each staged tail waited for its per-request grammar and a place in the batch) into
--out.

Variants: `retrieval` (no model: the nearest ui training example to the user turn the expert
would see, profiles included, and its spec), and on the real stack `base` and `trained`
(bench/variants.py), each asked through the studio's own path.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import ui4a
from bench.data_bench import check, expect, files, prompts
from bench.ui4a_bench.baselines import Retriever, training_examples
from bench.ui4a_bench.generate import (
    Generated,
    product_max_tokens,
    read_back,
    running_stack,
    wait_finished,
)
from bench.ui4a_bench.tail_waits import write_tail_waits
from ui4a.queries import is_query
from ui4a.tables import Column, Table, prompt_with_tables

ORDER = ("retrieval", "base", "trained")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.data_bench", description=__doc__)
    parser.add_argument("--variants", default=",".join(ORDER), help=f"comma-separated, of {ORDER}")
    parser.add_argument("--ids", default="", help="only these prompt ids (comma-separated)")
    parser.add_argument(
        "--max-tokens", type=int, help="per screen (default: the product's, MACARON_UI_MAX_TOKENS)"
    )
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--out", type=Path, default=Path("bench/results/data_bench"))
    args = parser.parse_args(argv)
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = set(args.variants) - set(ORDER)
    if unknown or not args.variants:
        parser.error(f"--variants takes some of {ORDER}, not {sorted(unknown)}")
    return args


def project_with_files(item: prompts.DataPrompt) -> Any:
    """A fresh project holding the prompt's files, uploaded the studio's way."""
    from studio.services.datasets.writes import dataset_upload
    from studio.services.projects import project_create

    project = project_create()
    for name in item.files:
        dataset_upload(project=project, filename=name, data=files.file_bytes(name))
    return project


def tables_of(item: prompts.DataPrompt) -> dict[str, Table]:
    """The prompt's files read as an upload reads them, without a database: what the project
    holds, for the baseline and for judging every variant alike."""
    from studio.services.datasets.limits import dataset_limits
    from studio.services.datasets.names import dataset_name_from_file
    from studio.services.datasets.parse import parse_upload

    out = {}
    for name in item.files:
        parsed = parse_upload(files.file_bytes(name), name, limits=dataset_limits())
        columns = tuple(Column(c["name"], c["type"]) for c in parsed.columns)
        rows = [dict(zip([c.name for c in columns], row, strict=True)) for row in parsed.rows]
        table = Table(dataset_name_from_file(name), columns, rows)
        out[table.name] = table
    return out


def judged(run: Generated, item: prompts.DataPrompt) -> dict[str, Any]:
    resolved, unread = None, []
    if run.spec is not None:
        # The product's path for every variant alike: names grounded, then queries resolved
        # (a model's spec was grounded when stored; doing it again changes nothing).
        tables = tables_of(item)
        result = ui4a.resolve_data(ui4a.ground_names(run.spec, tables).spec, tables)
        resolved = result.spec
        unread = sorted(
            {dataset_of(p.path) for p in result.problems if p.path.startswith("/data/")}
        )
    rows = expect.read_rows(item.asked_file, files.file_bytes(item.asked_file))
    verdicts = check.judge(resolved, list(item.expects), rows)
    return {
        "prompt_id": item.id,
        "variant": run.variant,
        "met": sum(verdicts),
        "expected": len(verdicts),
        "verdicts": verdicts,
        "queries": sum(map(is_query, ((run.spec or {}).get("data") or {}).values())),
        # The datasets whose query has a problem (a column the file lacks, a sort by no output
        # column): each renders empty with a note.
        "queries_with_problems": unread,
        "valid": run.valid,
        "tokens": run.tokens,
        "seconds": run.seconds,
        "error": run.error,
        "spec": run.spec,
    }


def dataset_of(pointer: str) -> str:
    """ "/data/monthly/group" -> "monthly"."""
    return pointer.split("/")[2]


def retrieval_runs(items: list[prompts.DataPrompt]) -> list[Generated]:
    retriever = Retriever(training_examples())
    out = []
    for item in items:
        started = time.perf_counter()
        turn = prompt_with_tables(item.prompt, list(tables_of(item).values()))
        example, score = retriever.nearest(turn)
        repaired = ui4a.repair(json.loads(example.text))
        out.append(
            Generated(
                item.id,
                "retrieval",
                generation_id=f"nearest (cosine {score:.2f})",
                status="done",
                finish_reason="stop",
                text=example.text,
                spec=repaired.spec,
                problems=[p.as_dict() for p in repaired.problems],
                seconds=round(time.perf_counter() - started, 4),
            )
        )
    return out


def model_runs(
    items: list[prompts.DataPrompt], variants: list[str], args: argparse.Namespace
) -> list[Generated]:
    """The model variants on the real stack, each in its own project holding the files."""
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-data-bench-"))
    with running_stack(
        run_dir, concurrency=args.concurrency, max_tokens=args.max_tokens, log=log
    ) as stack:
        from bench.variant_runs import variant_generation_create

        runs = []
        for item in items:
            for variant in variants:
                project = project_with_files(item)
                generation = variant_generation_create(
                    prompt=item.prompt, expert="ui", project_id=project.id, variant=variant
                )
                runs.append(Generated(item.id, variant, str(generation.id)))
        timeout = 600 + 300 * len(runs) / args.concurrency
        wait_finished(stack, [r.generation_id for r in runs], log=log, timeout_s=timeout)
        for run in runs:
            read_back(run)
    # The tails' grammars name the project's columns: their compile is per request.
    args.out.mkdir(parents=True, exist_ok=True)
    write_tail_waits(run_dir / "worker.log", args.out / "tail_waits.json")
    return runs


def summarize(rows: list[dict[str, Any]], variants: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for variant in variants:
        mine = [r for r in rows if r["variant"] == variant]
        seconds = [r["seconds"] for r in mine if r["seconds"] is not None]
        out[variant] = {
            "prompts": len(mine),
            "expectations_met": round(
                100 * sum(r["met"] for r in mine) / max(1, sum(r["expected"] for r in mine)), 1
            ),
            "screens_all_met": sum(r["met"] == r["expected"] for r in mine),
            "valid": sum(bool(r["valid"]) for r in mine),
            "queries": sum(r["queries"] for r in mine),
            "queries_with_problems": sum(len(r["queries_with_problems"]) for r in mine),
            "median_seconds": round(statistics.median(seconds), 2) if seconds else None,
        }
    return out


def table(summary: dict[str, Any]) -> str:
    lines = [
        "variant     expectations met  screens all met  valid  queries with a problem  median s"
    ]
    for variant, s in summary.items():
        lines.append(
            f"{variant:<11} {s['expectations_met']:>15.1f}%  {s['screens_all_met']:>7}/"
            f"{s['prompts']:<7}  {s['valid']:>5}  {s['queries_with_problems']:>8} of "
            f"{s['queries']:<12} {s['median_seconds']}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    items = prompts.load()
    if args.ids:
        wanted = set(args.ids.split(","))
        items = [p for p in items if p.id in wanted]
    variants = [v for v in ORDER if v in args.variants]
    models = [v for v in variants if v != "retrieval"]
    started = time.monotonic()
    runs = model_runs(items, models, args) if models else []
    if not models:  # the upload readers read their limits from the settings; no database
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
        import django

        django.setup()
    if "retrieval" in variants:
        runs += retrieval_runs(items)
    by_id = {p.id: p for p in items}
    rows = [judged(run, by_id[run.prompt_id]) for run in runs]
    summary = {
        "variants": summarize(rows, variants),
        "config": {
            "prompts": len(items),
            "max_tokens": args.max_tokens or product_max_tokens(),
            "wall_s": round(time.monotonic() - started, 1),
        },
    }
    print(table(summary["variants"]))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    (args.out / "per_prompt.json").write_text("[\n" + ",\n".join(lines) + "\n]\n")
    log(f"wrote summary.json, per_prompt.json (and for a model, tail_waits.json) in {args.out}")


if __name__ == "__main__":
    main()
