//! Box against box by the separating-axis test (RTCD §4.4.1; Gottschalk
//! 1996): the three face normals of each box and the nine cross products of
//! their edges. When no axis separates the cores, the axis of least overlap
//! is the contact normal and its overlap the penetration depth, exact for
//! boxes; the witness points come from the features that meet along it
//! (the incident face clipped against the reference face, or the two
//! edges). When an axis separates them, the distance is GJK's, started from
//! that axis.

use super::Relative;
use crate::manifold::clip::clip_to_box_face;
use crate::query::{ContactResult, QueryStatus, WarmStart};
use crate::shape::Cuboid;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Segment, Vector3};
use clash_narrow::closest::segment_segment;

/// Edge pairs closer to parallel than this (the sine of their angle) are
/// left to the face axes, which then bound the depth within this fraction
/// of the boxes' size.
const PARALLEL: f64 = 1e-8;

/// The axis of least overlap.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Axis {
    /// Face `i` of the first box.
    FaceA(usize),
    /// Face `j` of the second box.
    FaceB(usize),
    /// Edge `i` of the first box across edge `j` of the second.
    Edges(usize, usize),
}

/// What the separating-axis test found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Sat<T: Scalar> {
    /// The cores overlap (or touch) by `depth` along the unit `normal`
    /// (from the first box to the second), on `axis`.
    Overlap {
        depth: T,
        normal: Vector3<T>,
        axis: Axis,
    },
    /// The unit axis separates the cores (pointing from the first to the
    /// second).
    Separated(Vector3<T>),
}

/// The separating-axis test of two box cores, in the first box's frame.
pub(crate) fn sat<T: Scalar>(ea: &Vector3<T>, eb: &Vector3<T>, rel: &Relative<T>) -> Sat<T> {
    let r = &rel.rot;
    let t = &rel.trans;
    let abs = r.abs();
    let mut best = (T::INFINITY, Vector3::x(), Axis::FaceA(0));
    let sign = |s: T| if s >= T::ZERO { T::ONE } else { -T::ONE };
    for i in 0..3 {
        let rb = eb.dot(&abs.row(i).transpose());
        let s = t[i];
        let overlap = ea[i] + rb - s.abs();
        let mut n = Vector3::zeros();
        n[i] = sign(s);
        if overlap < T::ZERO {
            return Sat::Separated(n);
        }
        if overlap < best.0 {
            best = (overlap, n, Axis::FaceA(i));
        }
    }
    for j in 0..3 {
        let ra = ea.dot(&abs.column(j).into_owned());
        let bj = r.column(j).into_owned();
        let s = t.dot(&bj);
        let overlap = ra + eb[j] - s.abs();
        let n = bj * sign(s);
        if overlap < T::ZERO {
            return Sat::Separated(n);
        }
        if overlap < best.0 {
            best = (overlap, n, Axis::FaceB(j));
        }
    }
    let parallel = T::lit(PARALLEL);
    for i in 0..3 {
        for j in 0..3 {
            let mut ei = Vector3::zeros();
            ei[i] = T::ONE;
            let l = ei.cross(&r.column(j).into_owned());
            let len = l.norm();
            if !(len > parallel) {
                continue;
            }
            let l = l / len;
            let ra = ea.dot(&l.abs());
            let rb = eb.dot(&r.tr_mul(&l).abs());
            let s = t.dot(&l);
            let overlap = ra + rb - s.abs();
            let n = l * sign(s);
            if overlap < T::ZERO {
                return Sat::Separated(n);
            }
            // Faces win ties: their witnesses are the more stable.
            if overlap < best.0 * (T::ONE - T::EPSILON * T::lit(64.0)) {
                best = (overlap, n, Axis::Edges(i, j));
            }
        }
    }
    Sat::Overlap {
        depth: best.0,
        normal: best.1,
        axis: best.2,
    }
}

/// The corners of face `dir` (a signed unit axis of the box's frame) of a
/// box with half-extents `e`, counter-clockwise seen from outside.
pub(crate) fn face_corners<T: Scalar>(
    e: &Vector3<T>,
    axis: usize,
    positive: bool,
) -> [Point3<T>; 4] {
    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut p = [Point3::origin(); 4];
    let s = if positive { T::ONE } else { -T::ONE };
    let signs = [
        (-T::ONE, -T::ONE),
        (T::ONE, -T::ONE),
        (T::ONE, T::ONE),
        (-T::ONE, T::ONE),
    ];
    for (k, (su, sv)) in signs.into_iter().enumerate() {
        p[k][axis] = s * e[axis];
        // Reversing the order on the negative face keeps it
        // counter-clockwise seen from outside.
        let (su, sv) = if positive { (su, sv) } else { (sv, su) };
        p[k][u] = su * e[u];
        p[k][v] = sv * e[v];
    }
    p
}

