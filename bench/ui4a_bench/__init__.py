"""UI4A-Bench: the ui expert's dev prompts through the real stack, judged in Chromium.

    .venv/bin/python -m bench.ui4a_bench [--limit N] [--variants base,trained,unconstrained]
        [--max-tokens 700] [--concurrency 8] [--out bench/results/ui4a_bench]

See __main__.py for the run, devset.jsonl for the prompts and requirements.py for their
language; interactions.py generates the interaction checks from each spec.
"""
