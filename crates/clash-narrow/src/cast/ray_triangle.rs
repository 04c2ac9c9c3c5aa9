use clash_math::predicates::orient2d;
use clash_math::{Point3, Ray, Scalar, Triangle, Vector3};

/// Which sides of a triangle a ray may hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Culling {
    /// Hit both sides.
    BothSides,
    /// Hit only the front side: the side `(b - a) × (c - a)` points to, i.e.
    /// rays with `dir · ((b - a) × (c - a)) < 0` (counter-clockwise corners
    /// seen from the ray's origin).
    FrontOnly,
}

/// A ray/triangle hit with barycentric coordinates:
/// `point = u a + v b + w c`, `u + v + w = 1`, each in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleHit<T: Scalar> {
    /// Ray parameter of the hit.
    pub t: T,
    /// Weight of corner `a`.
    pub u: T,
    /// Weight of corner `b`.
    pub v: T,
    /// Weight of corner `c`.
    pub w: T,
    /// The hit point `u a + v b + w c`.
    pub point: Point3<T>,
    /// Unit normal `(b - a) × (c - a)` normalised (not flipped towards the ray).
    pub normal: Vector3<T>,
    /// `true` when the ray hits the front side (`dir · normal < 0`).
    pub front: bool,
}

/// Watertight ray/triangle intersection (Woop, Benthin, Wald, "Watertight
/// Ray/Triangle Intersection", JCGT 2013; barycentric formulation of
/// RTCD §5.3.4–5.3.6).
///
/// The triangle is translated to the ray origin, the axes are permuted so the
/// largest direction component is `z`, and a shear maps the ray to the `z`
/// axis. The three 2D edge functions `U, V, W` of the sheared corners decide
/// the hit; `t`, `u, v, w` follow by one division.
///
/// **Guarantee.** The sheared corner coordinates depend only on the corner and
/// the ray, so two triangles sharing an edge see identical coordinates for
/// it, and the edge function of the shared edge is computed as the exact
/// negation in the neighbour. For `f32` the edge functions are evaluated in
/// `f64`, where the products are exact, so their signs are exact for the
/// sheared coordinates; for `f64`, any edge function that rounds to zero
/// triggers an exact re-evaluation (Shewchuk's `orient2d`) of all three.
/// Hence a ray through the shared edge or vertex of a closed fan or grid
/// (each triangle counted with `Culling::BothSides`) hits at least one of the
/// triangles: no ray slips through. Edges and corners count as inside.
///
/// Degenerate triangles (zero projected area) never hit. Returns `None` on a
/// miss, outside `[t_min, t_max]`, or for non-finite input.
pub fn ray_triangle<T: Scalar>(
    ray: &Ray<T>,
    tri: &Triangle<T>,
    culling: Culling,
    t_min: T,
    t_max: T,
) -> Option<TriangleHit<T>> {
    if !super::valid_query(ray, t_min, t_max) || !tri.is_finite() {
        return None;
    }
    ShearedRay::new(ray)?
        .hit(tri, culling, t_min, t_max)
        .map(|h| h.complete(tri))
}

/// A ray prepared for many watertight triangle tests: the axis permutation
/// and shear of [`ray_triangle`] computed once, so that each further
/// triangle costs only the three edge functions and, on a hit, one division.
///
/// [`ShearedRay::hit`] gives exactly the answer of [`ray_triangle`] (same
/// arithmetic, same watertightness guarantee) without the hit point and
/// normal, which [`BarycentricHit::complete`] adds for the one hit a
/// closest-hit query keeps.
///
/// ```
/// use clash_math::{Point3, Ray, Triangle, Vector3};
/// use clash_narrow::cast::{Culling, ShearedRay, ray_triangle};
///
/// let t = Triangle::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
/// let ray = Ray::new(Point3::new(0.25, 0.25, 2.0), -Vector3::z());
/// let sheared = ShearedRay::new(&ray).unwrap();
/// let hit = sheared.hit(&t, Culling::BothSides, 0.0, f64::INFINITY).unwrap();
/// assert_eq!(Some(hit.complete(&t)), ray_triangle(&ray, &t, Culling::BothSides, 0.0, f64::INFINITY));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShearedRay<T: Scalar> {
    origin: Point3<T>,
    kx: usize,
    ky: usize,
    kz: usize,
    sx: T,
    sy: T,
    sz: T,
}

/// A ray/triangle hit without its point and normal: what
/// [`ShearedRay::hit`] returns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarycentricHit<T: Scalar> {
    /// Ray parameter of the hit.
    pub t: T,
    /// Weight of corner `a`.
    pub u: T,
    /// Weight of corner `b`.
    pub v: T,
    /// Weight of corner `c`.
    pub w: T,
    /// `true` when the ray hits the front side.
    pub front: bool,
}

