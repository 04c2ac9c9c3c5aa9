//! `clash build -o`: never over its input mesh (however the path is
//! spelled or linked), an output that cannot be written is found before the
//! build, and a failed build leaves no file behind.

use crate::common::*;
use std::path::Path;

/// The names in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `clash build <mesh> -o <output>` run in `cwd`: its exit code and stderr.
fn build(cwd: &Path, mesh: &str, output: &str) -> (i32, String) {
    let out = clash()
        .current_dir(cwd)
        .args(["build", mesh, "-o", output])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn build_refuses_to_write_over_its_input_mesh() {
    let dir = scratch("same_file");
    let original = std::fs::read(shipped("bunny_lo.stl")).unwrap();
    std::fs::write(dir.join("x.stl"), &original).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    let absolute = dir.join("x.stl").display().to_string();
    let mut cases = vec![
        ("x.stl", "x.stl"),
        ("x.stl", "./x.stl"),
        ("./x.stl", "sub/../x.stl"),
        ("x.stl", absolute.as_str()),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("x.stl", dir.join("link.stl")).unwrap();
        std::os::unix::fs::symlink("x.stl", dir.join("link.clash")).unwrap();
        std::fs::hard_link(dir.join("x.stl"), dir.join("hard.clash")).unwrap();
        cases.extend([
            ("link.stl", "x.stl"),
            ("x.stl", "link.clash"),
            ("x.stl", "hard.clash"),
        ]);
    }
    let before = listing(&dir);
    for (mesh, output) in cases {
        let (code, stderr) = build(&dir, mesh, output);
        assert_eq!(code, 2, "{mesh} -o {output}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "clash: error: {output}: is the input mesh {mesh}; refusing to write the tree over it"
            )),
            "{mesh} -o {output}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(
            std::fs::read(dir.join("x.stl")).unwrap(),
            original,
            "{mesh} -o {output}"
        );
        assert_eq!(listing(&dir), before, "{mesh} -o {output}: nothing written");
    }
    // Another name in the same folder is fine.
    let (code, stderr) = build(&dir, "./x.stl", "x.clash");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read(dir.join("x.stl")).unwrap(), original);
}

#[test]
fn an_unwritable_output_is_found_before_the_mesh_is_read() {
    let dir = scratch("unwritable");
    // A mesh that fails to parse: the output's error comes first, so the
    // output was checked before any reading or building.
    std::fs::write(
        dir.join("bad.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 zero\nf 1 2 3\n",
    )
    .unwrap();
    std::fs::write(dir.join("file.txt"), "not a folder").unwrap();
    std::fs::create_dir(dir.join("folder")).unwrap();
    for (output, message) in [
        (
            "missing/x.clash",
            "missing/x.clash: cannot write there: the folder missing does not exist",
        ),
        (
            "file.txt/x.clash",
            "file.txt/x.clash: cannot write there: file.txt is not a folder",
        ),
        ("folder", "folder: is a folder; name the tree file to write"),
    ] {
        let before = listing(&dir);
        let (code, stderr) = build(&dir, "bad.obj", output);
        assert_eq!(code, 2, "{output}: {stderr}");
        assert!(stderr.contains(message), "{output}: {stderr}");
        assert!(!stderr.contains("bad.obj"), "{output}: {stderr}");
        assert_eq!(listing(&dir), before);
    }
    // A good output and a bad mesh: the mesh's error, and no file left.
    let before = listing(&dir);
    let (code, stderr) = build(&dir, "bad.obj", "x.clash");
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.obj:3: malformed OBJ file"), "{stderr}");
    assert_eq!(listing(&dir), before, "no empty or partial file");
    // A read-only existing output (only meaningful when not running as root,
    // who may write anyway).
    let locked = dir.join("locked.clash");
    std::fs::write(&locked, "old").unwrap();
    let mut permissions = std::fs::metadata(&locked).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&locked, permissions).unwrap();
    if std::fs::OpenOptions::new()
        .append(true)
        .open(&locked)
        .is_err()
    {
        let (code, stderr) = build(&dir, "bad.obj", "locked.clash");
        assert_eq!(code, 2);
        assert!(stderr.contains("locked.clash: cannot write"), "{stderr}");
        assert_eq!(std::fs::read(&locked).unwrap(), b"old");
    }
}

#[test]
fn an_existing_output_is_replaced_and_a_link_writes_its_target() {
    let dir = scratch("replace");
    let bunny = shipped("bunny_lo.stl");
    let bunny = bunny.to_str().unwrap();
    std::fs::write(dir.join("old.clash"), "an older tree").unwrap();
    let (code, stderr) = build(&dir, bunny, "old.clash");
    assert_eq!(code, 0, "{stderr}");
    let fresh = std::fs::read(dir.join("old.clash")).unwrap();
    assert!(fresh.starts_with(b"CLASHBVH"));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("old.clash", dir.join("link.clash")).unwrap();
        std::fs::write(dir.join("old.clash"), "stale").unwrap();
        let (code, stderr) = build(&dir, bunny, "link.clash");
        assert_eq!(code, 0, "{stderr}");
        assert!(
            std::fs::symlink_metadata(dir.join("link.clash"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(dir.join("old.clash")).unwrap(), fresh);
    }
    // No temporary file is left next to the output.
    assert!(
        listing(&dir).iter().all(|n| !n.contains("partial")),
        "{:?}",
        listing(&dir)
    );
}
