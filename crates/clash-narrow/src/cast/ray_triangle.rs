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
    let sx = d[kx] / d[kz];
    let sy = d[ky] / d[kz];
    let sz = T::ONE / d[kz];

    let a = tri.a - ray.origin;
    let b = tri.b - ray.origin;
    let c = tri.c - ray.origin;
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
    let front = !neg;
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
    let (az, bz, cz) = (f(sz * a[kz]), f(sz * b[kz]), f(sz * c[kz]));
    let tt = T::lit((uu * az + vv * bz + ww * cz) / det);
    if !(tt >= t_min && tt <= t_max) {
        return None;
    }
    let (u, v, w) = (T::lit(uu / det), T::lit(vv / det), T::lit(ww / det));
    let point = Point3::from(tri.a.coords * u + tri.b.coords * v + tri.c.coords * w);
    let normal = tri
        .scaled_normal()
        .try_normalize(T::ZERO)
        .unwrap_or_else(Vector3::zeros);
    Some(TriangleHit {
        t: tt,
        u,
        v,
        w,
        point,
        normal,
        front,
    })
}