impl<T: Scalar> BarycentricHit<T> {
    /// The full hit on `tri` (the triangle this hit was computed for): adds
    /// the point `u a + v b + w c` and the unit normal.
    #[inline]
    pub fn complete(&self, tri: &Triangle<T>) -> TriangleHit<T> {
        let (u, v, w) = (self.u, self.v, self.w);
        let point = Point3::from(tri.a.coords * u + tri.b.coords * v + tri.c.coords * w);
        let normal = tri
            .scaled_normal()
            .try_normalize(T::ZERO)
            .unwrap_or_else(Vector3::zeros);
        TriangleHit {
            t: self.t,
            u,
            v,
            w,
            point,
            normal,
            front: self.front,
        }
    }
}

impl<T: Scalar> ShearedRay<T> {
    /// Prepares `ray`; `None` when its origin or direction is not finite or
    /// the direction is zero (such a ray hits nothing).
    #[inline]
    pub fn new(ray: &Ray<T>) -> Option<Self> {
        if !super::valid_query(ray, T::ZERO, T::ZERO) {
            return None;
        }
        let d = ray.dir;
        let ad = d.map(|x| x.abs());
        let kz = if ad.x >= ad.y && ad.x >= ad.z {
            0
        } else if ad.y >= ad.z {
            1
        } else {
            2
        };
        let mut kx = (kz + 1) % 3;
        let mut ky = (kx + 1) % 3;
        if d[kz] < T::ZERO {
            core::mem::swap(&mut kx, &mut ky);
        }
        if d[kz] == T::ZERO {
            return None; // zero direction
        }
        Some(Self {
            origin: ray.origin,
            kx,
            ky,
            kz,
            sx: d[kx] / d[kz],
            sy: d[ky] / d[kz],
            sz: T::ONE / d[kz],
        })
    }

