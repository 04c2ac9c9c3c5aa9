//! Minimum-area enclosing rectangle of a planar point set by rotating
//! calipers over its convex hull (Toussaint 1983; RTCD §4.4.4). Used to
//! refine OBBs one axis at a time.
use clash_math::predicates::orient2d;

/// Convex hull of 2D points, counter-clockwise, no collinear vertices
/// (Andrew's monotone chain with the exact [`orient2d`]).
pub(crate) fn hull_2d(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut p: Vec<[f64; 2]> = points.to_vec();
    p.sort_by(|a, b| a.partial_cmp(b).unwrap_or(core::cmp::Ordering::Equal));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let mut h: Vec<[f64; 2]> = Vec::with_capacity(p.len() + 1);
    for pass in 0..2 {
        let start = h.len();
        for k in 0..p.len() {
            let q = if pass == 0 { p[k] } else { p[p.len() - 1 - k] };
            while h.len() >= start + 2 && orient2d(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                let _ = h.pop();
            }
            h.push(q);
        }
        let _ = h.pop();
    }
    h
}

/// The direction (unit `[cos, sin]`) of one side of the minimum-area
/// rectangle enclosing the convex polygon `h` (counter-clockwise), and that
/// area. Some side of the optimum is flush with a hull edge (Freeman and
/// Shapira 1975), so each edge is tried, with the three other extreme
/// vertices advanced monotonically (rotating calipers): O(n) in total.
pub(crate) fn min_area_direction(h: &[[f64; 2]]) -> Option<([f64; 2], f64)> {
    let n = h.len();
    if n < 3 {
        return None;
    }
    let dot = |a: [f64; 2], u: [f64; 2]| a[0] * u[0] + a[1] * u[1];
    let mut best: Option<([f64; 2], f64)> = None;
    let (mut hi_u, mut hi_v, mut lo_u) = (0usize, 0usize, 0usize);
    for i in 0..n {
        let (a, b) = (h[i], h[(i + 1) % n]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt();
        if len.is_nan() || len <= 0.0 {
            continue;
        }
        let u = [dx / len, dy / len];
        let v = [-u[1], u[0]]; // inward normal of a ccw polygon
        if i == 0 {
            // Initial extremes by a full scan.
            for k in 0..n {
                if dot(h[k], u) > dot(h[hi_u], u) {
                    hi_u = k;
                }
                if dot(h[k], v) > dot(h[hi_v], v) {
                    hi_v = k;
                }
                if dot(h[k], u) < dot(h[lo_u], u) {
                    lo_u = k;
                }
            }
        } else {
            for _ in 0..n {
                if dot(h[(hi_u + 1) % n], u) >= dot(h[hi_u], u) {
                    hi_u = (hi_u + 1) % n
                } else {
                    break;
                }
            }
            for _ in 0..n {
                if dot(h[(hi_v + 1) % n], v) >= dot(h[hi_v], v) {
                    hi_v = (hi_v + 1) % n
                } else {
                    break;
                }
            }
            for _ in 0..n {
                if dot(h[(lo_u + 1) % n], u) <= dot(h[lo_u], u) {
                    lo_u = (lo_u + 1) % n
                } else {
                    break;
                }
            }
        }
        let width = dot(h[hi_u], u) - dot(h[lo_u], u);
        let height = dot(h[hi_v], v) - dot(a, v);
        let area = width * height;
        if best.is_none_or(|(_, b)| area < b) {
            best = Some((u, area));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every hull edge direction, extents by a full scan.
    fn brute(h: &[[f64; 2]]) -> f64 {
        let mut best = f64::INFINITY;
        for i in 0..h.len() {
            let (a, b) = (h[i], h[(i + 1) % h.len()]);
            let l = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
            let u = [(b[0] - a[0]) / l, (b[1] - a[1]) / l];
            let v = [-u[1], u[0]];
            let pu: Vec<f64> = h.iter().map(|p| p[0] * u[0] + p[1] * u[1]).collect();
            let pv: Vec<f64> = h.iter().map(|p| p[0] * v[0] + p[1] * v[1]).collect();
            let w = pu.iter().cloned().fold(f64::MIN, f64::max)
                - pu.iter().cloned().fold(f64::MAX, f64::min);
            let hgt = pv.iter().cloned().fold(f64::MIN, f64::max)
                - pv.iter().cloned().fold(f64::MAX, f64::min);
            best = best.min(w * hgt);
        }
        best
    }

    #[test]
    fn calipers_match_brute_force() {
        let mut s = crate::fit::check::SplitMix(9);
        for n in [3usize, 4, 7, 20, 200] {
            for _ in 0..200 {
                let pts: Vec<[f64; 2]> = (0..n)
                    .map(|_| {
                        [
                            s.next_u64() as f64 / u64::MAX as f64 * 3.0,
                            s.next_u64() as f64 / u64::MAX as f64,
                        ]
                    })
                    .collect();
                let h = hull_2d(&pts);
                if h.len() < 3 {
                    continue;
                }
                let (_, area) = min_area_direction(&h).unwrap();
                let b = brute(&h);
                assert!((area - b).abs() <= 1e-9 * b.max(1e-300), "{area} vs {b}");
            }
        }
        // A rotated square: the optimum is the square itself.
        let (c, s2) = (0.3f64.cos(), 0.3f64.sin());
        let sq: Vec<[f64; 2]> = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
            .iter()
            .map(|p| [c * p[0] - s2 * p[1], s2 * p[0] + c * p[1]])
            .collect();
        let (_, area) = min_area_direction(&hull_2d(&sq)).unwrap();
        assert!((area - 1.0).abs() < 1e-12);
    }
}
