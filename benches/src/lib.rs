//! Shared helpers for the clash benchmarks.
