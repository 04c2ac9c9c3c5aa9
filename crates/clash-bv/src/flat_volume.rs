//! The [`FlatVolume`] trait: a bounding volume's flat form, as saved trees
//! store it.

use crate::BoundingVolume;
use clash_math::Scalar;

/// A [`BoundingVolume`] with a flat form: a fixed number of scalars and a
/// name, from which a saved tree reads it back bit for bit.
pub trait FlatVolume<T: Scalar>: BoundingVolume<T> {
    /// Short lower-case name (`"aabb"`, `"obb"`, ...) recorded in saved trees.
    const NAME: &'static str;

    /// How many scalars the volume's flat form holds ([`Self::write_flat`]):
    /// a saved tree stores each node's volume as that many little-endian
    /// values (AABB 6, sphere 4, OBB 15, capsule 7, RSS 15, k-DOP `2N`).
    const FLAT_LEN: usize;

    /// Appends the volume's [`Self::FLAT_LEN`] coordinates to `out`, in the
    /// order the type's docs give: the form saved trees store.
    fn write_flat(&self, out: &mut Vec<T>);

    /// The volume whose flat form ([`Self::write_flat`]) is `flat`, bit for
    /// bit; `None` unless `flat` holds exactly [`Self::FLAT_LEN`] values.
    /// Any values give a volume: a loader checks it afterwards.
    ///
    /// ```
    /// use clash_bv::{FlatVolume, Obb};
    /// use clash_math::{Matrix3, Point3};
    /// let obb = Obb::from_axes_and_points(&Matrix3::identity(), &[Point3::new(0.0_f64, 1.0, 2.0)]);
    /// let mut flat = Vec::new();
    /// obb.write_flat(&mut flat);
    /// assert_eq!(flat.len(), Obb::<f64>::FLAT_LEN);
    /// assert_eq!(Obb::read_flat(&flat), Some(obb));
    /// assert_eq!(Obb::read_flat(&flat[1..]), None);
    /// ```
    fn read_flat(flat: &[T]) -> Option<Self>;
}
