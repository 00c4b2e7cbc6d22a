"""Data-Bench: dashboards over a designer's own files, judged by their numbers.

Each prompt comes with files (written by `files.py`, in domains and column names of their own,
not the ui dataset generator's) that are uploaded into a project first; the ui expert sees
their profiles and answers with queries. A screen meets an expectation when one of its charts
(or tables) shows exactly the aggregate `expect.py` computes from the file independently, with
the csv module and its own bucketing, never through `ui4a.queries`.

    .venv/bin/python -m bench.data_bench [--variants retrieval,base,trained] [--out DIR]
"""
