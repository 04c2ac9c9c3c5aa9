//! The batch queries' inputs, checked and converted: pose matrices, points
//! and rays, from the flat `f64` data and shape of a numpy array. Plain
//! Rust, so each rule is unit-tested without an interpreter; `arrays.rs`
//! reads the arrays.
//!
//! Every error names the argument and, for a bad entry, its index
//! (`poses[3]: the rotation is a reflection (determinant < 0)`), with the
//! command line's wording after the location.

use crate::error::{Error, Result};
use clash::bv::RelativePose;
use clash::math::{Point3, Ray, Scalar, Vector3, check_direction, check_vector};
use clash::pose::{MatrixPose, ROTATION_TOLERANCE, pose_from_matrix};
use std::sync::Mutex;

/// A numpy array read as `f64`: its elements in C order and its shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// The elements, row-major.
    pub data: Vec<f64>,
    /// The shape.
    pub shape: Vec<usize>,
}

impl Array {
    /// Number of rows (the first axis).
    pub fn rows(&self) -> usize {
        self.shape.first().copied().unwrap_or(0)
    }
}

/// `(5, 3)` as Python prints a shape.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The layout of a pose array: `(N, 4, 4)` homogeneous matrices or
/// `(N, 3, 4)` matrices `[R | t]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoseLayout {
    /// `(N, 3, 4)`.
    Rows3,
    /// `(N, 4, 4)`; the last row must be `[0, 0, 0, 1]`.
    Rows4,
}

impl PoseLayout {
    /// The layout of an array of this shape.
    ///
    /// # Errors
    /// [`Error::Value`] for any other shape.
    pub fn of(shape: &[usize]) -> Result<Self> {
        match shape {
            [_, 3, 4] => Ok(Self::Rows3),
            [_, 4, 4] => Ok(Self::Rows4),
            _ => Err(Error::Value(format!(
                "poses must have shape (N, 4, 4) or (N, 3, 4), not {}",
                shape_text(shape)
            ))),
        }
    }

    /// Numbers per pose.
    pub fn stride(self) -> usize {
        match self {
            Self::Rows3 => 12,
            Self::Rows4 => 16,
        }
    }
}

/// Poses read from an array, with a note when some were repaired.
#[derive(Debug, Clone)]
pub struct Poses<T: Scalar> {
    /// One pose per matrix, in order.
    pub poses: Vec<RelativePose<T>>,
    /// The command line's note when rotations orthonormal only to within
    /// `ROTATION_TOLERANCE` were replaced by the nearest rotation (Python
    /// turns it into a warning).
    pub note: Option<String>,
}

/// The poses of a `(N, 4, 4)` or `(N, 3, 4)` array, checked and converted in
/// parallel on the current rayon pool (sequentially in a batch run
/// inline, see `pool::run_batch`), as `clash::pose::pose_from_matrix`
/// converts each line of a poses file: the matrix is used exactly as given.
///
/// # Errors
/// [`Error::Value`] for the wrong shape, or naming the first bad pose (in
/// input order, whatever the thread count).
pub fn poses<T: Scalar>(a: &Array) -> Result<Poses<T>> {
    let layout = PoseLayout::of(&a.shape)?;
    poses_named(a, layout, |i| format!("poses[{i}]"))
}

/// The poses of `a`, laid out as `layout` says whatever `a`'s shape (the
/// caller checked it), each error naming the pose by `name(i)`.
///
/// # Errors
/// [`Error::Value`] naming the first bad pose (in input order).
pub fn poses_named<T: Scalar>(
    a: &Array,
    layout: PoseLayout,
    name: impl Fn(usize) -> String,
) -> Result<Poses<T>> {
    let read = crate::pool::map_chunks(&a.data, layout.stride(), |_, m| read_pose::<T>(layout, m));
    let mut poses = Vec::with_capacity(read.len());
    let mut repaired = Repaired::default();
    for (i, r) in read.into_iter().enumerate() {
        let p = r.map_err(|e| Error::Value(format!("{}: {e}", name(i))))?;
        if p.repaired {
            repaired.count += 1;
            repaired.first = repaired.first.min(i);
        }
        poses.push(p.pose);
    }
    Ok(Poses {
        poses,
        note: repaired.note(),
    })
}