    /// The watertight test of [`ray_triangle`] against a finite triangle
    /// (for a triangle with non-finite corners the answer is unspecified,
    /// though never a panic): the hit within `[t_min, t_max]`, or `None`.
    #[inline]
    pub fn hit(
        &self,
        tri: &Triangle<T>,
        culling: Culling,
        t_min: T,
        t_max: T,
    ) -> Option<BarycentricHit<T>> {
        let (kx, ky, kz) = (self.kx, self.ky, self.kz);
        let (sx, sy, sz) = (self.sx, self.sy, self.sz);
        // Each corner translated to the origin (only the three coordinates
        // used, read in place), then sheared.
        let o = &self.origin;
        let shear = |p: &Point3<T>| {
            let z = p[kz] - o[kz];
            (p[kx] - o[kx] - sx * z, p[ky] - o[ky] - sy * z, z)
        };
        let (ax, ay, a_z) = shear(&tri.a);
        let (bx, by, b_z) = shear(&tri.b);
        let (cx, cy, c_z) = shear(&tri.c);

        let f = |x: T| x.to_f64();
        let mut uu = f(cx) * f(by) - f(cy) * f(bx);
        let mut vv = f(ax) * f(cy) - f(ay) * f(cx);
        let mut ww = f(bx) * f(ay) - f(by) * f(ax);
        if uu == 0.0 || vv == 0.0 || ww == 0.0 {
            let o = [0.0, 0.0];
            uu = orient2d(o, [f(cx), f(cy)], [f(bx), f(by)]);
            vv = orient2d(o, [f(ax), f(ay)], [f(cx), f(cy)]);
            ww = orient2d(o, [f(bx), f(by)], [f(ax), f(ay)]);
        }
        let neg = uu < 0.0 || vv < 0.0 || ww < 0.0;
        let pos = uu > 0.0 || vv > 0.0 || ww > 0.0;
        match culling {
            Culling::FrontOnly if neg => return None,
            Culling::BothSides if neg && pos => return None,
            _ => {}
        }
        // All same sign (or zero): the determinant is non-zero unless all are.
        let det = uu + vv + ww;
        if det == 0.0 {
            return None;
        }
        let (az, bz, cz) = (f(sz * a_z), f(sz * b_z), f(sz * c_z));
        let tt = T::lit((uu * az + vv * bz + ww * cz) / det);
        if !(tt >= t_min && tt <= t_max) {
            return None;
        }
        Some(BarycentricHit {
            t: tt,
            u: T::lit(uu / det),
            v: T::lit(vv / det),
            w: T::lit(ww / det),
            front: !neg,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// [`ShearedRay::hit`] as first written (whole corners translated, then
    /// permuted): the reading of only the used coordinates must not change
    /// any answer, bit for bit.
    fn reference<T: Scalar>(
        r: &ShearedRay<T>,
        tri: &Triangle<T>,
        culling: Culling,
        t_min: T,
        t_max: T,
    ) -> Option<BarycentricHit<T>> {
        let (kx, ky, kz) = (r.kx, r.ky, r.kz);
        let (sx, sy, sz) = (r.sx, r.sy, r.sz);
        let a = tri.a - r.origin;
        let b = tri.b - r.origin;
        let c = tri.c - r.origin;
        let (ax, ay) = (a[kx] - sx * a[kz], a[ky] - sy * a[kz]);
        let (bx, by) = (b[kx] - sx * b[kz], b[ky] - sy * b[kz]);
        let (cx, cy) = (c[kx] - sx * c[kz], c[ky] - sy * c[kz]);
        let f = |x: T| x.to_f64();
        let mut uu = f(cx) * f(by) - f(cy) * f(bx);
        let mut vv = f(ax) * f(cy) - f(ay) * f(cx);
        let mut ww = f(bx) * f(ay) - f(by) * f(ax);
        if uu == 0.0 || vv == 0.0 || ww == 0.0 {
            let o = [0.0, 0.0];
            uu = orient2d(o, [f(cx), f(cy)], [f(bx), f(by)]);
            vv = orient2d(o, [f(ax), f(ay)], [f(cx), f(cy)]);
            ww = orient2d(o, [f(bx), f(by)], [f(ax), f(ay)]);
        }
        let neg = uu < 0.0 || vv < 0.0 || ww < 0.0;
        let pos = uu > 0.0 || vv > 0.0 || ww > 0.0;
        match culling {
            Culling::FrontOnly if neg => return None,
            Culling::BothSides if neg && pos => return None,
            _ => {}
        }
        let det = uu + vv + ww;
        if det == 0.0 {
            return None;
        }
        let (az, bz, cz) = (f(sz * a[kz]), f(sz * b[kz]), f(sz * c[kz]));
        let tt = T::lit((uu * az + vv * bz + ww * cz) / det);
        if !(tt >= t_min && tt <= t_max) {
            return None;
        }
        Some(BarycentricHit {
            t: tt,
            u: T::lit(uu / det),
            v: T::lit(vv / det),
            w: T::lit(ww / det),
            front: !neg,
        })
    }

    fn bits<T: Scalar>(h: Option<BarycentricHit<T>>) -> Option<[u64; 4]> {
        h.map(|h| [h.t, h.u, h.v, h.w].map(|x| x.to_f64().to_bits()))
    }

    /// Random triangles on a coarse grid (shared edges and corners, rays
    /// through them, flat and degenerate triangles) and random ones, every
    /// direction, both cullings, several intervals: same answers as the
    /// reference, bit for bit.
    fn same_as_reference<T: Scalar>(seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut hits = 0;
        for i in 0..60_000 {
            let grid = i % 2 == 0;
            let mut c = |s: f64| {
                if grid {
                    T::lit(f64::from(rng.random_range(-2..=2i32)) * s)
                } else {
                    T::lit(rng.random_range(-2.0..2.0) * s)
                }
            };
            let mut p = |s: f64| Point3::new(c(s), c(s), c(s));
            let tri = Triangle::new(p(1.0), p(1.0), p(1.0));
            let o = p(3.0);
            let target = p(0.5);
            let mut dir = target - o;
            if i % 7 == 0 {
                dir[i % 3] = T::ZERO;
            }
            let ray = Ray::new(o, dir);
            let Some(sheared) = ShearedRay::new(&ray) else {
                continue;
            };
            let culling = if i % 3 == 0 {
                Culling::FrontOnly
            } else {
                Culling::BothSides
            };
            let (t_min, t_max) = if i % 5 == 0 {
                (T::lit(0.5), T::lit(1.0))
            } else {
                (T::ZERO, T::INFINITY)
            };
            let got = sheared.hit(&tri, culling, t_min, t_max);
            assert_eq!(
                bits(got),
                bits(reference(&sheared, &tri, culling, t_min, t_max)),
                "{ray:?} {tri:?}"
            );
            assert_eq!(
                got.map(|h| h.front),
                reference(&sheared, &tri, culling, t_min, t_max).map(|h| h.front)
            );
            hits += usize::from(got.is_some());
        }
        assert!(hits > 5_000, "too few hits: {hits}");
    }

    #[test]
    fn sheared_hit_equals_the_reference_f32() {
        same_as_reference::<f32>(91);
    }

    #[test]
    fn sheared_hit_equals_the_reference_f64() {
        same_as_reference::<f64>(92);
    }
}
