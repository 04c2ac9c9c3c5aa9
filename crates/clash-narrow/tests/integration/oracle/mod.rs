//! Exact oracles for the overlap tests, independent of the library (shares no
//! code with `clash_narrow`): also included by the fuzz targets in `fuzz/`
//! through `#[path]`.
//!
//! * [`convex_overlap`]: exact separating-axis test for two convex polytopes
//!   given as point sets (the triangle's 3 vertices, the box's 8 corners) and
//!   their edge directions, over any ordered ring (`i128` for grid input,
//!   `BigInt` for scaled `f64` input). The candidate axes are the facet
//!   normals of the Minkowski difference `M = A - B` according to the
//!   dimension of `M` (the rank of all edge directions): rank 3, all cross
//!   products of two edge directions; rank 2, the plane normal `n` and the
//!   in-plane normals `n × d`; rank 1, the direction `d` and the component of
//!   `a0 - b0` orthogonal to it; rank 0, `a0 - b0`. Two closed polytopes are
//!   disjoint iff one of these axes strictly separates their projections.
//! * Distance oracles in `BigRational` for the sphere and capsule tests
//!   (squared distances compared with squared radii, no square roots).
#![allow(dead_code)]

pub mod harness;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::ops::{Add, Div, Mul, Sub};

/// An exact ordered ring.
pub trait Ring:
    Clone + Ord + Zero + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
}
impl<T: Clone + Ord + Zero + Add<Output = T> + Sub<Output = T> + Mul<Output = T>> Ring for T {}

/// A 3-vector over the ring.
pub type V<T> = [T; 3];

pub fn sub<T: Ring>(a: &V<T>, b: &V<T>) -> V<T> {
    [
        a[0].clone() - b[0].clone(),
        a[1].clone() - b[1].clone(),
        a[2].clone() - b[2].clone(),
    ]
}

pub fn cross<T: Ring>(a: &V<T>, b: &V<T>) -> V<T> {
    [
        a[1].clone() * b[2].clone() - a[2].clone() * b[1].clone(),
        a[2].clone() * b[0].clone() - a[0].clone() * b[2].clone(),
        a[0].clone() * b[1].clone() - a[1].clone() * b[0].clone(),
    ]
}

pub fn dot<T: Ring>(a: &V<T>, b: &V<T>) -> T {
    a[0].clone() * b[0].clone() + a[1].clone() * b[1].clone() + a[2].clone() * b[2].clone()
}

fn is_zero<T: Ring>(v: &V<T>) -> bool {
    v.iter().all(|x| x.is_zero())
}

fn range<T: Ring>(u: &V<T>, pts: &[V<T>]) -> (T, T) {
    let mut lo = dot(u, &pts[0]);
    let mut hi = lo.clone();
    for p in &pts[1..] {
        let d = dot(u, p);
        if d < lo {
            lo = d.clone();
        }
        if d > hi {
            hi = d;
        }
    }
    (lo, hi)
}

fn separates<T: Ring>(u: &V<T>, a: &[V<T>], b: &[V<T>]) -> bool {
    if is_zero(u) {
        return false;
    }
    let (alo, ahi) = range(u, a);
    let (blo, bhi) = range(u, b);
    ahi < blo || bhi < alo
}

/// Exact: do the closed convex hulls of `a` and `b` (with edge directions
/// `da`, `db` spanning their affine hulls' directions) intersect?
pub fn convex_overlap<T: Ring>(a: &[V<T>], da: &[V<T>], b: &[V<T>], db: &[V<T>]) -> bool {
    let dirs: Vec<V<T>> = da
        .iter()
        .chain(db.iter())
        .filter(|d| !is_zero(d))
        .cloned()
        .collect();
    let mut crosses: Vec<V<T>> = Vec::new();
    for i in 0..dirs.len() {
        for j in i + 1..dirs.len() {
            let c = cross(&dirs[i], &dirs[j]);
            if !is_zero(&c) {
                crosses.push(c);
            }
        }
    }
    let rank3 = crosses
        .iter()
        .any(|c| dirs.iter().any(|d| !dot(c, d).is_zero()));
    let candidates: Vec<V<T>> = if rank3 {
        crosses
    } else if let Some(n) = crosses.first() {
        let mut v = vec![n.clone()];
        v.extend(dirs.iter().map(|d| cross(n, d)));
        v
    } else if let Some(d) = dirs.first() {
        let w = sub(&a[0], &b[0]);
        vec![d.clone(), cross(d, &cross(&w, d))]
    } else {
        vec![sub(&a[0], &b[0])]
    };
    !candidates.iter().any(|u| separates(u, a, b))
}

