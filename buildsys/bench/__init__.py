"""`python build.py bench`: the runner (`runner`) and one `bench_*` module per figure."""
