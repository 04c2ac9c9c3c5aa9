//! Contact manifolds: up to four points where two shapes touch.

pub(crate) mod clip;
