//! Fitting spheres to point sets: Ritter's method, the PCA variant, iterative
//! refinement and Welzl's minimum sphere (RTCD §4.3.2–4.3.5).

use crate::FitError;
use crate::Sphere;
use crate::fit::check::{SplitMix, check_points};
use clash_math::{Point3, Scalar, Vector3, covariance_of_points, jacobi_eigen};

/// Seed of the deterministic shuffles (any constant would do).
const SEED: u64 = 0x5EED_C1A5_4B0B_0001;

/// Recomputes the radius as the largest distance from the centre to a point,
/// so that a fit contains its input whatever rounding happened on the way:
/// the square root is padded by 4 ulps, which covers the rounding of `sqrt`
/// and of the squared distance, so `contains_point` (which compares squared
/// distances) holds for every input point, and so does exact containment.
fn enclose<T: Scalar>(center: Point3<T>, points: &[Point3<T>]) -> Sphere<T> {
    let r2 = points
        .iter()
        .fold(T::ZERO, |m, p| m.max_of((p - center).norm_squared()));
    let r = r2.sqrt();
    let mut radius = r + r * T::EPSILON * T::lit(4.0);
    while radius * radius < r2 {
        radius += radius * T::EPSILON;
    }
    Sphere { center, radius }
}

/// The sphere with diameter `ab`, grown over all points (Ritter's second pass).
fn grow_from_pair<T: Scalar>(a: &Point3<T>, b: &Point3<T>, points: &[Point3<T>]) -> Sphere<T> {
    let mut s = Sphere {
        center: nalgebra_center(a, b),
        radius: (b - a).norm() * T::HALF,
    };
    for p in points {
        s.grow(p);
    }
    enclose(s.center, points)
}

fn nalgebra_center<T: Scalar>(a: &Point3<T>, b: &Point3<T>) -> Point3<T> {
    Point3::from((a.coords + b.coords) * T::HALF)
}

/// Indices of the points with the smallest and largest projection on `dir`.
fn extreme_points_along<T: Scalar>(dir: &Vector3<T>, points: &[Point3<T>]) -> (usize, usize) {
    let (mut lo, mut hi) = (0, 0);
    let (mut lo_v, mut hi_v) = (T::INFINITY, T::NEG_INFINITY);
    for (i, p) in points.iter().enumerate() {
        let v = p.coords.dot(dir);
        if v < lo_v {
            lo_v = v;
            lo = i;
        }
        if v > hi_v {
            hi_v = v;
            hi = i;
        }
    }
    (lo, hi)
}

impl<T: Scalar> Sphere<T> {
    /// Ritter's bounding sphere, RTCD §4.3.2: start from the most separated
    /// pair among the six axis-extreme points, then grow over all points.
    /// Typically 5–20% larger than the minimum sphere; two linear passes.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn ritter(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let mut best = (0, 0);
        let mut best_d = -T::ONE;
        for k in 0..3 {
            let (lo, hi) = extreme_points_along(&Vector3::ith(k, T::ONE), points);
            let d = (points[hi] - points[lo]).norm_squared();
            if d > best_d {
                best_d = d;
                best = (lo, hi);
            }
        }
        Ok(grow_from_pair(&points[best.0], &points[best.1], points))
    }

    /// Ritter's method seeded along the direction of maximum spread, RTCD
    /// §4.3.3: the eigenvector of the largest eigenvalue of the covariance
    /// matrix (Jacobi), its two extreme points as the initial diameter.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn ritter_eigen(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let cov = covariance_of_points(points)?;
        let eig = jacobi_eigen(&cov.matrix);
        let dir: Vector3<T> = eig.vectors.column(0).into_owned();
        let (lo, hi) = extreme_points_along(&dir, points);
        Ok(grow_from_pair(&points[lo], &points[hi], points))
    }

    /// Iterative refinement of the PCA-seeded Ritter sphere, RTCD §4.3.4:
    /// `iterations` times, shrink the best sphere so far by 5%, regrow it over
    /// the points in a shuffled order, and keep it when smaller. The shuffles
    /// come from a fixed-seed generator, so the result is deterministic.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn ritter_iterative(points: &[Point3<T>], iterations: usize) -> Result<Self, FitError> {
        let mut best = Self::ritter_eigen(points)?;
        let mut rng = SplitMix(SEED);
        let mut order: Vec<Point3<T>> = points.to_vec();
        for _ in 0..iterations {
            let mut s = Sphere {
                center: best.center,
                radius: best.radius * T::lit(0.95),
            };
            rng.shuffle(&mut order);
            for p in &order {
                s.grow(p);
            }
            let s = enclose(s.center, points);
            if s.radius < best.radius {
                best = s;
            }
        }
        Ok(best)
    }

    /// Welzl's minimum bounding sphere, RTCD §4.3.5, in the iterative form of
    /// bounded depth: a level with support set `R` scans the points before
    /// its own; a point outside the current ball restarts the scan one level
    /// deeper with that point added to `R`. `|R| <= 4`, so recursion is at
    /// most four deep whatever the input size, and a deterministic shuffle of
    /// the input gives the expected linear running time.
    ///
    /// Near-degenerate supports (collinear triples, coplanar quadruples)
    /// fall back to the smallest ball of the support points, and the final
    /// radius is recomputed over all points, so the result always contains
    /// the input; it is the minimum sphere up to rounding.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn welzl(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let mut pts = points.to_vec();
        SplitMix(SEED).shuffle(&mut pts);
        // Work relative to a local origin: keeps circumcentre arithmetic small.
        let origin = pts[0];
        let local: Vec<Vector3<T>> = pts.iter().map(|p| p - origin).collect();
        let mut support = [Vector3::zeros(); 4];
        let (c, _) = welzl_level(&local, local.len(), &mut support, 0);
        Ok(enclose(origin + c, points))
    }
}

