//! Shared helpers for the clash benchmarks: a binary STL reader and the
//! benchmark meshes (`/work/shared/meshes/*.stl`, with a generated fallback).

use clash_math::{Point3, Triangle};
use std::path::{Path, PathBuf};

/// Where the real benchmark meshes live (binary STL, see its README).
pub const MESH_DIR: &str = "/work/shared/meshes";

/// Reads a binary STL file: an 80-byte header, a little-endian `u32` facet
/// count, then 50 bytes per facet (normal, three corners as `f32` triples,
/// a 2-byte attribute). The stored normals are ignored.
///
/// # Errors
/// I/O errors, and `InvalidData` when the size does not match the count.
pub fn read_stl(path: &Path) -> std::io::Result<Vec<Triangle<f32>>> {
    let bytes = std::fs::read(path)?;
    let bad = |m: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {m}", path.display()),
        )
    };
    if bytes.len() < 84 {
        return Err(bad("shorter than an STL header"));
    }
    let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
    if bytes.len() < 84 + 50 * n {
        return Err(bad("truncated facet list"));
    }
    let f = |o: usize| f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let p = |o: usize| Point3::new(f(o), f(o + 4), f(o + 8));
    Ok((0..n)
        .map(|i| {
            let o = 84 + 50 * i + 12;
            Triangle::new(p(o), p(o + 12), p(o + 24))
        })
        .collect())
}

/// A generated closed mesh: a UV sphere with `rings × segments` quads
/// (two triangles each) stretched to an ellipsoid `(2, 1, 0.5)` and tilted,
/// used when the real meshes are absent.
pub fn generated_mesh(rings: usize, segments: usize) -> Vec<Triangle<f32>> {
    let rot = clash_math::Rotation3::from_euler_angles(0.3_f32, 0.5, 0.7);
    let v = |i: usize, j: usize| {
        let th = std::f32::consts::PI * i as f32 / rings as f32;
        let ph = 2.0 * std::f32::consts::PI * j as f32 / segments as f32;
        rot * Point3::new(
            2.0 * th.sin() * ph.cos(),
            th.sin() * ph.sin(),
            0.5 * th.cos(),
        )
    };
    let mut tris = Vec::with_capacity(2 * rings * segments);
    for i in 0..rings {
        for j in 0..segments {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            tris.push(Triangle::new(a, b, c));
            tris.push(Triangle::new(a, c, d));
        }
    }
    tris
}

/// The benchmark meshes as `(name, triangles)`, smallest file first; a
/// generated ellipsoid when the directory holds none.
pub fn meshes() -> Vec<(String, Vec<Triangle<f32>>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(MESH_DIR)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "stl"))
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0));
    let mut out: Vec<(String, Vec<Triangle<f32>>)> = files
        .iter()
        .filter_map(|p| {
            Some((
                p.file_stem()?.to_string_lossy().into_owned(),
                read_stl(p).ok()?,
            ))
        })
        .filter(|(_, t)| !t.is_empty())
        .collect();
    if out.is_empty() {
        out.push(("generated_ellipsoid".to_owned(), generated_mesh(64, 128)));
    }
    out
}

/// The corners of a triangle list (three per triangle, not welded).
pub fn corners(tris: &[Triangle<f32>]) -> Vec<Point3<f32>> {
    tris.iter().flat_map(|t| t.vertices()).collect()
}

/// Converts triangles to `f64`.
pub fn to_f64(tris: &[Triangle<f32>]) -> Vec<Triangle<f64>> {
    tris.iter()
        .map(|t| Triangle::new(t.a.cast(), t.b.cast(), t.c.cast()))
        .collect()
}
