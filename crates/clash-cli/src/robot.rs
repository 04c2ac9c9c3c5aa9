//! `clash robot`: a robot's self-collision or minimum distance at every
//! joint vector of a configurations file, one JSON line per configuration.

use crate::args::RobotArgs;
use crate::error::{CliError, CliResult};
use crate::output::JsonLines;
use crate::threads::with_threads;
use clash::WorldQuery;
use clash::robot::{LimitCheck, PackageMap, Robot, RobotWorld, RobotWorldOptions, Srdf};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

#[derive(Serialize)]
struct CollideLine<'a> {
    config: usize,
    collides: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    links: Option<[&'a str; 2]>,
}

#[derive(Serialize)]
struct DistanceLine<'a> {
    config: usize,
    distance: f64,
    links: [&'a str; 2],
    point_a: [f64; 3],
    point_b: [f64; 3],
}

/// The package map of the `--package NAME=DIR` arguments, then
/// `ROS_PACKAGE_PATH`'s packages.
fn package_map(packages: &[String]) -> CliResult<PackageMap> {
    let mut map = PackageMap::from_env();
    for p in packages {
        let (name, dir) = p
            .split_once('=')
            .ok_or_else(|| CliError::new(format!("--package {p:?}: expected NAME=DIR")))?;
        if name.is_empty() || dir.is_empty() {
            return Err(CliError::new(format!("--package {p:?}: expected NAME=DIR")));
        }
        map.insert(name.trim_start_matches("package://"), Path::new(dir));
    }
    Ok(map)
}

/// Runs `clash robot`.
pub fn run(args: &RobotArgs) -> CliResult<()> {
    let packages = package_map(&args.packages)?;
    let robot =
        Robot::from_urdf_file(&args.urdf, &packages).map_err(|e| match e.unknown_package() {
            Some(p) => CliError::new(format!("{e}; give its folder with --package {p}=DIR")),
            None => CliError::new(e.to_string()),
        })?;
    let acm = match &args.srdf {
        Some(path) => Some(
            Srdf::from_file(path, &robot)
                .map_err(|e| CliError::new(e.to_string()))?
                .allowed_collisions(),
        ),
        None => None,
    };
    let limits = if args.ignore_limits {
        LimitCheck::Ignore
    } else {
        LimitCheck::Enforce
    };
    let configs = if args.configs.as_os_str() == "-" {
        robot.read_configurations_from(std::io::stdin().lock(), Path::new("<stdin>"), limits)
    } else {
        robot.read_configurations(&args.configs, limits)
    }
    .map_err(|e| CliError::new(e.to_string()))?;
    let options = RobotWorldOptions {
        meshes_as_convex_hulls: args.convex_hulls,
        ..RobotWorldOptions::default()
    };
    let world: RobotWorld = RobotWorld::new(&robot, acm.as_ref(), &options)
        .map_err(|e| CliError::new(format!("{}: {e}", args.urdf.display())))?;
    let query = WorldQuery::default();
    let name = |h| world.link_name(h).unwrap_or("?");
    let start = Instant::now();
    let mut out = JsonLines::stdout();
    if args.distance {
        let answers = with_threads(args.pool.threads, || world.batch_distance(&configs, &query))?
            .map_err(|e| CliError::new(e.to_string()))?;
        for (config, d) in answers.iter().enumerate() {
            let d = d.ok_or_else(|| {
                CliError::new(format!(
                    "{}: the robot has no pair of links to check",
                    args.urdf.display()
                ))
            })?;
            out.write(&DistanceLine {
                config,
                distance: d.distance,
                links: [name(d.a), name(d.b)],
                point_a: d.points[0].coords.into(),
                point_b: d.points[1].coords.into(),
            })?;
        }
    } else {
        let answers = with_threads(args.pool.threads, || {
            world.batch_first_collision(&configs, &query)
        })?
        .map_err(|e| CliError::new(e.to_string()))?;
        for (config, pair) in answers.iter().enumerate() {
            out.write(&CollideLine {
                config,
                collides: pair.is_some(),
                links: pair.map(|(a, b)| [name(a), name(b)]),
            })?;
        }
    }
    out.finish()?;
    let s = start.elapsed().as_secs_f64();
    eprintln!(
        "robot: {} configurations in {s:.6} s ({:.0} configurations/s)",
        configs.len(),
        configs.len() as f64 / s.max(1e-12)
    );
    Ok(())
}
