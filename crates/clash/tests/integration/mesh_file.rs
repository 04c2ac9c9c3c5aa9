//! Mesh file loaders: every format round-trips random meshes written by the
//! small writers below (polygons included), STL and OBJ agree with
//! independent parsers (stl_io, tobj) used as oracles, malformed files give
//! an error naming the file and line, and mutated files never panic.

use clash::bvh::TriMesh;
use clash::mesh_file::{Location, MeshFileError, MeshFormat, load_mesh, read_mesh};
use proptest::prelude::*;
use std::fmt::Write as _;
use std::path::PathBuf;

fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/meshes")
        .join(name)
}

/// A random mesh as polygons (3 to 6 corners) over a vertex list.
#[derive(Debug, Clone)]
struct Polygons {
    vertices: Vec<[f32; 3]>,
    faces: Vec<Vec<u32>>,
}

impl Polygons {
    /// The triangles the loaders must produce: each polygon as the fan
    /// `(0, i, i + 1)`, in order, as corner coordinates.
    fn fan_triangles(&self) -> Vec<[[f64; 3]; 3]> {
        let p = |i: u32| self.vertices[i as usize].map(f64::from);
        let mut out = Vec::new();
        for f in &self.faces {
            for i in 1..f.len() - 1 {
                out.push([p(f[0]), p(f[i]), p(f[i + 1])]);
            }
        }
        out
    }
}

fn triangles_of(mesh: &TriMesh<f64>) -> Vec<[[f64; 3]; 3]> {
    mesh.triangles()
        .map(|t| [t.a, t.b, t.c].map(|p| [p.x, p.y, p.z]))
        .collect()
}

fn polygons() -> impl Strategy<Value = Polygons> {
    let coord = prop_oneof![
        -1e3f32..1e3,
        Just(0.0f32),
        Just(-0.0f32),
        Just(1e-30f32),
        Just(3.0e38f32),
    ];
    prop::collection::vec([coord.clone(), coord.clone(), coord], 3..40).prop_flat_map(|vertices| {
        let n = vertices.len() as u32;
        let face = prop::collection::vec(0..n, 3..7);
        (Just(vertices), prop::collection::vec(face, 1..30))
            .prop_map(|(vertices, faces)| Polygons { vertices, faces })
    })
}

fn write_obj(m: &Polygons, negative: bool) -> String {
    let mut s = String::from("# written by the clash tests\no thing\n");
    for v in &m.vertices {
        // The f64 spelling of each f32, so that the text means that exact value.
        let v = v.map(f64::from);
        let _ = writeln!(s, "v {:?} {:?} {:?}", v[0], v[1], v[2]);
    }
    let _ = writeln!(s, "vn 0 0 1\nvt 0 0\ng group\nusemtl none");
    let n = m.vertices.len() as i64;
    for f in &m.faces {
        s.push('f');
        for (k, &i) in f.iter().enumerate() {
            let index = if negative { i as i64 - n } else { i as i64 + 1 };
            match k % 3 {
                0 => {
                    let _ = write!(s, " {index}");
                }
                1 => {
                    let _ = write!(s, " {index}/1");
                }
                _ => {
                    let _ = write!(s, " {index}//1");
                }
            }
        }
        s.push('\n');
    }
    s
}

fn write_stl_ascii(tris: &[[[f64; 3]; 3]]) -> String {
    let mut s = String::from("solid test\n");
    for t in tris {
        s.push_str("  facet normal 0 0 0\n    outer loop\n");
        for p in t {
            let _ = writeln!(s, "      vertex {:?} {:?} {:?}", p[0], p[1], p[2]);
        }
        s.push_str("    endloop\n  endfacet\n");
    }
    s.push_str("endsolid test\n");
    s
}

fn write_stl_binary(tris: &[[[f64; 3]; 3]], header: &[u8]) -> Vec<u8> {
    let mut b = vec![b' '; 80];
    b[..header.len()].copy_from_slice(header);
    b.extend_from_slice(&(tris.len() as u32).to_le_bytes());
    for t in tris {
        b.extend_from_slice(&[0u8; 12]);
        for p in t {
            for c in p {
                b.extend_from_slice(&(*c as f32).to_le_bytes());
            }
        }
        b.extend_from_slice(&[0u8; 2]);
    }
    b
}

#[derive(Clone, Copy)]
enum PlyEncoding {
    Ascii,
    Little,
    Big,
}

