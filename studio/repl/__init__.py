"""REPL sessions: persistent, sandboxed Jupyter kernels (sandbox.py says where they run)."""