/// `f` applied to each pose of a `(N, 4, 4)` or `(N, 3, 4)` array as it is
/// read, as `pool::map_chunks` runs, answers in input order,
/// with the note of [`Poses::note`]: one pass over the matrices, with no
/// list of poses in between (the batch queries' path).
///
/// # Errors
/// [`Error::Value`] for the wrong shape, or naming the first bad pose (in
/// input order, whatever the thread count).
pub fn map_poses<T: Scalar, A: Send + Default>(
    a: &Array,
    f: impl Fn(RelativePose<T>) -> A + Sync,
) -> Result<(Vec<A>, Option<String>)> {
    let layout = PoseLayout::of(&a.shape)?;
    // Bad and repaired poses are rare: their bookkeeping takes a lock only
    // when one is met, and keeps the lowest index whatever the order.
    let first_error: Mutex<Option<(usize, String)>> = Mutex::new(None);
    let repaired: Mutex<Repaired> = Mutex::new(Repaired::default());
    let answers = crate::pool::map_chunks(&a.data, layout.stride(), |i, m| {
        match read_pose::<T>(layout, m) {
            Ok(p) => {
                if p.repaired {
                    let mut r = repaired.lock().unwrap_or_else(|e| e.into_inner());
                    r.count += 1;
                    r.first = r.first.min(i);
                }
                f(p.pose)
            }
            Err(e) => {
                let mut first = first_error.lock().unwrap_or_else(|e| e.into_inner());
                if first.as_ref().is_none_or(|(j, _)| i < *j) {
                    *first = Some((i, e));
                }
                A::default()
            }
        }
    });
    if let Some((i, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Error::Value(format!("poses[{i}]: {e}")));
    }
    let note = repaired
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .note();
    Ok((answers, note))
}

/// One pose matrix laid out as `layout` says, checked and converted
/// (inlined into the batch loop, so the pose is built in place rather than
/// moved through the return value).
#[inline(always)]
fn read_pose<T: Scalar>(
    layout: PoseLayout,
    m: &[f64],
) -> std::result::Result<MatrixPose<T>, String> {
    if layout == PoseLayout::Rows4 {
        let last = [m[12], m[13], m[14], m[15]];
        if last != [0.0, 0.0, 0.0, 1.0] {
            return Err(format!(
                "the last row of a 4x4 pose must be [0, 0, 0, 1], not {last:?}"
            ));
        }
    }
    let m: [f64; 12] = std::array::from_fn(|i| m[i]);
    pose_from_matrix::<T>(&m).map_err(|e| e.to_string())
}

/// The poses whose rotations were repaired: how many, and the first.
struct Repaired {
    count: usize,
    first: usize,
}

impl Default for Repaired {
    fn default() -> Self {
        Repaired {
            count: 0,
            first: usize::MAX,
        }
    }
}

impl Repaired {
    /// The note of [`Poses::note`], if any rotation was repaired.
    fn note(&self) -> Option<String> {
        (self.count > 0).then(|| {
            format!(
                "poses: {} rotation(s) orthonormal only to within {ROTATION_TOLERANCE:e} \
                 (first at index {}) were replaced by the nearest rotation",
                self.count, self.first
            )
        })
    }
}

/// Checks that `a` has shape `(N, 3)`.
///
/// # Errors
/// [`Error::Value`] naming the argument and the shape found.
pub fn check_rows_of_3(a: &Array, name: &str) -> Result<()> {
    match a.shape.as_slice() {
        [_, 3] => Ok(()),
        other => Err(Error::Value(format!(
            "{name} must have shape (N, 3), not {}",
            shape_text(other)
        ))),
    }
}

