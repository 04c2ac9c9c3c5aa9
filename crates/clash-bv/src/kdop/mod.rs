//! Discrete-orientation polytopes (k-DOPs), RTCD §4.6; vertex enumeration
//! for transforms, volume and area in `vertices.rs`.

mod vertices;

use crate::fit::check::{check_points, triangle_corners};
use crate::{Aabb, BoundingVolume, FitError, FitVolume, FlatVolume, Obb};
use clash_math::{Isometry3, Point3, Scalar, Triangle, Vector3};
use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Discrete-orientation polytope with `N` fixed direction pairs, RTCD §4.6:
/// the slab intersection `min[i] <= d_i · x <= max[i]`. `Kdop<T, 7>` is the
/// 14-DOP, `Kdop<T, 9>` the 18-DOP, `Kdop<T, 13>` the 26-DOP.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kdop<T: Scalar, const N: usize> {
    /// Lower slab bounds, one per direction.
    pub min: [T; N],
    /// Upper slab bounds, one per direction.
    pub max: [T; N],
}

/// 14-DOP: the 3 axes and the 4 cube diagonals.
pub type Kdop14<T> = Kdop<T, 7>;
/// 18-DOP: the 3 axes and the 6 edge diagonals.
pub type Kdop18<T> = Kdop<T, 9>;
/// 26-DOP: axes, edge diagonals and cube diagonals.
pub type Kdop26<T> = Kdop<T, 13>;

// serde has no impls for generic `[T; N]`: a k-DOP is written as a struct of
// two sequences `{ min: [..], max: [..] }` and checked for length on reading.
impl<T: Scalar, const N: usize> Serialize for Kdop<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Kdop", 2)?;
        s.serialize_field("min", &self.min[..])?;
        s.serialize_field("max", &self.max[..])?;
        s.end()
    }
}

#[derive(Deserialize)]
#[serde(bound = "T: Scalar")]
#[serde(rename = "Kdop")]
struct KdopRepr<T: Scalar> {
    min: Vec<T>,
    max: Vec<T>,
}

impl<'de, T: Scalar, const N: usize> Deserialize<'de> for Kdop<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = KdopRepr::<T>::deserialize(deserializer)?;
        let min: [T; N] = repr
            .min
            .try_into()
            .map_err(|v: Vec<T>| D::Error::invalid_length(v.len(), &"N slab bounds"))?;
        let max: [T; N] = repr
            .max
            .try_into()
            .map_err(|v: Vec<T>| D::Error::invalid_length(v.len(), &"N slab bounds"))?;
        Ok(Self { min, max })
    }
}

/// The 13 direction classes of RTCD §4.6.1 (axes, edge diagonals, cube
/// diagonals), unnormalised; a `Kdop<T, N>` uses the first `N` after
/// [`order`] picks its family.
const AXES: [[i8; 3]; 3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
const CUBE_DIAGONALS: [[i8; 3]; 4] = [[1, 1, 1], [1, -1, 1], [1, 1, -1], [1, -1, -1]];
const EDGE_DIAGONALS: [[i8; 3]; 6] = [
    [1, 1, 0],
    [1, 0, 1],
    [0, 1, 1],
    [1, -1, 0],
    [1, 0, -1],
    [0, 1, -1],
];

/// Triples of independent slab directions whose parallelepipeds
/// [`Kdop::transformed`] moves besides the axis-aligned box: for the
/// 18-DOP the three orthogonal triples of an axis and the two edge
/// diagonals orthogonal to it, for the 14-DOP triples of cube diagonals,
/// for the 26-DOP both.
fn box_triples<const N: usize>() -> &'static [[usize; 3]] {
    match N {
        7 => &[[3, 4, 5], [4, 5, 6], [3, 5, 6], [3, 4, 6]],
        9 => &[[3, 6, 2], [4, 7, 1], [5, 8, 0]],
        _ => &[[3, 6, 2], [4, 7, 1], [5, 8, 0], [9, 10, 11], [10, 11, 12]],
    }
}

/// One of [`box_triples`] with the inverse of its matrix of directions
/// (rows), which maps the three slab values of a corner to the corner.
struct BoxSlabs {
    slabs: [usize; 3],
    inverse: clash_math::Matrix3<f64>,
}

/// [`box_triples`] with their inverses, computed once per family (the
/// directions are constants; a realignment solves eight corners per box).
fn box_slabs<const N: usize>() -> &'static [BoxSlabs] {
    use std::sync::OnceLock;
    static K14: OnceLock<Vec<BoxSlabs>> = OnceLock::new();
    static K18: OnceLock<Vec<BoxSlabs>> = OnceLock::new();
    static K26: OnceLock<Vec<BoxSlabs>> = OnceLock::new();
    let cell = match N {
        7 => &K14,
        9 => &K18,
        _ => &K26,
    };
    cell.get_or_init(|| {
        box_triples::<N>()
            .iter()
            .filter_map(|&slabs| {
                let d = slabs.map(|i| direction_i8::<N>(i).map(f64::from));
                let m = clash_math::Matrix3::new(
                    d[0][0], d[0][1], d[0][2], d[1][0], d[1][1], d[1][2], d[2][0], d[2][1], d[2][2],
                );
                m.try_inverse().map(|inverse| BoxSlabs { slabs, inverse })
            })
            .collect()
    })
}

