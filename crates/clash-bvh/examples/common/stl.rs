//! Reading binary STL files for the examples.

use clash_bvh::TriMesh;
use clash_math::{Point3, Triangle};

/// A binary STL file as a welded mesh (triangle `i` = facet `i`).
pub fn read_binary_stl(path: &str) -> Result<TriMesh<f64>, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let n = bytes
        .get(80..84)
        .ok_or("file too short for a binary STL header")?;
    let n = u32::from_le_bytes(n.try_into()?) as usize;
    if bytes.len() != 84 + 50 * n {
        return Err(format!(
            "{path}: {} bytes, a binary STL with {n} facets has {}",
            bytes.len(),
            84 + 50 * n
        )
        .into());
    }
    let f =
        |o: usize| f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]) as f64;
    let tris: Vec<Triangle<f64>> = (0..n)
        .map(|i| {
            let o = 84 + 50 * i + 12;
            let p = |k: usize| Point3::new(f(o + 12 * k), f(o + 12 * k + 4), f(o + 12 * k + 8));
            Triangle::new(p(0), p(1), p(2))
        })
        .collect();
    Ok(TriMesh::from_triangles(&tris)?.welded(0.0))
}