/// The rows of an `(N, 3)` array as vectors of `T`; with `in_range`, also
/// each coordinate within [`Scalar::MAX_COORDINATE`] (points and ray
/// origins, where the queries' arithmetic would overflow beyond it).
///
/// # Errors
/// [`Error::Value`] for the wrong shape, a non-finite number, one beyond
/// `T`'s range, or (with `in_range`) one beyond the coordinate range,
/// naming the first bad row.
fn vectors<T: Scalar>(a: &Array, name: &str, in_range: bool) -> Result<Vec<Vector3<T>>> {
    check_rows_of_3(a, name)?;
    a.data
        .chunks_exact(3)
        .enumerate()
        .map(|(i, r)| {
            if let Some(v) = r.iter().find(|v| !v.is_finite()) {
                return Err(Error::Value(format!(
                    "{name}[{i}]: non-finite number {v:?}"
                )));
            }
            let v = Vector3::new(T::lit(r[0]), T::lit(r[1]), T::lit(r[2]));
            if let Some(k) = (0..3).find(|&k| !v[k].finite()) {
                return Err(Error::Value(format!(
                    "{name}[{i}]: {:?} is out of range for {} trees",
                    r[k],
                    T::NAME
                )));
            }
            if in_range {
                check_vector(&v).map_err(|e| Error::Value(format!("{name}[{i}]: {e}")))?;
            }
            Ok(v)
        })
        .collect()
}

/// The rows of an `(N, 3)` array as points of `T`.
///
/// # Errors
/// As for `vectors`: wrong shape, non-finite or out-of-range numbers, or a
/// coordinate beyond [`Scalar::MAX_COORDINATE`].
pub fn points<T: Scalar>(a: &Array, name: &str) -> Result<Vec<Point3<T>>> {
    Ok(vectors(a, name, true)?
        .into_iter()
        .map(Point3::from)
        .collect())
}

