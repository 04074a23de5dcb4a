"""The model's hands: one registry of tools, each defined once and offered in every dialect."""