/// Triangle/triangle over the ring.
pub fn tri_tri<T: Ring>(t1: &[V<T>; 3], t2: &[V<T>; 3]) -> bool {
    let e = |t: &[V<T>; 3]| vec![sub(&t[1], &t[0]), sub(&t[2], &t[1]), sub(&t[0], &t[2])];
    convex_overlap(t1, &e(t1), t2, &e(t2))
}

/// Triangle/box over the ring; an inverted box (`lo > hi` somewhere) is empty.
pub fn tri_box<T: Ring>(t: &[V<T>; 3], lo: &V<T>, hi: &V<T>) -> bool {
    if (0..3).any(|k| lo[k] > hi[k]) {
        return false;
    }
    let mut corners = Vec::with_capacity(8);
    for i in 0..8 {
        corners.push([
            if i & 1 == 0 {
                lo[0].clone()
            } else {
                hi[0].clone()
            },
            if i & 2 == 0 {
                lo[1].clone()
            } else {
                hi[1].clone()
            },
            if i & 4 == 0 {
                lo[2].clone()
            } else {
                hi[2].clone()
            },
        ]);
    }
    let z = T::zero;
    let dirs = vec![
        [hi[0].clone() - lo[0].clone(), z(), z()],
        [z(), hi[1].clone() - lo[1].clone(), z()],
        [z(), z(), hi[2].clone() - lo[2].clone()],
    ];
    let e = vec![sub(&t[1], &t[0]), sub(&t[2], &t[1]), sub(&t[0], &t[2])];
    convex_overlap(t, &e, &corners, &dirs)
}

// ---- exact conversion of floats ----

/// `x = m * 2^e` exactly (finite `x`).
pub fn decompose(x: f64) -> (i128, i32) {
    if x == 0.0 {
        return (0, 0);
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = (bits & ((1u64 << 52) - 1)) as i128;
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1i128 << 52), exp - 1075)
    };
    (sign * m, e)
}

/// Scales a list of finite floats by a common power of two so that all become
/// integers, exactly: returns the integers.
pub fn scale_to_ints(xs: &[f64]) -> Vec<BigInt> {
    let d: Vec<(i128, i32)> = xs.iter().map(|&x| decompose(x)).collect();
    let emin = d
        .iter()
        .filter(|(m, _)| *m != 0)
        .map(|(_, e)| *e)
        .min()
        .unwrap_or(0);
    d.iter()
        .map(|&(m, e)| BigInt::from(m) << ((e - emin).max(0) as usize))
        .collect()
}

/// Exact rational value of a finite float.
pub fn q(x: f64) -> BigRational {
    let (m, e) = decompose(x);
    let m = BigInt::from(m);
    if e >= 0 {
        BigRational::from_integer(m << (e as usize))
    } else {
        BigRational::new(m, BigInt::one() << ((-e) as usize))
    }
}

fn ints3(v: &[BigInt], i: usize) -> V<BigInt> {
    [v[i].clone(), v[i + 1].clone(), v[i + 2].clone()]
}

/// Triangle/triangle on `f64` input, exactly (BigInt after a common scaling).
pub fn tri_tri_f64(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    let flat: Vec<f64> = t1.iter().chain(t2.iter()).flatten().copied().collect();
    let s = scale_to_ints(&flat);
    tri_tri(
        &[ints3(&s, 0), ints3(&s, 3), ints3(&s, 6)],
        &[ints3(&s, 9), ints3(&s, 12), ints3(&s, 15)],
    )
}

/// Triangle/box on `f64` input, exactly.
pub fn tri_box_f64(t: &[[f64; 3]; 3], lo: &[f64; 3], hi: &[f64; 3]) -> bool {
    let flat: Vec<f64> = t
        .iter()
        .flatten()
        .chain(lo.iter())
        .chain(hi.iter())
        .copied()
        .collect();
    let s = scale_to_ints(&flat);
    tri_box(
        &[ints3(&s, 0), ints3(&s, 3), ints3(&s, 6)],
        &ints3(&s, 9),
        &ints3(&s, 12),
    )
}

// ---- exact distance oracles over any ordered field ----

/// An exact ordered field (`BigRational`, `Ratio<i128>`).
pub trait Field: Ring + One + Div<Output = Self> {}
impl<T: Ring + One + Div<Output = T>> Field for T {}

pub type Q = BigRational;

pub fn qv(p: &[f64; 3]) -> V<Q> {
    [q(p[0]), q(p[1]), q(p[2])]
}

fn clamp01<F: Field>(t: F) -> F {
    if t < F::zero() {
        F::zero()
    } else if t > F::one() {
        F::one()
    } else {
        t
    }
}

fn scale<F: Field>(v: &V<F>, t: &F) -> V<F> {
    [
        v[0].clone() * t.clone(),
        v[1].clone() * t.clone(),
        v[2].clone() * t.clone(),
    ]
}

