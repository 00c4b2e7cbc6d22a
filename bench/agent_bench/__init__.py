"""The agent bench: tasks with one checkable answer each, asked of the agent and coding experts
with the Python tool loop and without it (bench/agent.py runs it)."""
