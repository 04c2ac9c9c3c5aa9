//! The fuzz target's input format and checks (`fuzz/fuzz_targets/convex_pair.rs`
//! includes this file with `#[path]`; `fuzz_seeds` runs the seeds through it).
//!
//! Byte 0 picks the case: below 64, a ball against a box, cylinder or cone
//! (byte 0 mod 3); otherwise two hulls. Then a scale exponent, counts,
//! margins, and little-endian `i16`s for coordinates, rotations
//! (quaternions, normalised; zero is the identity) and translations, read
//! as zeros past the end of the input.
#![allow(dead_code)]

use crate::check::{ball_solid, hull_pair};
use clash_convex::ConvexHull;
use clash_convex::gjk::GjkVariant;
use clash_convex::query::QueryRequest;
use clash_math::nalgebra::Quaternion;
use clash_math::{Isometry3, Point3, Translation3, UnitQuaternion};

/// Reads the input front to back, zeros past its end.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    /// An `i16` as a fraction in `[-1, 1)`.
    fn unit(&mut self) -> f64 {
        let lo = self.byte();
        let hi = self.byte();
        f64::from(i16::from_le_bytes([lo, hi])) / 32768.0
    }
    fn point(&mut self, scale: f64) -> Point3<f64> {
        Point3::new(
            self.unit() * scale,
            self.unit() * scale,
            self.unit() * scale,
        )
    }
    fn pose(&mut self, scale: f64) -> Isometry3<f64> {
        let q = Quaternion::new(self.unit(), self.unit(), self.unit(), self.unit());
        let rotation = if q.norm() > 1e-3 {
            UnitQuaternion::from_quaternion(q)
        } else {
            UnitQuaternion::identity()
        };
        Isometry3::from_parts(Translation3::from(self.point(3.0 * scale).coords), rotation)
    }
}

/// Decodes one input and checks every query on it against the oracles.
pub fn run(data: &[u8]) -> Result<(), String> {
    let mut r = Reader { data, at: 0 };
    let mode = r.byte();
    let scale = 2f64.powi(i32::from(r.byte() as i8) / 8);
    if mode < 64 {
        let kind = usize::from(mode % 3);
        let dims = [
            r.unit().abs() * scale,
            r.unit().abs() * scale,
            r.unit().abs() * scale,
        ];
        let radius = r.unit().abs() * scale;
        let pose = r.pose(scale);
        let centre = r.point(2.0 * scale);
        return ball_solid(kind, dims, radius, &pose, &centre).map(|_| ());
    }
    let counts = r.byte();
    let (na, nb) = (1 + usize::from(counts & 15), 1 + usize::from(counts >> 4));
    let margins = r.byte();
    let margin = |bits: u8, r: &mut Reader<'_>| {
        if bits & 1 == 1 {
            r.unit().abs() * 0.25 * scale
        } else {
            0.0
        }
    };
    let (ma, mb) = (margin(margins, &mut r), margin(margins >> 1, &mut r));
    let pa: Vec<_> = (0..na).map(|_| r.point(scale)).collect();
    let pb: Vec<_> = (0..nb).map(|_| r.point(scale)).collect();
    let a = ConvexHull::new(&pa)
        .and_then(|h| h.with_margin(ma))
        .map_err(|e| e.to_string())?;
    let b = ConvexHull::new(&pb)
        .and_then(|h| h.with_margin(mb))
        .map_err(|e| e.to_string())?;
    let (pose_a, pose_b) = (r.pose(scale), r.pose(scale));
    let req = QueryRequest {
        gjk_variant: if mode & 1 == 1 {
            GjkVariant::Nesterov
        } else {
            GjkVariant::Plain
        },
        ..QueryRequest::default()
    };
    hull_pair(&a, &pose_a, &b, &pose_b, &req, false).map(|_| ())
}
