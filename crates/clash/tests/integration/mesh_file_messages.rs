//! What a user reads when a mesh file is wrong: NaN, infinite and
//! out-of-range coordinates, vertex indices out of range and misread binary
//! files are each reported with the file and the line (text) or byte
//! (binary) where they are, in words that say what is wrong.

use clash::mesh_file::{Location, MeshFileError, MeshFormat, load_mesh, read_mesh};

/// Writes `bytes` to a file named `name` and loads it as `T`.
fn load<T: clash::math::Scalar>(name: &str, bytes: &[u8]) -> Result<(), MeshFileError> {
    // One folder per call: tests run in parallel and reuse file names.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("clash_mesh_messages_{}_{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let result = load_mesh::<T>(&path).map(|_| ());
    std::fs::remove_dir_all(&dir).unwrap();
    result
}

/// The error of loading `bytes` as `T`, its location and its one-line text.
fn error<T: clash::math::Scalar>(name: &str, bytes: &[u8]) -> (Location, String) {
    let e = load::<T>(name, bytes).expect_err(name);
    let text = e.to_string();
    assert!(!text.contains('\n'), "one line: {text}");
    assert!(text.contains(name), "names the file: {text}");
    match e {
        MeshFileError::Parse { location, .. } => (location, text),
        other => panic!("{name}: expected a parse error with a location, got {other}"),
    }
}

/// An OBJ triangle with `bad` as the y of its third vertex (line 3).
fn obj(bad: &str) -> String {
    format!("v 0 0 0\nv 1 0 0\nv 0 {bad} 0\nf 1 2 3\n")
}

/// An ASCII STL triangle with `bad` as the y of its third vertex (line 6).
fn stl(bad: &str) -> String {
    format!(
        "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 {bad} 0\nendloop\nendfacet\nendsolid t\n"
    )
}

/// An ASCII PLY triangle with `bad` as the y of its third vertex (line 12).
fn ply(bad: &str) -> String {
    format!(
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 {bad} 0\n3 0 1 2\n"
    )
}

/// A writer of a one-triangle file with a given coordinate.
type Writer = fn(&str) -> String;

/// Each text format, its writer, and the line of the bad coordinate.
const TEXT_FORMATS: [(&str, Writer, usize); 3] =
    [("obj", obj, 3), ("stl", stl, 6), ("ply", ply, 12)];

#[test]
fn nan_infinite_and_overflowing_coordinates_name_their_line() {
    for (ext, write, line) in TEXT_FORMATS {
        // Well-formed first: the writers are right.
        load::<f64>(&format!("good.{ext}"), write("1").as_bytes()).unwrap();
        for (bad, words) in [
            ("nan", "coordinate nan is not a number (NaN)"),
            ("NaN", "coordinate NaN is not a number (NaN)"),
            ("-inf", "coordinate -inf is infinite"),
            ("Infinity", "coordinate Infinity is infinite"),
            // A finite decimal beyond f64: parsed, it rounds to infinity.
            ("1e400", "coordinate 1e400 is out of f64 range"),
        ] {
            for f32_too in [false, true] {
                let name = format!("bad.{ext}");
                let (location, text) = if f32_too {
                    error::<f32>(&name, write(bad).as_bytes())
                } else {
                    error::<f64>(&name, write(bad).as_bytes())
                };
                assert_eq!(location, Location::Line(line), "{text}");
                assert!(text.contains(&format!("{name}:{line}: ")), "{text}");
                let words = if f32_too {
                    words.replace("f64", "f32")
                } else {
                    words.to_string()
                };
                assert!(text.contains(&words), "{text}");
                assert!(!text.contains("non-finite"), "{text}");
            }
        }
    }
}

