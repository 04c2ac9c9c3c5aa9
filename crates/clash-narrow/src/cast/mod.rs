//! cast tests (being written).
