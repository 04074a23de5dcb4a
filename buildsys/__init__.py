"""The commands behind `build.py`, one sub-package per job: `build` (dist/ and its server), `engine` (the
model engine's wasm), `bench` (the benchmarks) and `testing` (the gate and what the tests run against);
`common` holds the paths and helpers they share."""