#[test]
fn doubles_beyond_f32_are_out_of_f32_range_not_non_finite() {
    // f32::MAX rounded up by half an ulp, 2^128 - 2^103, is the first double
    // that rounds to infinity in f32 (ties to even); one below it does not.
    let first_overflow = 2f64.powi(128) - 2f64.powi(103);
    let last_fit = f64::from_bits(first_overflow.to_bits() - 1);
    assert!((first_overflow as f32).is_infinite() && (last_fit as f32) == f32::MAX);
    for (ext, write, line) in TEXT_FORMATS {
        let name = format!("big.{ext}");
        for big in [
            format!("{first_overflow:e}"),
            "1e39".into(),
            "-1e300".into(),
        ] {
            // f64 answers up to 2^128 (`Scalar::MAX_COORDINATE`) and
            // refuses larger coordinates as an invalid mesh.
            if big.parse::<f64>().unwrap().abs() <= 2f64.powi(128) {
                load::<f64>(&name, write(&big).as_bytes()).unwrap();
            } else {
                let e = load::<f64>(&name, write(&big).as_bytes()).unwrap_err();
                assert!(e.to_string().contains("without overflow"), "{e}");
            }
            let (location, text) = error::<f32>(&name, write(&big).as_bytes());
            assert_eq!(location, Location::Line(line), "{text}");
            assert!(
                text.contains(&format!(
                    "coordinate {big} is out of f32 range (largest magnitude 3.4028234663852886e38)"
                )),
                "{text}"
            );
        }
        // The largest double f32 holds parses, and is then refused as
        // beyond the range f32 queries answer in (2^26), not as overflow.
        let fit = format!("{last_fit:e}");
        let e = load::<f32>(&name, write(&fit).as_bytes()).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, MeshFileError::InvalidMesh { .. }), "{text}");
        assert!(
            text.contains("without overflow") && !text.contains("out of f32 range"),
            "{text}"
        );
    }
}

/// A binary STL of `n` unit triangles with an 80-byte header starting with
/// `header`; `bad` sets coordinate `(triangle, corner, axis)` to a value.
fn binary_stl(header: &[u8], n: u32, bad: Option<(usize, usize, usize, f32)>) -> Vec<u8> {
    let mut b = vec![0u8; 80];
    b[..header.len()].copy_from_slice(header);
    b.extend_from_slice(&n.to_le_bytes());
    for k in 0..n as usize {
        b.extend_from_slice(&[0u8; 12]);
        for corner in 0..3 {
            for axis in 0..3 {
                let mut v = if axis == corner { 1.0f32 } else { 0.0 };
                if let Some((bk, bc, ba, bv)) = bad
                    && (bk, bc, ba) == (k, corner, axis)
                {
                    v = bv;
                }
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        b.extend_from_slice(&[0u8; 2]);
    }
    b
}

#[test]
fn binary_stl_coordinates_name_their_byte() {
    assert!(read_mesh::<f64>(&binary_stl(b"bin", 3, None), MeshFormat::Stl).is_ok());
    for (value, words) in [
        (f32::NAN, "coordinate NaN is not a number (NaN)"),
        (f32::NEG_INFINITY, "coordinate -inf is infinite"),
    ] {
        // Triangle 1, corner 2, y: after the header, one record, the normal,
        // two corners and x.
        let bytes = binary_stl(b"bin", 3, Some((1, 2, 1, value)));
        let (location, text) = error::<f64>("nan_binary.stl", &bytes);
        let byte = 84 + 50 + 12 + 2 * 12 + 4;
        assert_eq!(location, Location::Byte(byte), "{text}");
        assert!(
            text.contains(&format!("nan_binary.stl: byte {byte}: ")),
            "{text}"
        );
        assert!(text.contains(words), "{text}");
    }
}

#[test]
fn binary_stl_with_a_solid_header_and_a_wrong_count_is_called_binary() {
    // Exporters write `solid` in binary headers; a wrong triangle count then
    // used to send the file to the ASCII reader ("not UTF-8").
    let good = binary_stl(b"solid exported by a CAD tool", 3, None);
    assert_eq!(
        read_mesh::<f64>(&good, MeshFormat::Stl)
            .unwrap()
            .num_triangles(),
        3
    );
    let mut more = good.clone();
    more[80..84].copy_from_slice(&5u32.to_le_bytes());
    let mut fewer = good.clone();
    fewer[80..84].copy_from_slice(&2u32.to_le_bytes());
    let cut = good[..good.len() - 10].to_vec();
    for (bytes, announced) in [(more, 5), (fewer, 2), (cut, 3)] {
        let (location, text) = error::<f64>("solid_binary.stl", &bytes);
        assert_eq!(location, Location::File, "{text}");
        assert!(text.contains("binary STL"), "{text}");
        assert!(text.contains("starts with `solid`"), "{text}");
        assert!(
            text.contains(&format!(
                "the header announces {announced} triangles, {} bytes, but the file has {} bytes",
                84 + 50 * announced,
                bytes.len()
            )),
            "{text}"
        );
        assert!(!text.contains("UTF-8"), "{text}");
    }
    // A text file with a byte that is not UTF-8 (a Latin-1 name) is still
    // read as ASCII, and its error names the line.
    let mut bytes = stl("1").into_bytes();
    assert_eq!(&bytes[..7], b"solid t");
    bytes.splice(6..7, *b"caf\xe9");
    let (location, text) = error::<f64>("latin1.stl", &bytes);
    assert_eq!(location, Location::Line(1), "{text}");
    assert!(text.contains("not UTF-8 text"), "{text}");
}

/// A little-endian binary PLY of one triangle whose third vertex's y is
/// the double `y` and whose face's last corner is `corner`.
fn ply_binary(y: f64, corner: i32) -> Vec<u8> {
    let mut b = b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n".to_vec();
    for v in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, y, 0.0]] {
        for c in v {
            b.extend_from_slice(&f64::to_le_bytes(c));
        }
    }
    b.push(3);
    for i in [0, 1, corner] {
        b.extend_from_slice(&i.to_le_bytes());
    }
    b
}

