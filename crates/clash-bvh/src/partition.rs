//! In-place partitioning of the builder's parallel arrays (triangles,
//! centroids, triangle ids), so that a node's triangles stay one contiguous
//! slice and no per-node buffer is allocated.

use clash_math::{Point3, Scalar, Triangle, TriangleMoments};

/// The builder's working set for one node: slices of equal length: the
/// triangles, their moments (whose centroids are the split keys' points;
/// computed once per triangle, see [`TriangleMoments`]) and their ids,
/// permuted together, and a scratch column where a split sorts compact
/// [`Keyed`] records before moving the large elements once.
pub(crate) struct Prims<'a, T: Scalar> {
    pub tris: &'a mut [Triangle<T>],
    pub moms: &'a mut [TriangleMoments<T>],
    pub ids: &'a mut [u32],
    pub keys: &'a mut [Keyed<T>],
    /// Scratch: which side of a median split each element goes to.
    pub left: &'a mut [bool],
}

/// A split key with the element's triangle id (the tie-break): what
/// [`Prims::select_nth`] selects on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Keyed<T> {
    key: T,
    id: u32,
    /// Position of the element in the node's slice (not part of the order).
    pos: u32,
}

impl<T: Scalar> Keyed<T> {
    /// A blank record (the scratch column's initial value).
    pub fn blank() -> Self {
        Self {
            key: T::ZERO,
            id: 0,
            pos: 0,
        }
    }

    /// Total order: key by `f64::total_cmp` of its exact `f64` value (a
    /// total order even for NaN, which finite meshes do not produce), then
    /// triangle id.
    #[inline(always)]
    fn order(&self, other: &Self) -> core::cmp::Ordering {
        self.key
            .to_f64()
            .total_cmp(&other.key.to_f64())
            .then(self.id.cmp(&other.id))
    }
}

impl<'a, T: Scalar> Prims<'a, T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.tris.swap(i, j);
        self.moms.swap(i, j);
        self.ids.swap(i, j);
    }

    /// The centroid of element `i`.
    #[inline]
    pub fn centroid(&self, i: usize) -> &Point3<T> {
        &self.moms[i].centroid
    }

    /// Splits into `[0, k)` and `[k, len)`.
    pub fn split_at(self, k: usize) -> (Prims<'a, T>, Prims<'a, T>) {
        let (t0, t1) = self.tris.split_at_mut(k);
        let (m0, m1) = self.moms.split_at_mut(k);
        let (i0, i1) = self.ids.split_at_mut(k);
        let (k0, k1) = self.keys.split_at_mut(k);
        let (l0, l1) = self.left.split_at_mut(k);
        (
            Prims {
                tris: t0,
                moms: m0,
                ids: i0,
                keys: k0,
                left: l0,
            },
            Prims {
                tris: t1,
                moms: m1,
                ids: i1,
                keys: k1,
                left: l1,
            },
        )
    }

    /// Moves the elements whose centroid satisfies `left` to the front and
    /// returns their count. Deterministic (a single Lomuto pass).
    pub fn partition(&mut self, left: impl Fn(&Point3<T>) -> bool) -> usize {
        let mut k = 0;
        for i in 0..self.len() {
            if left(self.centroid(i)) {
                self.swap(i, k);
                k += 1;
            }
        }
        k
    }

    /// Moves the `k` elements of lowest rank by `key(centroid)` (ties broken
    /// by triangle id, a total order) to `[0, k)` and the others to `[k, len)`
    /// (`k <= len`); the order within each part is unspecified but
    /// deterministic. The `k`-th record is selected on the compact [`Keyed`]
    /// column (the standard library's introselect, deterministic, with a
    /// branch-free block partition); the triangles, moments and ids are then
    /// split around it by one two-ended (Hoare) sweep, which streams through
    /// them from both ends and moves only the misplaced elements.
    pub fn select_nth(&mut self, k: usize, key: impl Fn(&Point3<T>) -> T) {
        let n = self.len();
        if k == 0 || k >= n {
            return;
        }
        for (pos, (x, (m, &id))) in self
            .keys
            .iter_mut()
            .zip(self.moms.iter().zip(self.ids.iter()))
            .enumerate()
        {
            *x = Keyed {
                key: key(&m.centroid),
                id,
                pos: pos as u32,
            };
        }
        self.keys.select_nth_unstable_by(k, Keyed::order);
        // Exactly the k records before the k-th in the total order go left.
        self.left.fill(false);
        for r in &self.keys[..k] {
            self.left[r.pos as usize] = true;
        }
        let left = |s: &Self, i: usize| s.left[i];
        let (mut i, mut j) = (0, n);
        loop {
            while i < j && left(self, i) {
                i += 1;
            }
            while i < j && !left(self, j - 1) {
                j -= 1;
            }
            if i >= j {
                break;
            }
            // Here i < j - 1: element i goes right, element j - 1 left.
            self.swap(i, j - 1);
            self.left.swap(i, j - 1);
            i += 1;
            j -= 1;
        }
        debug_assert_eq!(i, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_and_partition() {
        let n = 257;
        let mut tris: Vec<Triangle<f64>> = (0..n)
            .map(|i| {
                let x = ((i * 7919) % 101) as f64;
                let p = Point3::new(x, i as f64, 0.0);
                Triangle::new(p, p, p)
            })
            .collect();
        let mut moms: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut keys = vec![Keyed::blank(); n];
        let mut left = vec![false; n];
        let mut prims = Prims {
            tris: &mut tris,
            moms: &mut moms,
            ids: &mut ids,
            keys: &mut keys,
            left: &mut left,
        };
        // Oracle: the records sorted independently.
        let mut sorted: Vec<(f64, u32)> = (0..n)
            .map(|i| (prims.centroid(i).x, prims.ids[i]))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for k in [0, 1, 100, 128, 255, 256, 257] {
            prims.select_nth(k, |c| c.x);
            let mut low: Vec<(f64, u32)> = (0..k)
                .map(|i| (prims.centroid(i).x, prims.ids[i]))
                .collect();
            low.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(low, sorted[..k], "k = {k}");
            for i in 0..n {
                assert_eq!(prims.tris[i].a, *prims.centroid(i));
                assert_eq!(prims.tris[i].a.y, f64::from(prims.ids[i]));
            }
        }
        let k = prims.partition(|c| c.x < 50.0);
        assert!((0..k).all(|i| prims.centroid(i).x < 50.0));
        assert!((k..n).all(|i| prims.centroid(i).x >= 50.0));
        assert!((0..n).all(|i| prims.tris[i].a == *prims.centroid(i)));
        let mut seen: Vec<u32> = prims.ids.to_vec();
        seen.sort();
        assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
    }
}
