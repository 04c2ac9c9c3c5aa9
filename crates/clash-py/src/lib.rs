//! # clash-py: the `clash` Python package
//!
//! PyO3 bindings of the clash stack, imported from Python as
//! `clash._clash` and re-exported by the pure-Python package `clash`
//! (`python/clash/`): meshes from numpy arrays or OBJ/STL/PLY files, trees of
//! every volume type in both precisions (`Tree.build`, `save`/`load`,
//! `to_bytes`/`from_bytes`, pickling), convex shapes (`clash.Shape`), batch
//! queries over arrays of poses, points and rays that release the GIL and
//! run on a rayon pool, a world of mixed objects (`clash.World`) and robots
//! (`clash.Robot`, `clash.RobotWorld`) with batches of configurations.
//!
//! | module | holds |
//! | --- | --- |
//! | `kind` | the sixteen tree types, their names, dispatch to generic code |
//! | `error` | what Python sees for each failure (`ValueError`, `OSError`, `RuntimeError`) |
//! | `input` | pose, point and ray arrays checked and converted (plain Rust) |
//! | `arrays` | numpy arrays in (copied before the GIL is released) and out |
//! | `pool` | the thread pools of `threads=` |
//! | `mesh` | `clash.Mesh` and the mesh sources of `Tree.build` |
//! | `tree` | `clash.Tree` |
//! | `queries` | `collide`, `distance`, `contact`, `raycast`, `closest_points`, `signed_distance` |
//! | `shape` | `clash.Shape`: convex shapes by their constructors |
//! | `convex` | the pairwise queries with a shape on one side or both |
//! | `world` | `clash.World`: its volume types, poses and handles, answers |
//! | `robot` | `clash.Robot` and `clash.RobotWorld` |
//! | `shards` | whole-batch input checks for `clash.ray`, which splits batches |
//!
//! Wheels are built by maturin (`crates/clash-py/pyproject.toml`, one abi3
//! wheel for Python 3.9 and later); `cargo test` runs the unit tests of the
//! plain-Rust parts, and `crates/clash-py/tests/` holds the Python tests.

mod arrays;
mod convex;
pub mod error;
pub mod input;
pub mod kind;
mod mesh;
mod pool;
mod queries;
mod robot;
mod shape;
mod shards;
mod tree;
mod world;

use pyo3::prelude::*;

/// The native part of the `clash` package (import `clash`, not this).
#[pymodule(name = "_clash")]
fn clash_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<mesh::Mesh>()?;
    m.add_class::<tree::Tree>()?;
    m.add_class::<shape::PyShape>()?;
    m.add_class::<world::World>()?;
    m.add_class::<robot::Robot>()?;
    m.add_class::<robot::RobotWorld>()?;
    m.add_function(wrap_pyfunction!(queries::collide, m)?)?;
    m.add_function(wrap_pyfunction!(queries::distance, m)?)?;
    m.add_function(wrap_pyfunction!(queries::contact, m)?)?;
    m.add_function(wrap_pyfunction!(queries::raycast, m)?)?;
    m.add_function(wrap_pyfunction!(queries::closest_points, m)?)?;
    m.add_function(wrap_pyfunction!(queries::signed_distance, m)?)?;
    m.add_function(wrap_pyfunction!(shards::_check_poses, m)?)?;
    m.add_function(wrap_pyfunction!(shards::_check_points, m)?)?;
    m.add_function(wrap_pyfunction!(shards::_check_rays, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
