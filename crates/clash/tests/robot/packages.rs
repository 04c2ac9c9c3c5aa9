//! `package://` mesh paths found where users keep their packages: the
//! package map first, then the search path (`ROS_PACKAGE_PATH`'s folders),
//! then a folder named for the package, or holding a `package.xml` naming
//! it, above the URDF; a package found nowhere is an error naming it.

use super::common::robots_dir;
use clash::robot::{PackageMap, PathError, Robot};
use std::fs;
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clash_packages_{}_{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn manifest(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("package.xml"),
        format!("<?xml version=\"1.0\"?>\n<package format=\"2\">\n  <name> {name} </name>\n  <version>1.0.0</version>\n</package>\n"),
    )
    .unwrap();
}

#[test]
fn each_place_is_searched_in_order() {
    let root = scratch("order");
    // The URDF lives in root/ws/my_robot/urdf; my_robot's folder is named
    // for its package, and other_pkg is a folder above holding a manifest.
    let urdf_dir = root.join("ws/my_robot/urdf");
    fs::create_dir_all(&urdf_dir).unwrap();
    manifest(&root.join("ws"), "other_pkg");
    // On the search path: a package in a subfolder, found by its manifest.
    let search = root.join("share");
    manifest(&search.join("group/renamed_folder"), "searched_pkg");
    manifest(&search.join("group/other_pkg_copy"), "other_pkg");
    let map = PackageMap::new().with_search_path([&search]);

    let at = |uri: &str, m: &PackageMap| m.resolve(uri, &urdf_dir);
    assert_eq!(
        at("package://my_robot/meshes/a.stl", &map),
        Ok(root.join("ws/my_robot/meshes/a.stl").canonicalize_parent())
    );
    assert_eq!(
        at("package://searched_pkg/meshes/b.stl", &map),
        Ok(search.join("group/renamed_folder/meshes/b.stl"))
    );
    // The search path comes before the folders above the URDF.
    assert_eq!(
        at("package://other_pkg/c.stl", &map),
        Ok(search.join("group/other_pkg_copy/c.stl"))
    );
    assert_eq!(
        at("package://other_pkg/c.stl", &PackageMap::new()),
        Ok(root.join("ws/c.stl").canonicalize_parent())
    );
    // The map comes first of all.
    let mapped = map.clone().with("other_pkg", "/opt/given");
    assert_eq!(
        at("package://other_pkg/c.stl", &mapped),
        Ok(PathBuf::from("/opt/given/c.stl"))
    );
    // Below the search depth, and nowhere: the error names the package.
    manifest(&search.join("a/b/c/d/too_deep"), "deep_pkg");
    assert_eq!(
        at("package://deep_pkg/x.stl", &map),
        Err(PathError::UnknownPackage {
            package: "deep_pkg".into()
        })
    );
    let e = at("package://nowhere/x.stl", &map).unwrap_err();
    assert_eq!(
        e.to_string(),
        "package \"nowhere\" was not found (searched the folders given for packages, \
         ROS_PACKAGE_PATH and the folders above the URDF)"
    );
    fs::remove_dir_all(&root).unwrap();
}

trait CanonicalParent {
    /// The path with its folder canonicalised (the search above the URDF
    /// canonicalises it, and the temporary folder may be a link).
    fn canonicalize_parent(&self) -> PathBuf;
}

impl CanonicalParent for PathBuf {
    fn canonicalize_parent(&self) -> PathBuf {
        let mut dir = self.as_path();
        let mut rest = Vec::new();
        while !dir.exists() {
            rest.push(dir.file_name().unwrap().to_owned());
            dir = dir.parent().unwrap();
        }
        let mut p = dir.canonicalize().unwrap();
        p.extend(rest.iter().rev());
        p
    }
}

#[test]
fn a_robot_loads_with_its_package_found_above_the_urdf_or_on_the_search_path() {
    // The UR5's URDF in a package laid out as ROS lays one out: its meshes
    // under example-robot-data/robots/ur_description/meshes/ur5.
    let root = scratch("ur5");
    let package = root.join("example-robot-data");
    let meshes = package.join("robots/ur_description/meshes/ur5/collision");
    fs::create_dir_all(&meshes).unwrap();
    let ur5 = robots_dir().join("ur5");
    for e in fs::read_dir(ur5.join("meshes/collision")).unwrap() {
        let e = e.unwrap();
        fs::copy(e.path(), meshes.join(e.file_name())).unwrap();
    }
    let urdf_dir = package.join("robots/ur_description/urdf");
    fs::create_dir_all(&urdf_dir).unwrap();
    let urdf = urdf_dir.join("ur5_robot.urdf");
    fs::copy(ur5.join("urdf/ur5_robot.urdf"), &urdf).unwrap();

    let expected =
        Robot::from_urdf_file(ur5.join("urdf/ur5_robot.urdf"), &super::common::packages()).unwrap();
    let q = vec![0.3; expected.dof()];
    let poses = |r: &Robot| r.poses(&q).unwrap();
    let above = Robot::from_urdf_file(&urdf, &PackageMap::new()).unwrap();
    assert_eq!(poses(&above), poses(&expected));

    // The URDF elsewhere: found through the search path instead.
    let elsewhere = root.join("copy.urdf");
    fs::copy(&urdf, &elsewhere).unwrap();
    let e = Robot::from_urdf_file(&elsewhere, &PackageMap::new()).unwrap_err();
    assert_eq!(e.unknown_package(), Some("example-robot-data"));
    let searched = PackageMap::new().with_search_path([&root]);
    let found = Robot::from_urdf_file(&elsewhere, &searched).unwrap();
    assert_eq!(poses(&found), poses(&expected));
    fs::remove_dir_all(&root).unwrap();
}
