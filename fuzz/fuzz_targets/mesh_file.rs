//! Arbitrary bytes to the mesh file loaders (the first byte picks OBJ, STL
//! or PLY): never a panic, and whatever loads is a valid mesh.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/clash/tests/integration/fuzz_check/mesh_file.rs"]
mod mesh_file;

fuzz_target!(|data: &[u8]| {
    let _ = mesh_file::check(data);
});