/// Direction `i` of the `N`-direction family: 14-DOP = axes + cube
/// diagonals, 18-DOP = axes + edge diagonals, 26-DOP = all three.
fn direction_i8<const N: usize>(i: usize) -> [i8; 3] {
    const {
        assert!(
            N == 7 || N == 9 || N == 13,
            "k-DOPs exist for N = 7, 9, 13 (14-, 18-, 26-DOP)"
        )
    };
    if i < 3 {
        AXES[i]
    } else if N == 7 {
        CUBE_DIAGONALS[i - 3]
    } else if i < 9 {
        EDGE_DIAGONALS[i - 3]
    } else {
        CUBE_DIAGONALS[i - 9]
    }
}

impl<T: Scalar, const N: usize> Kdop<T, N> {
    /// The `N` slab directions (unnormalised integer vectors, RTCD §4.6.1);
    /// the first three are the coordinate axes.
    pub fn directions() -> [Vector3<T>; N] {
        core::array::from_fn(|i| {
            let d = direction_i8::<N>(i);
            Vector3::new(
                T::lit(f64::from(d[0])),
                T::lit(f64::from(d[1])),
                T::lit(f64::from(d[2])),
            )
        })
    }

    /// The eight corners of the parallelepiped of the slabs `b` (three
    /// independent directions), solved in `f64`; `None` when a corner is not
    /// finite.
    fn box_corners(&self, b: &BoxSlabs) -> Option<[Point3<T>; 8]> {
        let ends = b
            .slabs
            .map(|i| [self.min[i].to_f64(), self.max[i].to_f64()]);
        let corners: [Point3<T>; 8] = core::array::from_fn(|c| {
            let h = Vector3::new(ends[0][c & 1], ends[1][(c >> 1) & 1], ends[2][(c >> 2) & 1]);
            let x = b.inverse * h;
            Point3::new(T::lit(x.x), T::lit(x.y), T::lit(x.z))
        });
        corners
            .iter()
            .all(|c| c.coords.iter().all(|v| v.finite()))
            .then_some(corners)
    }

    /// Projection of `p` on direction `i` (sums and differences of coordinates).
    #[inline]
    fn project(i: usize, p: &Vector3<T>) -> T {
        let d = direction_i8::<N>(i);
        let mut s = T::ZERO;
        for k in 0..3 {
            match d[k] {
                1 => s += p[k],
                -1 => s -= p[k],
                _ => {}
            }
        }
        s
    }

    /// The k-DOP of a point set: the extents of the projections on each
    /// fixed direction (RTCD §4.6.3).
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn from_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let mut k = Self {
            min: [T::INFINITY; N],
            max: [T::NEG_INFINITY; N],
        };
        let mut reach = T::ZERO;
        for p in points {
            k.grow(p);
            reach = reach.max_of(p.x.abs() + p.y.abs() + p.z.abs());
        }
        Ok(k.padded(reach))
    }

    /// Enlarges the slabs to contain `p`.
    pub fn grow(&mut self, p: &Point3<T>) {
        for i in 0..N {
            let v = Self::project(i, &p.coords);
            self.min[i] = self.min[i].min_of(v);
            self.max[i] = self.max[i].max_of(v);
        }
    }

    /// Widens each slab by the rounding of the projections, so that it
    /// holds the exact projections of the points (hence of their hull) and
    /// contained points always test inside. A diagonal projection adds two
    /// or three coordinates, with an error below `ε · reach`, `reach` the
    /// largest `|x| + |y| + |z|` of the points; under cancellation that is
    /// far more than the projection itself, so a pad relative to the slab's
    /// own values would not do. Axis projections are exact.
    fn padded(mut self, reach: T) -> Self {
        let four_eps = T::EPSILON * T::lit(4.0);
        for i in 0..N {
            let own = self.min[i].abs().max_of(self.max[i].abs()) * four_eps;
            let m = if i < 3 {
                own
            } else {
                own.max_of(reach * four_eps)
            };
            self.min[i] -= m;
            self.max[i] += m;
        }
        self
    }

    /// Lower bound on the distance: the largest gap between corresponding
    /// slabs, divided by the direction's length.
    pub fn separation_lower_bound(&self, other: &Self) -> T {
        let mut best = T::ZERO;
        for i in 0..N {
            let gap = (other.min[i] - self.max[i]).max_of(self.min[i] - other.max[i]);
            let d = direction_i8::<N>(i);
            let len2 = d.iter().map(|&x| i32::from(x) * i32::from(x)).sum::<i32>();
            best = best.max_of(gap / T::lit(f64::from(len2)).sqrt());
        }
        best
    }

    /// The axis-aligned part: the first three slabs.
    pub fn axis_aligned(&self) -> Aabb<T> {
        Aabb {
            min: Point3::new(self.min[0], self.min[1], self.min[2]),
            max: Point3::new(self.max[0], self.max[1], self.max[2]),
        }
    }
}