/// The face of box `e` (frame `rel` in the reference frame) most opposed to
/// `n`: its corners in the reference frame.
pub(crate) fn incident_face<T: Scalar>(
    e: &Vector3<T>,
    rel: &Relative<T>,
    n: &Vector3<T>,
) -> [Point3<T>; 4] {
    let local = rel.rot.tr_mul(n);
    let k = local.iamax();
    let corners = face_corners(e, k, local[k] < T::ZERO);
    corners.map(|p| rel.apply(&p))
}

/// Witnesses for a face axis: the incident face of box `eb` (placed by `rel`)
/// clipped to face `i` of box `ea` along `n`, its deepest point `b` and that
/// point on the reference face `a`.
fn face_witnesses<T: Scalar>(
    ea: &Vector3<T>,
    eb: &Vector3<T>,
    rel: &Relative<T>,
    i: usize,
    n: &Vector3<T>,
) -> (Point3<T>, Point3<T>) {
    let incident = incident_face(eb, rel, n);
    let plane = ea[i];
    let ni = n[i];
    let clipped = clip_to_box_face(&incident, ea, i);
    let deepest = clipped.iter().copied().max_by(|p, q| {
        (-p[i] * ni)
            .partial_cmp(&(-q[i] * ni))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let b = deepest.unwrap_or_else(|| {
        // Rounding clipped everything away: the deepest corner of the box.
        let local = rel.rot.tr_mul(&-n);
        let c = Point3::from(Vector3::from_fn(|k, _| {
            if local[k] >= T::ZERO { eb[k] } else { -eb[k] }
        }));
        rel.apply(&c)
    });
    let mut a = b;
    a[i] = ni * plane;
    (a, b)
}

/// The witnesses of an overlap on `axis` with normal `n` (first frame).
pub(crate) fn witnesses<T: Scalar>(
    ea: &Vector3<T>,
    eb: &Vector3<T>,
    rel: &Relative<T>,
    axis: Axis,
    n: &Vector3<T>,
) -> (Point3<T>, Point3<T>) {
    match axis {
        Axis::FaceA(i) => face_witnesses(ea, eb, rel, i, n),
        Axis::FaceB(j) => {
            // The same in the second box's frame, roles swapped.
            let inv = Relative {
                rot: rel.rot.transpose(),
                trans: -rel.rot.tr_mul(&rel.trans),
            };
            let nb = -rel.rot.tr_mul(n);
            let (b, a) = face_witnesses(eb, ea, &inv, j, &nb);
            (rel.apply(&a), rel.apply(&b))
        }
        Axis::Edges(i, j) => {
            // A's edge along axis i at its corner towards n; B's edge along
            // its axis j at its corner towards -n.
            let mut pa = Point3::from(Vector3::from_fn(|k, _| {
                if n[k] >= T::ZERO { ea[k] } else { -ea[k] }
            }));
            let mut qa = pa;
            pa[i] = -ea[i];
            qa[i] = ea[i];
            let nb = rel.rot.tr_mul(&-n);
            let mut pb = Point3::from(Vector3::from_fn(|k, _| {
                if nb[k] >= T::ZERO { eb[k] } else { -eb[k] }
            }));
            let mut qb = pb;
            pb[j] = -eb[j];
            qb[j] = eb[j];
            let c = segment_segment(
                &Segment::new(pa, qa),
                &Segment::new(rel.apply(&pb), rel.apply(&qb)),
            );
            (c.points.a, c.points.b)
        }
    }
}

/// The contact of two boxes whose cores overlap; `Err(axis)` with a
/// separating axis when the cores are apart (GJK then measures the
/// distance).
pub(crate) fn contact<T: Scalar>(
    a: &Cuboid<T>,
    b: &Cuboid<T>,
    rel: &Relative<T>,
) -> Result<ContactResult<T>, Vector3<T>> {
    let (ea, eb) = (a.half_extents(), b.half_extents());
    match sat(&ea, &eb, rel) {
        Sat::Separated(axis) => Err(axis),
        Sat::Overlap {
            depth,
            normal,
            axis,
        } => {
            let (pa, pb) = witnesses(&ea, &eb, rel, axis, &normal);
            let (ma, mb) = (a.margin(), b.margin());
            Ok(ContactResult {
                distance: -(depth + ma + mb),
                normal,
                nearest_points: [pa + normal * ma, pb - normal * mb],
                status: QueryStatus::Converged,
                error_bound: T::ZERO,
                warm_start: WarmStart {
                    direction: -normal,
                    hints: [0, 0],
                },
            })
        }
    }
}