fn write_ply(m: &Polygons, enc: PlyEncoding) -> Vec<u8> {
    let format = match enc {
        PlyEncoding::Ascii => "ascii",
        PlyEncoding::Little => "binary_little_endian",
        PlyEncoding::Big => "binary_big_endian",
    };
    let mut out = format!(
        "ply\nformat {format} 1.0\ncomment clash test\nelement vertex {}\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nelement face {}\nproperty list uchar int vertex_indices\nend_header\n",
        m.vertices.len(),
        m.faces.len()
    )
    .into_bytes();
    let f32b = |x: f32| match enc {
        PlyEncoding::Big => x.to_be_bytes(),
        _ => x.to_le_bytes(),
    };
    let i32b = |x: i32| match enc {
        PlyEncoding::Big => x.to_be_bytes(),
        _ => x.to_le_bytes(),
    };
    for v in &m.vertices {
        match enc {
            PlyEncoding::Ascii => {
                let v = v.map(f64::from);
                out.extend(format!("{:?} {:?} {:?} 7\n", v[0], v[1], v[2]).bytes())
            }
            _ => {
                for c in v {
                    out.extend(f32b(*c));
                }
                out.push(7);
            }
        }
    }
    for f in &m.faces {
        match enc {
            PlyEncoding::Ascii => {
                let idx: Vec<String> = f.iter().map(|i| i.to_string()).collect();
                out.extend(format!("{} {}\n", f.len(), idx.join(" ")).bytes());
            }
            _ => {
                out.push(f.len() as u8);
                for &i in f {
                    out.extend(i32b(i as i32));
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn obj_round_trips_in_face_order(m in polygons(), negative in any::<bool>()) {
        let text = write_obj(&m, negative);
        let mesh = read_mesh::<f64>(text.as_bytes(), MeshFormat::Obj).unwrap();
        prop_assert_eq!(triangles_of(&mesh), m.fan_triangles());
        // Oracle: tobj reads the same file to the same triangles.
        let (models, _) = tobj::load_obj_buf(
            &mut text.as_bytes(),
            &tobj::LoadOptions { triangulate: true, single_index: false, ..Default::default() },
            |_| Ok(Default::default()),
        ).unwrap();
        let mut oracle = Vec::new();
        for model in &models {
            let pos = &model.mesh.positions;
            for t in model.mesh.indices.chunks(3) {
                oracle.push([t[0], t[1], t[2]].map(|i| {
                    let i = i as usize * 3;
                    [pos[i] as f64, pos[i + 1] as f64, pos[i + 2] as f64]
                }));
            }
        }
        prop_assert_eq!(triangles_of(&mesh), oracle);
    }

    #[test]
    fn stl_ascii_and_binary_round_trip(m in polygons(), solid_header in any::<bool>()) {
        let tris = m.fan_triangles();
        let ascii = read_mesh::<f64>(write_stl_ascii(&tris).as_bytes(), MeshFormat::Stl).unwrap();
        prop_assert_eq!(triangles_of(&ascii), tris.clone());
        // Binary exporters often start the header with "solid": the size decides.
        let header: &[u8] = if solid_header { b"solid binary" } else { b"binary" };
        let binary = read_mesh::<f64>(&write_stl_binary(&tris, header), MeshFormat::Stl).unwrap();
        prop_assert_eq!(triangles_of(&binary), tris);
    }

    #[test]
    fn ply_round_trips_in_every_encoding(m in polygons()) {
        for enc in [PlyEncoding::Ascii, PlyEncoding::Little, PlyEncoding::Big] {
            let mesh = read_mesh::<f64>(&write_ply(&m, enc), MeshFormat::Ply).unwrap();
            prop_assert_eq!(triangles_of(&mesh), m.fan_triangles());
        }
    }

    /// Truncated, overwritten or spliced files give `Ok` or `Err`, never a panic.
    #[test]
    fn mutated_files_never_panic(
        m in polygons(),
        cut in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    ) {
        let tris = m.fan_triangles();
        let files: [(MeshFormat, Vec<u8>); 5] = [
            (MeshFormat::Obj, write_obj(&m, false).into_bytes()),
            (MeshFormat::Stl, write_stl_ascii(&tris).into_bytes()),
            (MeshFormat::Stl, write_stl_binary(&tris, b"x")),
            (MeshFormat::Ply, write_ply(&m, PlyEncoding::Ascii)),
            (MeshFormat::Ply, write_ply(&m, PlyEncoding::Little)),
        ];
        for (format, bytes) in files {
            let mut b = bytes[..cut.index(bytes.len() + 1)].to_vec();
            for (at, byte) in &edits {
                if !b.is_empty() {
                    let i = at.index(b.len());
                    b[i] = *byte;
                }
            }
            let _ = read_mesh::<f32>(&b, format);
        }
    }
}

#[test]
fn shipped_stl_meshes_match_the_stl_io_crate() {
    for (name, triangles) in [
        ("bunny_lo.stl", 902),
        ("dog_sacrum.stl", 4404),
        ("panda_link6.stl", 21620),
    ] {
        let path = shipped(name);
        let mesh = load_mesh::<f64>(&path).unwrap();
        assert_eq!(mesh.num_triangles(), triangles, "{name}");
        let mut file = std::fs::File::open(&path).unwrap();
        let oracle = stl_io::read_stl(&mut file).unwrap();
        assert_eq!(oracle.faces.len(), mesh.num_triangles());
        for (t, f) in mesh.triangles().zip(&oracle.faces) {
            let ours = [t.a, t.b, t.c].map(|p| [p.x as f32, p.y as f32, p.z as f32]);
            let theirs = f.vertices.map(|i| {
                let v = oracle.vertices[i];
                [v[0], v[1], v[2]]
            });
            assert_eq!(ours, theirs, "{name}");
        }
        // Welding keeps every triangle: the vertex count is the distinct corners.
        assert_eq!(mesh.vertices().len(), oracle.vertices.len(), "{name}");
    }
}

#[test]
fn f32_and_f64_loads_agree_on_float_data() {
    let a = load_mesh::<f32>(shipped("bunny_lo.stl")).unwrap();
    let b = load_mesh::<f64>(shipped("bunny_lo.stl")).unwrap();
    assert_eq!(a.indices(), b.indices());
    for (p, q) in a.vertices().iter().zip(b.vertices()) {
        assert_eq!(p.map(f64::from), *q);
    }
}

/// Loads `text` from a file with `ext` and returns the error's display.
fn error_of(ext: &str, bytes: &[u8]) -> (MeshFileError, String) {
    // One folder per call: tests run in parallel and would race on one file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("clash_mesh_errors_{}_{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("bad.{ext}"));
    std::fs::write(&path, bytes).unwrap();
    let e = load_mesh::<f64>(&path).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = e.to_string();
    assert!(!text.contains('\n'), "one line: {text}");
    assert!(
        text.contains(&path.display().to_string()),
        "names the file: {text}"
    );
    (e, text)
}

fn line_of(e: &MeshFileError) -> Option<usize> {
    match e {
        MeshFileError::Parse {
            location: Location::Line(n),
            ..
        } => Some(*n),
        _ => None,
    }
}

#[test]
fn malformed_obj_files_name_the_line() {
    let cases: [(&str, usize, &str); 6] = [
        ("v 0 0 0\nv 1 0 0\nv 0 1 zero\nf 1 2 3\n", 3, "bad number"),
        ("v 0 0 0\nv 1 0 0\nv 0 1\nf 1 2 3\n", 3, "coordinates"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2\n", 5, "corners"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", 4, "index 0"),
        (
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\nf 1 2 3\n",
            5,
            "out of range",
        ),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", 4, "out of range"),
    ];
    for (text, line, what) in cases {
        let (e, msg) = error_of("obj", text.as_bytes());
        assert_eq!(line_of(&e), Some(line), "{msg}");
        assert!(msg.contains(what), "{msg}");
        assert!(msg.contains(&format!(":{line}:")), "{msg}");
    }
}

#[test]
fn malformed_stl_files_are_refused() {
    let good = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
    assert_eq!(
        read_mesh::<f64>(good.as_bytes(), MeshFormat::Stl)
            .unwrap()
            .num_triangles(),
        1
    );
    let (e, msg) = error_of(
        "stl",
        good.replace("vertex 1 0 0", "vertex 1 0 x").as_bytes(),
    );
    assert_eq!(line_of(&e), Some(5), "{msg}");
    let (e, msg) = error_of("stl", good.replace("vertex 1 0 0\n", "").as_bytes());
    assert_eq!(line_of(&e), Some(6), "{msg}");
    assert!(msg.contains("expected `vertex`"), "{msg}");
    let (_, msg) = error_of("stl", good.replace("endsolid t\n", "").as_bytes());
    assert!(msg.contains("file ends"), "{msg}");
    // A binary file cut short: neither ASCII nor a consistent binary size.
    let binary = write_stl_binary(
        &[[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]; 3],
        b"bin",
    );
    let (_, msg) = error_of("stl", &binary[..binary.len() - 7]);
    assert!(msg.contains("announces 3 triangles"), "{msg}");
    // No facet at all: a valid file of an empty mesh.
    let (e, msg) = error_of("stl", b"solid empty\nendsolid empty\n");
    assert!(matches!(e, MeshFileError::InvalidMesh { .. }), "{msg}");
}

#[test]
fn malformed_ply_files_are_refused() {
    let m = Polygons {
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        faces: vec![vec![0, 1, 2]],
    };
    let good = String::from_utf8(write_ply(&m, PlyEncoding::Ascii)).unwrap();
    assert_eq!(
        read_mesh::<f64>(good.as_bytes(), MeshFormat::Ply)
            .unwrap()
            .num_triangles(),
        1
    );
    let (e, msg) = error_of("ply", good.replace("3 0 1 2", "3 0 1 7").as_bytes());
    assert!(msg.contains("refers to vertex 7"), "{msg}");
    assert_eq!(line_of(&e), Some(15), "{msg}");
    let (_, msg) = error_of(
        "ply",
        good.replace("property float y\n", "property flot y\n")
            .as_bytes(),
    );
    assert!(msg.contains("malformed PLY"), "{msg}");
    let (_, msg) = error_of(
        "ply",
        good.replace("element face 1", "element face 2").as_bytes(),
    );
    assert!(msg.contains("malformed PLY"), "{msg}");
    let binary = write_ply(&m, PlyEncoding::Little);
    let (_, msg) = error_of("ply", &binary[..binary.len() - 3]);
    assert!(msg.contains("malformed PLY"), "{msg}");
    // Counts that overflow, or that the file cannot hold (a panic in ply-rs,
    // found by the fuzzer).
    let (e, msg) = error_of(
        "ply",
        good.replace("element vertex 3", "element vertex 99999999999999999999999")
            .as_bytes(),
    );
    assert_eq!(line_of(&e), Some(4), "{msg}");
    let (_, msg) = error_of(
        "ply",
        good.replace("element vertex 3", "element vertex 4000000000")
            .as_bytes(),
    );
    assert!(msg.contains("more than the file holds"), "{msg}");
    let (e, msg) = error_of(
        "ply",
        good.replace("0.0 1.0 0.0 7", "0.0 1.0 x 7").as_bytes(),
    );
    assert_eq!(line_of(&e), Some(14), "{msg}");
}

#[test]
fn empty_meshes_are_invalid_and_bad_coordinates_name_their_line() {
    let (e, msg) = error_of("obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    assert!(matches!(e, MeshFileError::InvalidMesh { .. }), "{msg}");
    // NaN and out-of-range coordinates are parse errors with their line
    // (every case in `mesh_file_messages.rs`).
    let (e, msg) = error_of("obj", b"v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    assert_eq!(line_of(&e), Some(1), "{msg}");
    assert!(msg.contains("not a number"), "{msg}");
    // Single precision: a double beyond f32's range is refused, with its line.
    let path = std::env::temp_dir().join(format!("clash_big_{}.obj", std::process::id()));
    std::fs::write(&path, "v 0 0 0\nv 1e300 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let e = load_mesh::<f32>(&path).unwrap_err();
    assert_eq!(line_of(&e), Some(2), "{e}");
    assert!(e.to_string().contains("out of f32 range"), "{e}");
    // Beyond the range in which queries cannot overflow (2^128 in f64).
    let e = load_mesh::<f64>(&path).unwrap_err();
    assert!(matches!(e, MeshFileError::InvalidMesh { .. }), "{e}");
    assert!(
        e.to_string().contains("vertex 1") && e.to_string().contains("1e300"),
        "{e}"
    );
    // Within f32's range but beyond its narrower safe range (2^26).
    std::fs::write(&path, "v 1e30 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    assert!(load_mesh::<f64>(&path).is_ok());
    assert!(matches!(
        load_mesh::<f32>(&path),
        Err(MeshFileError::InvalidMesh { .. })
    ));
}

#[test]
fn degenerate_triangles_are_kept() {
    let mesh = read_mesh::<f64>(
        b"v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 1\n",
        MeshFormat::Obj,
    )
    .unwrap();
    assert_eq!(mesh.num_triangles(), 2);
}

#[test]
fn unknown_and_missing_files_are_errors() {
    assert!(matches!(
        load_mesh::<f64>("mesh.xyz"),
        Err(MeshFileError::UnknownFormat { .. })
    ));
    let e = load_mesh::<f64>("/nonexistent/clash/mesh.obj").unwrap_err();
    assert!(matches!(e, MeshFileError::Io { .. }));
    assert!(e.to_string().starts_with("/nonexistent/clash/mesh.obj: "));
    assert_eq!(MeshFormat::from_path("a/b.PlY"), Some(MeshFormat::Ply));
    assert_eq!(MeshFormat::from_path("noext"), None);
}
