use super::binning::bin_index;
use super::boxes::{half_area_lanes, keys, union_of};
use super::split::sweep_split;
use super::*;
use clash_math::Point3;

#[test]
fn bin_index_clamps() {
    let top = 15.0;
    for (x, want) in [
        (f32::NAN, 0),
        (f32::NEG_INFINITY, 0),
        (-3.5, 0),
        (-0.0, 0),
        (0.0, 0),
        (0.999, 0),
        (1.0, 1),
        (7.9, 7),
        (15.0, 15),
        (15.99, 15),
        (16.0, 15),
        (3e9, 15),
        (f32::INFINITY, 15),
    ] {
        assert_eq!(bin_index(x, top), want, "{x}");
        assert_eq!(bin_index(f64::from(x), top), want, "{x}");
    }
    assert_eq!(bin_index(2.0f64, 255.0), 2);
    assert_eq!(bin_index(1e300f64, 255.0), 255);
    assert_eq!(bin_index(300.5f32, 255.0), 255);
    assert_eq!(bin_index(254.5f32, 255.0), 254);
}

fn triangle_lanes(t: &Triangle<f32>) -> BoxLanes<f32> {
    corner_lanes(&t.a, &t.b, &t.c)
}

/// Boxes of `n` small triangles scattered by a fixed hash.
fn sah_boxes(n: usize) -> Vec<BoxLanes<f32>> {
    (0..n)
        .map(|i| {
            let h = |s: usize| ((i * 7919 + s * 104_729) % 1009) as f32 * 0.01;
            let p = Point3::new(h(1), h(2), h(3));
            let q = Point3::new(p.x + 0.05, p.y, p.z + h(4) * 0.01);
            triangle_lanes(&Triangle::new(p, q, Point3::new(p.x, p.y + 0.02, p.z)))
        })
        .collect()
}

/// The in-place and the chunked stable partitions by recorded bin
/// numbers agree on the parts (as sets), the stable one keeps order,
/// both report exact key bounds, and the chunked bounds pass equals a
/// sequential fold, on sizes around chunk boundaries and on any number
/// of threads.
#[test]
fn sah_partitions_agree() {
    for n in [1, 5, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
        let boxes = sah_boxes(n);
        // Bin numbers of the key on each axis, 0..=9.
        let code = |b: &BoxLanes<f32>| {
            let c = keys(b);
            (0..3).fold(0u32, |acc, k| acc | ((c[k] as u32 % 10) << (8 * k)))
        };
        let codes: Vec<u32> = boxes.iter().map(code).collect();
        let (axis, last_left) = (1, 4);
        let left = |b: &BoxLanes<f32>| (code(b) >> 8) & 0xff <= last_left;
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (mut b1, mut i1) = (boxes.clone(), (0..n as u32).collect::<Vec<_>>());
            let (mut b2, mut i2) = (boxes.clone(), i1.clone());
            let (mut a1, mut ai1) = (vec![[0.0; 8]; n], vec![0; n]);
            let (mut a2, mut ai2) = (vec![[0.0; 8]; n], vec![0; n]);
            let (mut c1, mut c2) = (codes.clone(), codes.clone());
            let mut p1 = SahPrims {
                boxes: &mut b1,
                ids: &mut i1,
                alt_boxes: &mut a1,
                alt_ids: &mut ai1,
                codes: &mut c1,
                swapped: false,
            };
            let mut p2 = SahPrims {
                boxes: &mut b2,
                ids: &mut i2,
                alt_boxes: &mut a2,
                alt_ids: &mut ai2,
                codes: &mut c2,
                swapped: false,
            };
            assert_eq!(
                pool.install(|| p1.bounds()),
                (union_of(&boxes), KeyBounds::of(&boxes))
            );
            let (k1, l1, r1) = p1.partition_codes(axis, last_left);
            let (k2, l2, r2) = pool.install(|| p2.partition_codes_stable(axis, last_left));
            assert!(p2.swapped);
            assert_eq!((k1, l1, r1), (k2, l2, r2));
            assert_eq!(
                (l1, r1),
                (
                    KeyBounds::of(&p1.boxes[..k1]),
                    KeyBounds::of(&p1.boxes[k1..])
                )
            );
            let expect: Vec<u32> = (0..n as u32)
                .filter(|&i| left(&boxes[i as usize]))
                .chain((0..n as u32).filter(|&i| !left(&boxes[i as usize])))
                .collect();
            assert_eq!(p2.ids, &expect[..]);
            for (b, &id) in p2.boxes.iter().zip(p2.ids.iter()) {
                assert_eq!(*b, boxes[id as usize]);
            }
            for (b, &id) in p1.boxes.iter().zip(p1.ids.iter()) {
                assert_eq!(*b, boxes[id as usize]);
            }
            let mut s1: Vec<u32> = p1.ids[..k1].to_vec();
            s1.sort();
            let mut s2: Vec<u32> = expect[..k1].to_vec();
            s2.sort();
            assert_eq!(s1, s2);
            p2.go_home();
            assert!(!p2.swapped);
            assert_eq!(i2, expect);
        }
    }
}

/// The sweep's split is the cheapest of every split of every axis's
/// sorted order (checked by brute force over all of them), whatever
/// the input order.
#[test]
fn sweep_split_is_the_exact_sah_split() {
    for n in 2..=SWEEP_MAX {
        for rot in [0, 1, n / 2] {
            let mut boxes = sah_boxes(n);
            boxes.rotate_left(rot % n);
            let mut ids: Vec<u32> = (0..n as u32).map(|i| (i + rot as u32) % n as u32).collect();
            let orig: Vec<(u32, BoxLanes<f32>)> =
                ids.iter().copied().zip(boxes.iter().copied()).collect();
            let (mut ab, mut ai, mut c) = (vec![[0.0; 8]; n], vec![0; n], vec![0; n]);
            let mut p = SahPrims {
                boxes: &mut boxes,
                ids: &mut ids,
                alt_boxes: &mut ab,
                alt_ids: &mut ai,
                codes: &mut c,
                swapped: false,
            };
            let s = sweep_split(&mut p);
            let cost = |l: &[BoxLanes<f32>], r: &[BoxLanes<f32>]| {
                half_area_lanes(&union_of(l)) * l.len() as f32
                    + half_area_lanes(&union_of(r)) * r.len() as f32
            };
            let got = cost(&p.boxes[..s.k], &p.boxes[s.k..]);
            let mut best = f32::INFINITY;
            for axis in 0..3 {
                let mut sorted = orig.clone();
                sorted.sort_by(|a, b| {
                    keys(&a.1)[axis]
                        .total_cmp(&keys(&b.1)[axis])
                        .then(a.0.cmp(&b.0))
                });
                let bs: Vec<BoxLanes<f32>> = sorted.iter().map(|x| x.1).collect();
                for k in 1..n {
                    best = best.min(cost(&bs[..k], &bs[k..]));
                }
            }
            assert_eq!(got, best, "n = {n}");
            assert!(0 < s.k && s.k < n);
            assert_eq!(s.left, union_of(&p.boxes[..s.k]));
            assert_eq!(s.right, union_of(&p.boxes[s.k..]));
            assert_eq!(s.left_cents, KeyBounds::of(&p.boxes[..s.k]));
            for (id, b) in p.ids.iter().zip(p.boxes.iter()) {
                assert_eq!(orig.iter().find(|x| x.0 == *id).unwrap().1, *b);
            }
        }
    }
}
