//! Benchmarks live in `benches/benches/`; this crate only hosts them.
