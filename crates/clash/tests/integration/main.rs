//! The integration tests of the facade, one module per concern, compiled
//! as one test binary: the library code the modules instantiate is
//! compiled and linked once for all of them instead of once per file.
//! Run one module with `cargo test -p clash-collision --test integration <module>::`.

mod conversions;
mod fresh_project;
mod fuzz_seeds_mesh_file;
mod mesh_file;
mod mesh_file_messages;
mod world;
mod world_mixed;
