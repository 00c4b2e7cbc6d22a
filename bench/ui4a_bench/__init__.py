"""UI4A-Bench: hand-written dev prompts answered by no-model baselines and by the ui expert on
the real stack, judged in Chromium.

    .venv/bin/python -m bench.ui4a_bench [--per-kind N] [--limit N] [--ids a,b]
        [--variants retrieval,fixed,base,trained] [--max-tokens 1024] [--concurrency 8]
        [--derived] [--out bench/results/ui4a_bench]

See __main__.py for the run, devset.jsonl for the prompts, requirements.py and scripts.py for
their languages, baselines.py for the no-model variants; interactions.py generates the older
checks from each spec (reported apart, with --derived).
"""
