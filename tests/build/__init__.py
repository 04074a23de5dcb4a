"""The build, the engine's wasm, the benchmarks and the test gate (buildsys/), on CPython."""