#[test]
fn binary_ply_coordinates_and_indices_name_their_byte() {
    let good = ply_binary(1.0, 2);
    load::<f32>("good.ply", &good).unwrap();
    let data = good.len() - 3 * 24 - 13;
    // The third vertex's y.
    let y_at = (data + 2 * 24 + 8) as u64;
    let (location, text) = error::<f32>("big_binary.ply", &ply_binary(1e300, 2));
    assert_eq!(location, Location::Byte(y_at), "{text}");
    assert!(
        text.contains("coordinate 1e300 is out of f32 range"),
        "{text}"
    );
    let e = load::<f64>("big_binary.ply", &ply_binary(1e300, 2)).unwrap_err();
    assert!(
        e.to_string()
            .contains("vertex 2: coordinate 1e300 is beyond"),
        "{e}"
    );
    load::<f64>("big_binary.ply", &ply_binary(3.4028236e38, 2)).unwrap();
    let (location, text) = error::<f64>("nan_binary.ply", &ply_binary(f64::NAN, 2));
    assert_eq!(location, Location::Byte(y_at), "{text}");
    assert!(text.contains("not a number"), "{text}");
    // The face starts after the vertices.
    let (location, text) = error::<f64>("index_binary.ply", &ply_binary(1.0, 3));
    assert_eq!(location, Location::Byte((data + 3 * 24) as u64), "{text}");
    assert!(
        text.contains("face 0 refers to vertex 3, but the file has 3 vertices"),
        "{text}"
    );
}

#[test]
fn ply_faces_out_of_range_or_too_small_name_their_line() {
    let two_faces = |second: &str| {
        format!(
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 3\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n\n{second}\n3 2 1 0\n"
        )
    };
    load::<f64>("good.ply", two_faces("3 0 2 1").as_bytes()).unwrap();
    // Line 15: the blank line 14 is skipped.
    let (location, text) = error::<f64>("index.ply", two_faces("3 0 1 7").as_bytes());
    assert_eq!(location, Location::Line(15), "{text}");
    assert!(text.contains("index.ply:15: "), "{text}");
    assert!(
        text.contains("face 1 refers to vertex 7, but the file has 3 vertices"),
        "{text}"
    );
    let (location, text) = error::<f64>("corners.ply", two_faces("2 0 1").as_bytes());
    assert_eq!(location, Location::Line(15), "{text}");
    assert!(text.contains("face 1 has 2 corners"), "{text}");
}
