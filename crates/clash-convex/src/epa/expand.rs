//! The EPA iteration: expand through the closest face until the support
//! point beyond it is within tolerance.

use super::polytope::{Face, Polytope};
use super::start::{Start, start};
use crate::gjk::minkowski::MinkowskiPair;
use crate::gjk::simplex::Simplex;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Vector3};

/// EPA's answer, in `A`'s frame, for the cores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EpaOutput<T: Scalar> {
    /// Unit outward normal of `A - B` at its boundary point closest to the
    /// origin: the direction from `A` to `B`.
    pub normal: Vector3<T>,
    /// Penetration depth of the cores (a lower bound when not converged).
    pub depth: T,
    /// An upper bound on the depth.
    pub upper: T,
    /// Witness points on `A` and `B` with `a - b = depth * normal`.
    pub a: Point3<T>,
    pub b: Point3<T>,
    /// `false` when capacity, the iteration limit or rounding stopped it.
    pub converged: bool,
}

/// The penetration depth of the cores of `pair`, whose difference holds the
/// origin in (or on) GJK's final `simplex`. `eps` is the absolute tolerance.
pub(crate) fn penetration<T, A, B>(
    pair: &mut MinkowskiPair<'_, T, A, B>,
    simplex: &Simplex<T>,
    eps: T,
    touch: T,
    max_iterations: u32,
) -> EpaOutput<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let mut poly = Polytope::new(touch);
    match start(pair, simplex, eps, &mut poly) {
        Start::Boundary(normal) => {
            let (a, b) = simplex.witnesses();
            return EpaOutput {
                normal,
                depth: T::ZERO,
                upper: T::ZERO,
                a,
                b,
                converged: true,
            };
        }
        Start::Solid => {}
    }
    let mut upper = T::INFINITY;
    let mut best: Option<Face<T>> = None;
    for _ in 0..max_iterations.max(1) {
        let Some(fi) = poly.closest_face() else { break };
        let face = poly.faces[fi as usize];
        best = Some(face);
        let p = pair.support(&face.normal);
        let reach = face.normal.dot(&p.w);
        upper = upper.min_of(reach);
        if reach - face.dist <= eps {
            return output(&poly, &face, eps, upper, true);
        }
        if poly.verts.iter().any(|q| q.w == p.w) {
            // No new point: the face is on the boundary as far as rounding
            // can tell.
            return output(&poly, &face, eps, upper, true);
        }
        let Some(w) = poly.add_vertex(p) else { break };
        if poly.expand(fi, w).is_err() {
            break;
        }
    }
    match best {
        Some(face) => output(&poly, &face, eps, upper, false),
        None => {
            let (a, b) = simplex.witnesses();
            EpaOutput {
                normal: Vector3::x(),
                depth: T::ZERO,
                upper,
                a,
                b,
                converged: false,
            }
        }
    }
}

/// The answer on `face`: its normal and distance give the depth, and the
/// point `p = normal * dist` of the boundary, written in barycentric
/// coordinates of the face that holds it, the witnesses. Rounding can leave
/// `p` just outside `face` (slivers side by side, coplanar faces): then the
/// live face whose plane passes within `eps` of `p` and holds it best is
/// used for the witnesses.
fn output<T: Scalar>(
    poly: &Polytope<T>,
    face: &Face<T>,
    eps: T,
    upper: T,
    converged: bool,
) -> EpaOutput<T> {
    let p = face.normal * face.dist;
    let mut chosen = *face;
    let mut l = barycentric(poly, face, &p);
    let worst = |l: &[T; 3]| l[0].min_of(l[1]).min_of(l[2]);
    if worst(&l) < T::ZERO {
        for f in poly.faces.iter().filter(|f| f.alive) {
            if (f.normal.dot(&p) - f.dist).abs() <= eps {
                let lf = barycentric(poly, f, &p);
                if worst(&lf) > worst(&l) {
                    l = lf;
                    chosen = *f;
                }
            }
        }
    }
    let l = l.map(|x| x.max_of(T::ZERO));
    let sum = l[0] + l[1] + l[2];
    let l = if sum > T::ZERO {
        l.map(|x| x / sum)
    } else {
        [T::ONE / T::lit(3.0); 3]
    };
    let [va, vb, vc] = chosen.v.map(|i| poly.verts[i as usize]);
    let a = va.a.coords * l[0] + vb.a.coords * l[1] + vc.a.coords * l[2];
    let b = va.b.coords * l[0] + vb.b.coords * l[1] + vc.b.coords * l[2];
    let depth = face.dist.max_of(T::ZERO);
    EpaOutput {
        normal: face.normal,
        depth,
        upper: upper.max_of(depth),
        a: Point3::from(a),
        b: Point3::from(b),
        converged,
    }
}

/// The barycentric coordinates of `p` projected on `face`'s plane
/// (normalised; negative outside the face).
fn barycentric<T: Scalar>(poly: &Polytope<T>, face: &Face<T>, p: &Vector3<T>) -> [T; 3] {
    let n = face.normal;
    let p = p - n * (n.dot(p) - face.dist);
    let [va, vb, vc] = face.v.map(|i| poly.verts[i as usize].w);
    let l = [
        n.dot(&(vb - p).cross(&(vc - p))),
        n.dot(&(vc - p).cross(&(va - p))),
        n.dot(&(va - p).cross(&(vb - p))),
    ];
    let sum = l[0] + l[1] + l[2];
    if sum > T::ZERO {
        l.map(|x| x / sum)
    } else {
        [T::ONE / T::lit(3.0); 3]
    }
}
