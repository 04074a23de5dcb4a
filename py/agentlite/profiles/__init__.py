"""What differs per kind of model: the profiles a model link carries, and the rules that choose one."""
