"""The engine of the model in the page: wllama's wasm with the build's SIMD kernels spliced in, its worker
as a file of this origin, its files pinned by digest."""
