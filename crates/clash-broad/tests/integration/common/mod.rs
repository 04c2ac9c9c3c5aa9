//! Brute-force oracle shared by the broad-phase tests.

use clash_broad::{ProxyHandle, ProxyPair};
use clash_bv::Aabb;
use clash_math::Scalar;
use std::collections::BTreeMap;

/// Closed boxes overlap (touching counts).
pub fn overlaps<T: Scalar>(a: &Aabb<T>, b: &Aabb<T>) -> bool {
    (0..3).all(|k| a.min[k] <= b.max[k] && b.min[k] <= a.max[k])
}

/// Every overlapping pair of `boxes`, O(n^2), sorted.
pub fn brute_pairs<T: Scalar>(boxes: &BTreeMap<ProxyHandle, Aabb<T>>) -> Vec<ProxyPair> {
    let items: Vec<_> = boxes.iter().collect();
    let mut out = Vec::new();
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if overlaps(items[i].1, items[j].1) {
                out.push(ProxyPair::new(*items[i].0, *items[j].0));
            }
        }
    }
    out.sort();
    out
}
