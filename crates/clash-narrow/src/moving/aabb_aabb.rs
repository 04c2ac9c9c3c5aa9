use super::{Contact, pfinite, valid_horizon, vfinite};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Vector3};

/// First contact of two AABBs moving with velocities `va`, `vb` during
/// `[0, t_end]`, Ericson, RTCD §5.5.8: on each coordinate axis the time
/// interval in which the projections overlap is computed and the three
/// intervals are intersected. The point is the centre of the (flat)
/// intersection box at the contact time; the normal is the axis entered last,
/// pointing from `a` to `b`.
pub fn aabb_aabb<T: Scalar>(
    a: &Aabb<T>,
    va: &Vector3<T>,
    b: &Aabb<T>,
    vb: &Vector3<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !pfinite(&a.min)
        || !pfinite(&a.max)
        || !pfinite(&b.min)
        || !pfinite(&b.max)
        || !vfinite(va)
        || !vfinite(vb)
        || !valid_horizon(t_end)
    {
        return None;
    }
    let w = vb - va;
    let mut first = T::ZERO;
    let mut last = t_end;
    let mut normal = Vector3::zeros();
    for i in 0..3 {
        let s = w[i];
        let (enter, exit, sign) = if s > T::ZERO {
            (
                (a.min[i] - b.max[i]) / s,
                (a.max[i] - b.min[i]) / s,
                -T::ONE,
            )
        } else if s < T::ZERO {
            ((a.max[i] - b.min[i]) / s, (a.min[i] - b.max[i]) / s, T::ONE)
        } else {
            if b.min[i] > a.max[i] || b.max[i] < a.min[i] {
                return None;
            }
            continue;
        };
        if enter > first {
            first = enter;
            normal = Vector3::zeros();
            normal[i] = sign;
        }
        last = last.min_of(exit);
        if first > last {
            return None;
        }
    }
    let (da, db) = (va * first, vb * first);
    let lo = (a.min + da).coords.sup(&(b.min + db).coords);
    let hi = (a.max + da).coords.inf(&(b.max + db).coords);
    Some(Contact {
        time: first,
        point: Point3::from((lo + hi) * T::HALF),
        normal,
    })
}
