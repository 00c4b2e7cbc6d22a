"""Engine hosting, experts and their adapters: the Mixture-of-LoRA side of Macaron.

Usable without Django: nothing here imports `studio` or Django models.
"""
