//! The generated ellipsoid of the build benches, for the examples.

use clash_bvh::TriMesh;
use clash_math::{Point3, Triangle};

/// The benches' generated ellipsoid (`rings * segments * 2` triangles).
pub fn ellipsoid(rings: usize, segments: usize) -> TriMesh<f64> {
    let rot = clash_math::Rotation3::from_euler_angles(0.3_f32, 0.5, 0.7);
    let v = |i: usize, j: usize| {
        let th = std::f32::consts::PI * i as f32 / rings as f32;
        let ph = 2.0 * std::f32::consts::PI * j as f32 / segments as f32;
        let p = rot
            * Point3::new(
                2.0 * th.sin() * ph.cos(),
                th.sin() * ph.sin(),
                0.5 * th.cos(),
            );
        Point3::new(p.x as f64, p.y as f64, p.z as f64)
    };
    let mut tris = Vec::with_capacity(2 * rings * segments);
    for i in 0..rings {
        for j in 0..segments {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            tris.push(Triangle::new(a, b, c));
            tris.push(Triangle::new(a, c, d));
        }
    }
    TriMesh::from_triangles(&tris).unwrap().welded(0.0)
}