fn add<F: Field>(a: &V<F>, b: &V<F>) -> V<F> {
    [
        a[0].clone() + b[0].clone(),
        a[1].clone() + b[1].clone(),
        a[2].clone() + b[2].clone(),
    ]
}

/// Exact squared distance from `p` to the closed segment `ab`.
pub fn dist2_point_segment<F: Field>(p: &V<F>, a: &V<F>, b: &V<F>) -> F {
    let d = sub(b, a);
    let w = sub(p, a);
    let dd = dot(&d, &d);
    let t = if dd.is_zero() {
        F::zero()
    } else {
        clamp01(dot(&w, &d) / dd)
    };
    let e = sub(&w, &scale(&d, &t));
    dot(&e, &e)
}

/// Exact squared distance from `p` to the closed triangle `abc` (degenerate allowed):
/// the plane distance when the projection falls inside, else the nearest edge.
pub fn dist2_point_triangle<F: Field>(p: &V<F>, t: &[V<F>; 3]) -> F {
    let n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    let nn = dot(&n, &n);
    if !nn.is_zero() {
        // n · ((u - p) × (v - p)) does not depend on p's offset along n: it is
        // twice the signed area of the projected corner triangle, times |n|.
        let inside = (0..3).all(|i| {
            let (u, v) = (&t[i], &t[(i + 1) % 3]);
            dot(&n, &cross(&sub(u, p), &sub(v, p))) >= F::zero()
        });
        if inside {
            let h = dot(&n, &sub(p, &t[0]));
            return h.clone() * h / nn;
        }
    }
    (0..3)
        .map(|i| dist2_point_segment(p, &t[i], &t[(i + 1) % 3]))
        .min()
        .unwrap()
}

/// Exact squared distance between closed segments: the minimum over the four
/// end-point/segment distances and, for non-parallel lines whose closest
/// points are interior to both segments, the line/line distance.
pub fn dist2_segment_segment<F: Field>(p1: &V<F>, q1: &V<F>, p2: &V<F>, q2: &V<F>) -> F {
    let mut best = [
        dist2_point_segment(p1, p2, q2),
        dist2_point_segment(q1, p2, q2),
        dist2_point_segment(p2, p1, q1),
        dist2_point_segment(q2, p1, q1),
    ]
    .into_iter()
    .min()
    .unwrap();
    let d1 = sub(q1, p1);
    let d2 = sub(q2, p2);
    let r = sub(p1, p2);
    let a = dot(&d1, &d1);
    let e = dot(&d2, &d2);
    let b = dot(&d1, &d2);
    let c = dot(&d1, &r);
    let f = dot(&d2, &r);
    let den = a.clone() * e.clone() - b.clone() * b.clone();
    if !den.is_zero() {
        let s = (b.clone() * f.clone() - c.clone() * e) / den.clone();
        let t = (a * f - b * c) / den;
        if s >= F::zero() && s <= F::one() && t >= F::zero() && t <= F::one() {
            let x = sub(&add(p1, &scale(&d1, &s)), &add(p2, &scale(&d2, &t)));
            best = best.min(dot(&x, &x));
        }
    }
    best
}

/// Exact squared distance from `p` to the closed box `[lo, hi]` (Arvo).
pub fn dist2_point_box<F: Field>(p: &V<F>, lo: &V<F>, hi: &V<F>) -> F {
    let mut d = F::zero();
    for k in 0..3 {
        let e = if p[k] < lo[k] {
            lo[k].clone() - p[k].clone()
        } else if p[k] > hi[k] {
            p[k].clone() - hi[k].clone()
        } else {
            F::zero()
        };
        d = d + e.clone() * e;
    }
    d
}

/// Does the closed segment meet the closed triangle? (exact, through the SAT oracle)
pub fn segment_meets_triangle<F: Field>(p: &V<F>, qq: &V<F>, t: &[V<F>; 3]) -> bool {
    // The SAT oracle works over any ordered ring, a field included.
    let seg = [p.clone(), qq.clone()];
    let e = vec![sub(&t[1], &t[0]), sub(&t[2], &t[1]), sub(&t[0], &t[2])];
    convex_overlap(&seg, &[sub(qq, p)], t, &e)
}

/// Exact squared distance from a segment to a triangle (0 when they meet).
pub fn dist2_segment_triangle<F: Field>(p: &V<F>, qq: &V<F>, t: &[V<F>; 3]) -> F {
    if segment_meets_triangle(p, qq, t) {
        return F::zero();
    }
    let mut best = dist2_point_triangle(p, t).min(dist2_point_triangle(qq, t));
    for i in 0..3 {
        best = best.min(dist2_segment_segment(p, qq, &t[i], &t[(i + 1) % 3]));
    }
    best
}

/// `[x, y, z]` from a float triple, exactly, in `BigRational`.
pub fn qv3(p: [f64; 3]) -> V<Q> {
    qv(&p)
}