impl<T: Scalar, const N: usize> BoundingVolume<T> for Kdop<T, N> {
    /// Slab-wise union (RTCD §6.5).
    fn merge(&self, other: &Self) -> Self {
        Self {
            min: core::array::from_fn(|i| self.min[i].min_of(other.min[i])),
            max: core::array::from_fn(|i| self.max[i].max_of(other.max[i])),
        }
    }

    fn contains_point(&self, p: &Point3<T>) -> bool {
        (0..N).all(|i| {
            let v = Self::project(i, &p.coords);
            self.min[i] <= v && v <= self.max[i]
        })
    }

    /// Slab in slab on each direction (exact): `other`'s polytope lies in
    /// its slabs, which then lie in these.
    fn contains_volume(&self, other: &Self) -> bool {
        (0..N).all(|i| self.min[i] <= other.min[i] && other.max[i] <= self.max[i])
    }

    /// Slab intervals overlap on every direction (RTCD §4.6.2). Conservative:
    /// disjoint polytopes separated only along an edge-edge axis pass.
    fn overlaps(&self, other: &Self) -> bool {
        (0..N).all(|i| self.min[i] <= other.max[i] && other.min[i] <= self.max[i])
    }

    /// Conservative realignment (RTCD §4.6.5): the k-DOP of the moved
    /// corners of boxes that hold this one, intersected. Each box is the
    /// parallelepiped of three of the slabs (the axis-aligned
    /// box and the boxes of independent diagonal triples), which holds the
    /// whole k-DOP, so every moved box's k-DOP holds the moved k-DOP, and so
    /// does their intersection. Eight corners per box instead of the
    /// polytope's vertices (a solve per triple of its `2N` planes, checked
    /// against all of them), at a fraction of the cost, for some
    /// tightness: the volume is larger than the exact realignment's, and
    /// much smaller than with the axis-aligned box alone
    /// (`tests/integration/oracle_kdop.rs` reports both ratios).
    fn transformed(&self, iso: &Isometry3<T>) -> Self {
        let from_aabb =
            Self::from_points(&self.axis_aligned().transformed(iso).corners()).unwrap_or(*self);
        let mut out = from_aabb;
        for b in box_slabs::<N>() {
            let Some(corners) = self.box_corners(b) else {
                continue;
            };
            let moved = corners.map(|c| iso * c);
            let Ok(k) = Self::from_points(&moved) else {
                continue;
            };
            // The rounding of the corner solve and of the move, a few ulps
            // of the coordinates, summed by the projections: relative to
            // the corners' reach, not to the projections, which may cancel.
            let reach = |ps: &[Point3<T>; 8]| {
                ps.iter()
                    .fold(T::ZERO, |r, p| r.max_of(p.x.abs() + p.y.abs() + p.z.abs()))
            };
            let m = (reach(&corners) + reach(&moved)) * T::EPSILON * T::lit(64.0);
            for i in 0..N {
                out.min[i] = out.min[i].max_of(k.min[i] - m);
                out.max[i] = out.max[i].min_of(k.max[i] + m);
            }
        }
        out
    }

    fn center(&self) -> Point3<T> {
        self.axis_aligned().center()
    }

    /// Exact, from the polytope's vertices and their convex hull (costly:
    /// O(N³) plane triples).
    fn volume(&self) -> T {
        vertices::volume_and_area(self).0
    }

    /// Exact, like [`BoundingVolume::volume`].
    fn surface_area(&self) -> T {
        vertices::volume_and_area(self).1
    }

    const SURFACE_AREA_IS_COSTLY: bool = true;

    /// The surface area of the axis-aligned slabs' box: no vertex solve.
    fn descent_size(&self) -> T {
        self.axis_aligned().surface_area()
    }

    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        Some(self.separation_lower_bound(other))
    }

    fn aabb(&self) -> Aabb<T> {
        self.axis_aligned()
    }

    /// Its axis-aligned box ([`Kdop::axis_aligned`]) is well formed.
    fn is_well_formed(&self) -> bool {
        self.axis_aligned().is_well_formed()
    }

    fn bounding_obb(&self) -> Obb<T> {
        self.axis_aligned().bounding_obb()
    }
}

impl<T: Scalar, const N: usize> FitVolume<T> for Kdop<T, N> {
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::from_points(points)
    }

    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::from_points(&triangle_corners(triangles)?)
    }
}

impl<T: Scalar, const N: usize> FlatVolume<T> for Kdop<T, N> {
    const NAME: &'static str = match N {
        7 => "kdop14",
        9 => "kdop18",
        _ => "kdop26",
    };

    const FLAT_LEN: usize = 2 * N;

    /// `min` then `max`, each in slab order.
    fn write_flat(&self, out: &mut Vec<T>) {
        out.extend_from_slice(&self.min);
        out.extend_from_slice(&self.max);
    }

    fn read_flat(flat: &[T]) -> Option<Self> {
        if flat.len() != 2 * N {
            return None;
        }
        let (min, max) = flat.split_at(N);
        Some(Self {
            min: min.try_into().ok()?,
            max: max.try_into().ok()?,
        })
    }
}
