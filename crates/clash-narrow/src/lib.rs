#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod cast;
pub mod closest;
pub mod moving;
pub mod overlap;
