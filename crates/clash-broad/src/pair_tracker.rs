//! Started and stopped pairs from one step to the next: the difference of
//! two sorted pair lists, computed by a single merge.
use crate::{BroadPhase, ProxyPair};
use clash_math::Scalar;

/// Tracks the overlapping pairs of a broad phase across steps and reports
/// which pairs started and stopped overlapping since the previous step.
///
/// A pair whose object was removed counts as stopped; a pair with a new
/// object counts as started (handles carry generations, so a reused slot is
/// a different object). All three lists are sorted. The tracker reuses its
/// buffers: a step allocates only when the number of pairs grows.
#[derive(Debug, Clone, Default)]
pub struct PairTracker {
    current: Vec<ProxyPair>,
    previous: Vec<ProxyPair>,
    started: Vec<ProxyPair>,
    stopped: Vec<ProxyPair>,
}

impl PairTracker {
    /// A tracker that has seen no pairs yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks `broad_phase` for its overlapping pairs and diffs them against
    /// the previous step's.
    pub fn step<T: Scalar, U, B: BroadPhase<T, U> + ?Sized>(&mut self, broad_phase: &mut B) {
        core::mem::swap(&mut self.current, &mut self.previous);
        broad_phase.overlapping_pairs(&mut self.current);
        self.diff();
    }

    /// Replaces the current pairs with `pairs` (sorted, as every
    /// [`BroadPhase`] returns them) and diffs them against the previous ones.
    pub fn step_with_pairs(&mut self, pairs: &[ProxyPair]) {
        core::mem::swap(&mut self.current, &mut self.previous);
        self.current.clear();
        self.current.extend_from_slice(pairs);
        self.diff();
    }

    fn diff(&mut self) {
        self.started.clear();
        self.stopped.clear();
        let (mut i, mut j) = (0, 0);
        let (cur, prev) = (&self.current, &self.previous);
        while i < cur.len() && j < prev.len() {
            match cur[i].cmp(&prev[j]) {
                core::cmp::Ordering::Less => {
                    self.started.push(cur[i]);
                    i += 1;
                }
                core::cmp::Ordering::Greater => {
                    self.stopped.push(prev[j]);
                    j += 1;
                }
                core::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        self.started.extend_from_slice(&cur[i..]);
        self.stopped.extend_from_slice(&prev[j..]);
    }

    /// Pairs overlapping at the last step, sorted.
    pub fn pairs(&self) -> &[ProxyPair] {
        &self.current
    }

    /// Pairs overlapping at the last step but not at the one before, sorted.
    pub fn started(&self) -> &[ProxyPair] {
        &self.started
    }

    /// Pairs overlapping at the step before the last but not at the last, sorted.
    pub fn stopped(&self) -> &[ProxyPair] {
        &self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProxyHandle;

    fn p(a: u32, b: u32) -> ProxyPair {
        ProxyPair::new(ProxyHandle::new(a, 0), ProxyHandle::new(b, 0))
    }

    #[test]
    fn diff_of_sorted_lists() {
        let mut t = PairTracker::new();
        t.step_with_pairs(&[p(0, 1), p(0, 2), p(3, 4)]);
        assert_eq!(t.started(), &[p(0, 1), p(0, 2), p(3, 4)]);
        t.step_with_pairs(&[p(0, 2), p(1, 5), p(3, 4), p(6, 7)]);
        assert_eq!(t.started(), &[p(1, 5), p(6, 7)]);
        assert_eq!(t.stopped(), &[p(0, 1)]);
        t.step_with_pairs(&[]);
        assert_eq!(t.stopped().len(), 4);
        assert!(t.started().is_empty() && t.pairs().is_empty());
        assert_eq!(p(5, 2), p(2, 5));
    }
}
