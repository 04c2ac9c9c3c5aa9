//! moving tests (being written).
