//! overlap tests (being written).
