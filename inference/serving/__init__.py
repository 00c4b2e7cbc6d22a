"""The serving runtime, loaded only in a worker process: the vLLM engine and its hosting, LoRA
residency and grouping, the prefix cache counter, and the prompts the experts are asked with."""
