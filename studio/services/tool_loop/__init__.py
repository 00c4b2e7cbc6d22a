"""The tool loop of the API: tools shown to the model, its calls read back, `python` calls run
in the caller's REPL session and their output fed back, until the model answers."""
