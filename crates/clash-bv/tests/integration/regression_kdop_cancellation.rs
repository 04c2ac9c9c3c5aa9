//! Regression: a k-DOP's diagonal slab was padded by the rounding of its
//! own values only. A diagonal projection adds up to three coordinates;
//! far from the origin, with coordinates that cancel (`x + y + z` small
//! while `|x| + |y| + |z|` is large), the sum's rounding is far larger than
//! the sum itself, and two touching triangles could get k-DOPs that miss
//! each other.
//!
//! Each scene: triangle A's top along the cube diagonal `(1, 1, 1)` is its
//! edge `UW` on the plane `x + y + z = s₀`; triangle B stands on the edge's
//! midpoint `P` (exact in `f32`) and rises along the diagonal. They touch
//! at `P` exactly, so their 14- and 26-DOPs must overlap.

use clash_bv::{BoundingVolume, FitVolume, Kdop14, Kdop26};
use clash_math::{Point3, Triangle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn scene(rng: &mut ChaCha8Rng) -> [Triangle<f32>; 2] {
    // Between 2^13 and 2^14 f32 steps by 2^-10, between 2^14 and 2^15 by
    // 2^-9. x and y are multiples of 2^-10 near 1e4, z a multiple of 2^-9
    // near -2e4, and s₀ an odd multiple of 2^-10: x + y (near 2e4) is then
    // an odd multiple of 2^-10 and rounds by 2^-10, a thousand times the
    // pad the slab's own values (about 4) gave.
    let q = |rng: &mut ChaCha8Rng, lo: f64, hi: f64, step: f64| {
        (rng.random_range(lo..hi) / step).round() * step
    };
    let s0 = (2 * rng.random_range(-2048i64..2048) + 1) as f64 / 1024.0;
    let z = q(rng, -20_500.0, -19_500.0, 1.0 / 512.0);
    let a = q(rng, 9_000.0, 11_000.0, 1.0 / 1024.0);
    let u = [a, s0 - z - a, z];
    // W = U + 2d with d · (1, 1, 1) = 0: the edge lies on the plane, and
    // its midpoint P = U + d keeps the same structure.
    let (d1, d3) = (
        q(rng, -2.0, 2.0, 1.0 / 1024.0),
        q(rng, -2.0, 2.0, 1.0 / 512.0),
    );
    let d = [d1, -d1 - d3, d3];
    let w = [u[0] + 2.0 * d[0], u[1] + 2.0 * d[1], u[2] + 2.0 * d[2]];
    let p = [u[0] + d[0], u[1] + d[1], u[2] + d[2]];
    let x = [u[0] - 1.0, u[1] - 1.0, u[2] - 1.0];
    let y = [p[0] + 1.0, p[1], p[2]];
    let z = [p[0], p[1] + 1.0, p[2]];
    let pt = |v: [f64; 3]| {
        let f = v.map(|c| c as f32);
        assert_eq!(f.map(f64::from), v, "the scene is exact in f32");
        Point3::new(f[0], f[1], f[2])
    };
    [
        Triangle::new(pt(u), pt(w), pt(x)),
        Triangle::new(pt(p), pt(y), pt(z)),
    ]
}

#[test]
fn touching_triangles_far_out_with_cancelling_coordinates() {
    let mut rng = ChaCha8Rng::seed_from_u64(2511);
    let mut misses = 0;
    for _ in 0..20_000 {
        let [a, b] = scene(&mut rng);
        let k14 = [
            Kdop14::fit_triangles(&[a]).unwrap(),
            Kdop14::fit_triangles(&[b]).unwrap(),
        ];
        let k26 = [
            Kdop26::fit_triangles(&[a]).unwrap(),
            Kdop26::fit_triangles(&[b]).unwrap(),
        ];
        if !k14[0].overlaps(&k14[1]) || !k26[0].overlaps(&k26[1]) {
            misses += 1;
        }
    }
    assert_eq!(
        misses, 0,
        "{misses} touching pairs whose k-DOPs miss each other"
    );
}
