"""Datasets for the four experts, built by code: deterministic for a seed, split train/eval."""
