//! Tests of `clash::robot`: URDF and SRDF loading on the Panda and the UR5
//! of `data/robots`, forward kinematics against Denavit-Hartenberg chains
//! and hand-worked poses, errors on bad input, configurations files and
//! the sampler.

mod bad_srdf;
mod bad_urdf;
mod common;
mod configs;
mod dh_panda;
mod dh_ur5;
mod hand_worked;
mod meshes;
mod models;
mod packages;
mod srdf;
mod world;
