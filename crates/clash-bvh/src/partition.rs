//! In-place partitioning of the builder's parallel arrays (triangles,
//! centroids, triangle ids), so that a node's triangles stay one contiguous
//! slice and no per-node buffer is allocated.

use clash_math::{Point3, Scalar, Triangle};

/// Bounds `(min, max)` of a set of centroids.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CentroidBounds<T: Scalar> {
    pub min: Point3<T>,
    pub max: Point3<T>,
}

impl<T: Scalar> CentroidBounds<T> {
    /// The inverted box that any point grows into.
    pub fn empty() -> Self {
        Self {
            min: Point3::from(clash_math::Vector3::repeat(T::INFINITY)),
            max: Point3::from(clash_math::Vector3::repeat(T::NEG_INFINITY)),
        }
    }

    /// The bounds of `points`.
    pub fn of(points: &[Point3<T>]) -> Self {
        let mut b = Self::empty();
        for p in points {
            b.grow(p);
        }
        b
    }

    #[inline(always)]
    pub fn grow(&mut self, p: &Point3<T>) {
        self.min = self.min.inf(p);
        self.max = self.max.sup(p);
    }
}

/// The builder's working set for one node: three slices of equal length,
/// permuted together.
pub(crate) struct Prims<'a, T: Scalar> {
    pub tris: &'a mut [Triangle<T>],
    pub cents: &'a mut [Point3<T>],
    pub ids: &'a mut [u32],
}

impl<'a, T: Scalar> Prims<'a, T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.tris.swap(i, j);
        self.cents.swap(i, j);
        self.ids.swap(i, j);
    }

    /// Splits into `[0, k)` and `[k, len)`.
    pub fn split_at(self, k: usize) -> (Prims<'a, T>, Prims<'a, T>) {
        let (t0, t1) = self.tris.split_at_mut(k);
        let (c0, c1) = self.cents.split_at_mut(k);
        let (i0, i1) = self.ids.split_at_mut(k);
        (
            Prims {
                tris: t0,
                cents: c0,
                ids: i0,
            },
            Prims {
                tris: t1,
                cents: c1,
                ids: i1,
            },
        )
    }

    /// Moves the elements whose centroid satisfies `left` to the front and
    /// returns their count. Deterministic (a single Lomuto pass).
    pub fn partition(&mut self, left: impl Fn(&Point3<T>) -> bool) -> usize {
        let mut k = 0;
        for i in 0..self.len() {
            if left(&self.cents[i]) {
                self.swap(i, k);
                k += 1;
            }
        }
        k
    }

    /// [`Self::partition`] by a two-pointer sweep (fewer swaps), also
    /// returning the bounds of the left and right parts' centroids (each
    /// `(min, max)`; empty parts give an inverted box).
    pub fn partition_with_bounds(
        &mut self,
        left: impl Fn(&Point3<T>) -> bool,
    ) -> (usize, CentroidBounds<T>, CentroidBounds<T>) {
        let mut lb = CentroidBounds::empty();
        let mut rb = CentroidBounds::empty();
        let (mut i, mut j) = (0usize, self.len());
        loop {
            while i < j && left(&self.cents[i]) {
                lb.grow(&self.cents[i]);
                i += 1;
            }
            while i < j && !left(&self.cents[j - 1]) {
                rb.grow(&self.cents[j - 1]);
                j -= 1;
            }
            if i >= j {
                return (i, lb, rb);
            }
            // cents[i] belongs right and cents[j - 1] left: exchange them.
            self.swap(i, j - 1);
            lb.grow(&self.cents[i]);
            rb.grow(&self.cents[j - 1]);
            i += 1;
            j -= 1;
        }
    }

    /// Reorders so that the element of rank `k` by `key(centroid)` (ties
    /// broken by triangle id, so the result is a total order) is at `k`,
    /// with smaller ones before and larger ones after (quickselect with a
    /// median-of-three pivot; deterministic).
    pub fn select_nth(&mut self, k: usize, key: impl Fn(&Point3<T>) -> T) {
        let less = |s: &Self, i: usize, j: usize| {
            let (ki, kj) = (key(&s.cents[i]), key(&s.cents[j]));
            ki < kj || (ki == kj && s.ids[i] < s.ids[j])
        };
        let (mut lo, mut hi) = (0usize, self.len());
        while hi - lo > 1 {
            // median of three to position lo
            let mid = lo + (hi - lo) / 2;
            let last = hi - 1;
            if less(self, mid, lo) {
                self.swap(mid, lo);
            }
            if less(self, last, lo) {
                self.swap(last, lo);
            }
            if less(self, last, mid) {
                self.swap(last, mid);
            }
            // pivot = median, now at mid; move it to lo
            self.swap(lo, mid);
            // The pivot stays at lo during the sweep: key it once.
            let (pivot_key, pivot_id) = (key(&self.cents[lo]), self.ids[lo]);
            let mut store = lo + 1;
            for i in lo + 1..hi {
                let ki = key(&self.cents[i]);
                if ki < pivot_key || (ki == pivot_key && self.ids[i] < pivot_id) {
                    self.swap(i, store);
                    store += 1;
                }
            }
            let p = store - 1;
            self.swap(lo, p);
            match k.cmp(&p) {
                core::cmp::Ordering::Equal => return,
                core::cmp::Ordering::Less => hi = p,
                core::cmp::Ordering::Greater => lo = p + 1,
            }
        }
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
                let p = Point3::new(x, 0.0, 0.0);
                Triangle::new(p, p, p)
            })
            .collect();
        let mut cents: Vec<_> = tris.iter().map(|t| t.a).collect();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut prims = Prims {
            tris: &mut tris,
            cents: &mut cents,
            ids: &mut ids,
        };
        for k in [0, 1, 100, 128, 255, 256] {
            prims.select_nth(k, |c| c.x);
            let pivot = (prims.cents[k].x, prims.ids[k]);
            for i in 0..n {
                let v = (prims.cents[i].x, prims.ids[i]);
                if i < k {
                    assert!(v < pivot);
                } else if i > k {
                    assert!(v > pivot);
                }
                assert_eq!(prims.tris[i].a, prims.cents[i]);
            }
        }
        let k = prims.partition(|c| c.x < 50.0);
        assert!(prims.cents[..k].iter().all(|c| c.x < 50.0));
        assert!(prims.cents[k..].iter().all(|c| c.x >= 50.0));
        for cut in [-1.0, 0.0, 30.5, 50.0, 100.0, 101.0] {
            let (k, lb, rb) = prims.partition_with_bounds(|c| c.x < cut);
            assert!(prims.cents[..k].iter().all(|c| c.x < cut));
            assert!(prims.cents[k..].iter().all(|c| c.x >= cut));
            assert_eq!(lb, CentroidBounds::of(&prims.cents[..k]));
            assert_eq!(rb, CentroidBounds::of(&prims.cents[k..]));
            for i in 0..n {
                assert_eq!(prims.tris[i].a, prims.cents[i]);
            }
        }
        let mut seen: Vec<u32> = prims.ids.to_vec();
        seen.sort();
        assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
    }
}