/// Relative slack of the "inside" test, so rounding does not make a point on
/// the sphere restart a level forever.
fn slack<T: Scalar>() -> T {
    T::EPSILON * T::lit(64.0)
}

fn welzl_level<T: Scalar>(
    p: &[Vector3<T>],
    end: usize,
    support: &mut [Vector3<T>; 4],
    ns: usize,
) -> (Vector3<T>, T) {
    let (mut c, mut r2) = ball_of_support(&support[..ns]);
    if ns == 4 {
        return (c, r2);
    }
    for i in 0..end {
        let d2 = (p[i] - c).norm_squared();
        if d2 > r2 * (T::ONE + slack::<T>()) {
            support[ns] = p[i];
            let (c2, r22) = welzl_level(p, i, support, ns + 1);
            c = c2;
            r2 = r22;
        }
    }
    (c, r2)
}

/// Centre and squared radius of the circumsphere of the support points (the
/// smallest ball having them on its boundary), falling back to the smallest
/// enclosing ball of the few points when they are (nearly) degenerate.
fn ball_of_support<T: Scalar>(s: &[Vector3<T>]) -> (Vector3<T>, T) {
    match s.len() {
        0 => (Vector3::zeros(), -T::ONE),
        1 => (s[0], T::ZERO),
        2 => diameter_ball(&s[0], &s[1]),
        3 => circum3(&s[0], &s[1], &s[2]).unwrap_or_else(|| smallest_of_few(s)),
        _ => circum4(&s[0], &s[1], &s[2], &s[3]).unwrap_or_else(|| smallest_of_few(s)),
    }
}

fn diameter_ball<T: Scalar>(a: &Vector3<T>, b: &Vector3<T>) -> (Vector3<T>, T) {
    let c = (a + b) * T::HALF;
    (c, (a - c).norm_squared().max_of((b - c).norm_squared()))
}

/// Circumcentre of a triangle in its plane (RTCD §4.3.5); `None` when the
/// corners are nearly collinear.
fn circum3<T: Scalar>(a: &Vector3<T>, b: &Vector3<T>, c: &Vector3<T>) -> Option<(Vector3<T>, T)> {
    let (u, v) = (b - a, c - a);
    let n = u.cross(&v);
    let n2 = n.norm_squared();
    if !n2.finite() || n2 <= u.norm_squared() * v.norm_squared() * T::EPSILON * T::lit(16.0) {
        return None;
    }
    let off = (n.cross(&u) * v.norm_squared() + v.cross(&n) * u.norm_squared()) / (T::TWO * n2);
    let center = a + off;
    let r2 = off
        .norm_squared()
        .max_of((b - center).norm_squared())
        .max_of((c - center).norm_squared());
    r2.finite().then_some((center, r2))
}

/// Circumcentre of a tetrahedron: solves `2 (q_i - a) · x = |q_i - a|²`.
fn circum4<T: Scalar>(
    a: &Vector3<T>,
    b: &Vector3<T>,
    c: &Vector3<T>,
    d: &Vector3<T>,
) -> Option<(Vector3<T>, T)> {
    let (u, v, w) = (b - a, c - a, d - a);
    let det = u.dot(&v.cross(&w));
    let scale = u.norm() * v.norm() * w.norm();
    if !det.finite() || det.abs() <= scale * T::EPSILON * T::lit(64.0) {
        return None;
    }
    let off = (v.cross(&w) * u.norm_squared()
        + w.cross(&u) * v.norm_squared()
        + u.cross(&v) * w.norm_squared())
        / (T::TWO * det);
    let center = a + off;
    let r2 = [b, c, d].iter().fold(off.norm_squared(), |m, q| {
        m.max_of((*q - center).norm_squared())
    });
    r2.finite().then_some((center, r2))
}

/// Smallest ball enclosing up to four points, by trying every support subset.
fn smallest_of_few<T: Scalar>(s: &[Vector3<T>]) -> (Vector3<T>, T) {
    let n = s.len();
    let mut best: Option<(Vector3<T>, T)> = None;
    for mask in 1u32..(1 << n) {
        let sub: Vec<Vector3<T>> = (0..n)
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| s[i])
            .collect();
        let ball = match sub.len() {
            1 => Some((sub[0], T::ZERO)),
            2 => Some(diameter_ball(&sub[0], &sub[1])),
            3 => circum3(&sub[0], &sub[1], &sub[2]),
            _ => circum4(&sub[0], &sub[1], &sub[2], &sub[3]),
        };
        if let Some((c, r2)) = ball {
            let r2 = s.iter().fold(r2, |m, q| m.max_of((q - c).norm_squared()));
            if best.is_none_or(|(_, b)| r2 < b) {
                best = Some((c, r2));
            }
        }
    }
    best.unwrap_or((s[0], T::ZERO))
}
