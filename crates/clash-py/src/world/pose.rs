//! Poses of the world's calls: one `(4, 4)` or `(3, 4)` matrix, a batch
//! of configurations `(C, N, 4, 4)` or `(C, N, 3, 4)`, and a pose back as a
//! `(4, 4)` array; and object handles as Python ints.

use crate::error::{Error, Result};
use crate::input::{self, Array, PoseLayout, shape_text};
use clash::ObjectHandle;
use clash::math::Isometry3;

/// One pose from a `(4, 4)` or `(3, 4)` array, read as a batch pose is,
/// and the note on a repaired rotation.
///
/// # Errors
/// [`Error::Value`] for another shape or a bad matrix, naming `name`.
pub fn single(a: &Array, name: &str) -> Result<(Isometry3<f64>, Option<String>)> {
    let layout = match a.shape.as_slice() {
        [3, 4] => PoseLayout::Rows3,
        [4, 4] => PoseLayout::Rows4,
        other => {
            return Err(Error::Value(format!(
                "{name} must have shape (4, 4) or (3, 4), not {}",
                shape_text(other)
            )));
        }
    };
    let p = input::poses_named::<f64>(a, layout, |_| name.to_string())?;
    let note = p
        .note
        .map(|_| format!("{name}: the rotation was replaced by the nearest rotation"));
    Ok((p.poses[0].iso, note))
}

/// The poses of `C` configurations of `n` objects, in order (configuration
/// after configuration, each in `World.handles` order).
///
/// # Errors
/// [`Error::Value`] for the wrong shape or a bad matrix, naming
/// `poses[c, k]`.
pub fn configurations(a: &Array, n: usize) -> Result<(Vec<Isometry3<f64>>, Option<String>)> {
    let layout = match a.shape.as_slice() {
        [_, k, 3, 4] if *k == n => PoseLayout::Rows3,
        [_, k, 4, 4] if *k == n => PoseLayout::Rows4,
        other => {
            return Err(Error::Value(format!(
                "poses must have shape (C, {n}, 4, 4) or (C, {n}, 3, 4) for a world of {n} \
                 objects, not {}",
                shape_text(other)
            )));
        }
    };
    let p = input::poses_named::<f64>(a, layout, |i| format!("poses[{}, {}]", i / n, i % n))?;
    Ok((p.poses.into_iter().map(|q| q.iso).collect(), p.note))
}

/// A pose as a row-major `4 x 4` matrix.
pub fn matrix(p: &Isometry3<f64>) -> [[f64; 4]; 4] {
    let m = p.to_homogeneous();
    std::array::from_fn(|r| std::array::from_fn(|c| m[(r, c)]))
}

/// A handle as one Python int: the generation in the high 32 bits, the
/// slot index in the low 32 (as an `i64`, so every int64 decodes to some
/// handle and unknown ones are refused by the world).
pub fn encode(h: ObjectHandle) -> i64 {
    ((u64::from(h.generation()) << 32) | u64::from(h.index())) as i64
}

/// The handle `encode` made `v` of.
pub fn decode(v: i64) -> ObjectHandle {
    let bits = v as u64;
    ObjectHandle::new(bits as u32, (bits >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_round_trip_through_ints() {
        for (i, g) in [(0, 0), (7, 3), (u32::MAX, 0), (5, u32::MAX)] {
            let h = ObjectHandle::new(i, g);
            assert_eq!(decode(encode(h)), h);
        }
        assert_eq!(encode(ObjectHandle::new(2, 1)), (1 << 32) | 2);
    }

    #[test]
    fn batches_name_the_configuration_and_the_object() {
        let mut data = Vec::new();
        for k in 0..6 {
            data.extend_from_slice(&[1., 0., 0., k as f64, 0., 1., 0., 0., 0., 0., 1., 0.]);
        }
        data[4 * 12 + 5] = f64::NAN;
        let a = Array {
            data,
            shape: vec![3, 2, 3, 4],
        };
        assert_eq!(
            configurations(&a, 2).unwrap_err(),
            Error::Value("poses[2, 0]: non-finite number NaN".into())
        );
        assert!(configurations(&a, 3).is_err());
        let one = Array {
            data: vec![1., 0., 0., 1., 0., 1., 0., 2., 0., 0., 1., 3.],
            shape: vec![3, 4],
        };
        let (p, note) = single(&one, "pose").unwrap();
        assert!(note.is_none());
        assert_eq!(matrix(&p)[1][3], 2.0);
    }
}
