#![doc = include_str!("../README.md")]

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
    pool::init();
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
