//! closest tests (being written).