/// Rays from `(N, 3)` arrays of origins and directions.
///
/// # Errors
/// [`Error::Value`] for wrong shapes, different lengths, non-finite or
/// out-of-range numbers, a zero direction, or one whose largest component
/// is outside `[1 / MAX_COORDINATE, MAX_COORDINATE]` (`Ray::check_range`:
/// hits of shorter ones would overflow `t`, longer ones the arithmetic).
pub fn rays<T: Scalar>(origins: &Array, directions: &Array) -> Result<Vec<Ray<T>>> {
    let o = points::<T>(origins, "origins")?;
    let d = vectors::<T>(directions, "directions", false)?;
    if o.len() != d.len() {
        return Err(Error::Value(format!(
            "origins and directions must have the same length, not {} and {}",
            o.len(),
            d.len()
        )));
    }
    o.into_iter()
        .zip(d)
        .enumerate()
        .map(|(i, (o, d))| {
            if d == Vector3::zeros() {
                return Err(Error::Value(format!(
                    "directions[{i}]: the ray direction is zero"
                )));
            }
            check_direction(&d).map_err(|e| Error::Value(format!("directions[{i}]: {e}")))?;
            Ok(Ray::new(o, d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array(data: Vec<f64>, shape: &[usize]) -> Array {
        Array {
            data,
            shape: shape.to_vec(),
        }
    }

    const I34: [f64; 12] = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];

    fn with_rows(poses: &[[f64; 12]], four: bool) -> Array {
        let mut data = Vec::new();
        for p in poses {
            data.extend_from_slice(p);
            if four {
                data.extend_from_slice(&[0., 0., 0., 1.]);
            }
        }
        array(data, &[poses.len(), if four { 4 } else { 3 }, 4])
    }

    #[test]
    fn both_layouts_give_the_matrix_as_given() {
        let quarter = [0., -1., 0., 1.5, 1., 0., 0., -2., 0., 0., 1., 0.25];
        for four in [false, true] {
            let p = poses::<f64>(&with_rows(&[I34, quarter], four)).unwrap();
            assert!(p.note.is_none());
            assert_eq!(p.poses.len(), 2);
            let q = &p.poses[1];
            assert_eq!(q.rotation[(0, 1)], -1.0);
            assert_eq!(q.rotation[(1, 0)], 1.0);
            assert_eq!(q.rotation[(0, 0)], 0.0);
            assert_eq!(q.translation, Vector3::new(1.5, -2.0, 0.25));
        }
    }

    #[test]
    fn wrong_shapes_name_the_shape_found() {
        for shape in [vec![4, 4], vec![2, 4, 3], vec![2, 16], vec![1, 2, 3, 4]] {
            let n = shape.iter().product();
            let e = poses::<f64>(&array(vec![0.0; n], &shape)).unwrap_err();
            assert_eq!(
                e,
                Error::Value(format!(
                    "poses must have shape (N, 4, 4) or (N, 3, 4), not {}",
                    shape_text(&shape)
                ))
            );
        }
        assert_eq!(shape_text(&[7]), "(7,)");
        let empty = poses::<f32>(&array(vec![], &[0, 3, 4])).unwrap();
        assert!(empty.poses.is_empty());
    }

    #[test]
    fn the_first_bad_pose_is_named_whatever_the_thread_count() {
        let mut nan = I34;
        nan[5] = f64::NAN;
        let mut mirror = I34;
        mirror[0] = -1.0;
        let mut list = vec![I34; 5000];
        list[4321] = mirror;
        list[4999] = nan;
        let a = with_rows(&list, false);
        for threads in [1, 2, 7] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let e = pool.install(|| poses::<f64>(&a)).unwrap_err();
            assert_eq!(
                e,
                Error::Value("poses[4321]: the rotation is a reflection (determinant < 0)".into())
            );
        }
        let e = poses::<f64>(&with_rows(&[I34, nan], true)).unwrap_err();
        assert_eq!(e, Error::Value("poses[1]: non-finite number NaN".into()));
    }

    #[test]
    fn a_4x4_pose_needs_the_homogeneous_last_row() {
        let mut a = with_rows(&[I34, I34], true);
        a.data[16 + 14] = 0.5;
        assert_eq!(
            poses::<f64>(&a).unwrap_err(),
            Error::Value(
                "poses[1]: the last row of a 4x4 pose must be [0, 0, 0, 1], not [0.0, 0.0, 0.5, 1.0]"
                    .into()
            )
        );
    }

    #[test]
    fn nearly_orthonormal_rotations_are_repaired_with_a_note() {
        let mut rough = I34;
        rough[0] = 1.0 + 1e-7;
        let p = poses::<f64>(&with_rows(&[I34, rough, rough], false)).unwrap();
        assert_eq!(
            p.note.as_deref(),
            Some(
                "poses: 2 rotation(s) orthonormal only to within 1e-5 (first at index 1) \
                 were replaced by the nearest rotation"
            )
        );
        let r = p.poses[1].rotation;
        assert!(
            (r.transpose() * r - clash::math::Matrix3::identity())
                .abs()
                .max()
                < 1e-15
        );
    }

    #[test]
    fn mapping_poses_answers_as_reading_them_first() {
        let mut nan = I34;
        nan[5] = f64::NAN;
        let mut mirror = I34;
        mirror[0] = -1.0;
        let mut rough = I34;
        rough[0] = 1.0 + 1e-7;
        // Distinct poses, two of them repaired, in both layouts.
        let mut list: Vec<[f64; 12]> = (0..3000)
            .map(|i| {
                let mut m = I34;
                m[3] = f64::from(i);
                m[11] = -0.5 * f64::from(i);
                m
            })
            .collect();
        list[17] = rough;
        list[2900] = rough;
        for four in [false, true] {
            let a = with_rows(&list, four);
            let read = poses::<f64>(&a).unwrap();
            let mut bad = list.clone();
            bad[2500] = nan;
            bad[1234] = mirror;
            let bad = with_rows(&bad, four);
            for threads in [1, 2, 7] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (mapped, note) = pool.install(|| map_poses::<f64, _>(&a, Some)).unwrap();
                let mapped: Vec<_> = mapped.into_iter().flatten().collect();
                assert_eq!(mapped, read.poses);
                assert_eq!(note, read.note);
                assert!(note.unwrap().contains("2 rotation(s)"));
                let e = pool
                    .install(|| map_poses::<f64, _>(&bad, Some))
                    .unwrap_err();
                assert_eq!(e, pool.install(|| poses::<f64>(&bad)).unwrap_err());
                assert_eq!(
                    e,
                    Error::Value(
                        "poses[1234]: the rotation is a reflection (determinant < 0)".into()
                    )
                );
            }
        }
        let wrong = array(vec![0.0; 12], &[1, 12]);
        assert_eq!(
            map_poses::<f64, u8>(&wrong, |_| 0).unwrap_err(),
            poses::<f64>(&wrong).unwrap_err()
        );
    }

    #[test]
    fn points_and_rays_are_checked_row_by_row() {
        let pts = array(vec![0., 1., 2., 3., f64::INFINITY, 5.], &[2, 3]);
        assert_eq!(
            points::<f64>(&pts, "points").unwrap_err(),
            Error::Value("points[1]: non-finite number inf".into())
        );
        let far = array(vec![0., 1e39, 0.], &[1, 3]);
        assert!(points::<f64>(&array(vec![0., 1e38, 0.], &[1, 3]), "points").is_ok());
        assert!(
            points::<f64>(&far, "points")
                .unwrap_err()
                .message()
                .starts_with("points[0]: coordinate 1e39 is beyond ±3.402823669209385e38")
        );
        assert_eq!(
            points::<f32>(&far, "points").unwrap_err(),
            Error::Value("points[0]: 1e39 is out of range for f32 trees".into())
        );
        assert_eq!(
            points::<f64>(&array(vec![0.; 4], &[2, 2]), "points").unwrap_err(),
            Error::Value("points must have shape (N, 3), not (2, 2)".into())
        );
        let o = array(vec![0.; 6], &[2, 3]);
        let d = array(vec![0., 0., 1., 0., 0., 0.], &[2, 3]);
        assert_eq!(
            rays::<f64>(&o, &d).unwrap_err(),
            Error::Value("directions[1]: the ray direction is zero".into())
        );
        let d1 = array(vec![0., 0., 1.], &[1, 3]);
        assert_eq!(
            rays::<f64>(&o, &d1).unwrap_err(),
            Error::Value("origins and directions must have the same length, not 2 and 1".into())
        );
        // Beyond the coordinate range (2^128 in f64, 2^26 in f32): refused,
        // naming the row, before a NaN further on.
        let beyond = array(vec![0., 0., 0., 1e300, 0., 0., f64::NAN, 0., 0.], &[3, 3]);
        assert_eq!(
            points::<f64>(&beyond, "points").unwrap_err(),
            Error::Value(
                "points[1]: coordinate 1e300 is beyond ±3.402823669209385e38, the largest \
                 magnitude f64 queries answer without overflow (scale the scene down)"
                    .into()
            )
        );
        let f32_far = array(vec![0., 0., 1e8], &[1, 3]);
        assert!(points::<f64>(&f32_far, "points").is_ok());
        assert!(
            points::<f32>(&f32_far, "origins")
                .unwrap_err()
                .message()
                .starts_with("origins[0]: coordinate 1e8 is beyond ±6.7108864e7")
        );
        let tiny = array(vec![0., 0., 1.0, 0., 1e-310, 0.], &[2, 3]);
        assert!(
            rays::<f64>(&o, &tiny).unwrap_err().message().starts_with(
                "directions[1]: ray direction's largest component 1e-310 is not between"
            )
        );
        let r = rays::<f32>(&array(vec![1., 2., 3.], &[1, 3]), &d1).unwrap();
        assert_eq!(r[0].origin, Point3::new(1.0_f32, 2.0, 3.0));
        assert_eq!(r[0].dir, Vector3::new(0.0_f32, 0.0, 1.0));
    }
}
