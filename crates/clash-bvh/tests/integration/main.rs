//! clash-bvh's integration tests, one module per concern, compiled as one
//! test binary: the tree code each module instantiates (builds, queries,
//! loaders for every volume type and precision) is compiled once for all
//! of them instead of once per file. Run one module with
//! `cargo test -p clash-bvh --test integration <module>::`.

mod common;

mod collide_brute_force;
mod continuous;
mod convex_brute_force;
mod distance_brute_force;
mod fuzz_seeds_load;
mod invariants_at_scale;
mod queries_brute_force;
mod ray_wide;
mod regression_coordinate_range;
mod regression_exact_matrix_pose;
mod regression_far_mesh_distance;
mod regression_far_poses_and_parallel_edges;
mod regression_touching_thin_volumes;
mod regression_unbounded_queries;
mod save_load;
mod self_contacts_neighbours;
mod touching_sweep;
mod tree_properties;
mod tree_quality;
