"""Benchmarks: each one a command printing a table (see bench/run); a package so UI4A-Bench can
be run as `python -m bench.ui4a_bench`."""
