"""LoRA training of one expert on the frozen base, with plain torch on the CPU (or a GPU)."""
