//! Closed forms for a point against the round solids (in the solid's local
//! frame), and inscribed and circumscribed polytopes that bracket a round
//! solid for the polytope oracles.

use clash_convex::ConvexHull;
use clash_math::Point3;

/// Distance from `(rho, z)` to the segment `p q` in the plane.
fn seg2(rho: f64, z: f64, p: (f64, f64), q: (f64, f64)) -> f64 {
    let (dx, dz) = (q.0 - p.0, q.1 - p.1);
    let len2 = dx * dx + dz * dz;
    let t = if len2 > 0.0 {
        (((rho - p.0) * dx + (z - p.1) * dz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (ex, ez) = (p.0 + t * dx - rho, p.1 + t * dz - z);
    (ex * ex + ez * ez).sqrt()
}

/// Signed distance from `p` to the cylinder of half-height `h` and radius
/// `r` along z (negative inside: minus the depth).
pub fn point_cylinder(p: &Point3<f64>, h: f64, r: f64) -> f64 {
    let rho = (p.x * p.x + p.y * p.y).sqrt();
    let (dx, dz) = (rho - r, p.z.abs() - h);
    if dx > 0.0 || dz > 0.0 {
        (dx.max(0.0).powi(2) + dz.max(0.0).powi(2)).sqrt()
    } else {
        dx.max(dz)
    }
}

/// Signed distance from `p` to the cone with apex `(0, 0, h)` and base of
/// radius `r` at `z = -h`.
pub fn point_cone(p: &Point3<f64>, h: f64, r: f64) -> f64 {
    let rho = (p.x * p.x + p.y * p.y).sqrt();
    let (apex, rim, base) = ((0.0, h), (r, -h), (0.0, -h));
    let slant = seg2(rho, p.z, apex, rim);
    let bottom = seg2(rho, p.z, rim, base);
    let inside = p.z >= -h && p.z <= h && rho <= r * (h - p.z) / (2.0 * h);
    if inside {
        -slant.min(bottom)
    } else {
        slant.min(bottom).min(seg2(rho, p.z, base, apex))
    }
}

/// Signed distance from `p` to the capsule of half-height `h` and radius `r`.
pub fn point_capsule(p: &Point3<f64>, h: f64, r: f64) -> f64 {
    let z = p.z.clamp(-h, h);
    ((p.x * p.x + p.y * p.y + (p.z - z).powi(2)).sqrt()) - r
}

/// Signed distance from `p` to the box of half-extents `e`.
pub fn point_box(p: &Point3<f64>, e: [f64; 3]) -> f64 {
    let d = [p.x.abs() - e[0], p.y.abs() - e[1], p.z.abs() - e[2]];
    if d.iter().any(|&x| x > 0.0) {
        d.iter().map(|x| x.max(0.0).powi(2)).sum::<f64>().sqrt()
    } else {
        d[0].max(d[1]).max(d[2])
    }
}

/// Polytopes inside and around a cylinder (`n` points per rim).
pub fn cylinder_bracket(h: f64, r: f64, n: usize) -> (ConvexHull<f64>, ConvexHull<f64>) {
    let ring = |radius: f64| {
        let mut pts = Vec::new();
        for i in 0..n {
            let t = i as f64 * std::f64::consts::TAU / n as f64;
            for z in [-h, h] {
                pts.push(Point3::new(radius * t.cos(), radius * t.sin(), z));
            }
        }
        ConvexHull::new(&pts).unwrap()
    };
    (ring(r), ring(r / (std::f64::consts::PI / n as f64).cos()))
}

/// Polytopes inside and around a cone (`n` points on the base rim).
pub fn cone_bracket(h: f64, r: f64, n: usize) -> (ConvexHull<f64>, ConvexHull<f64>) {
    let ring = |radius: f64| {
        let mut pts = vec![Point3::new(0.0, 0.0, h)];
        for i in 0..n {
            let t = i as f64 * std::f64::consts::TAU / n as f64;
            pts.push(Point3::new(radius * t.cos(), radius * t.sin(), -h));
        }
        ConvexHull::new(&pts).unwrap()
    };
    (ring(r), ring(r / (std::f64::consts::PI / n as f64).cos()))
}
