//! Random joint vectors within the joint limits, seeded and reproducible.

use super::Robot;
use super::configs::Configurations;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;

/// Draws joint vectors uniformly within the joint limits (continuous
/// joints within `[-π, π]`), the same sequence for the same seed on every
/// machine (ChaCha8).
///
/// ```
/// use clash::robot::{ConfigurationSampler, PackageMap, Robot};
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///     <limit lower="-0.5" upper="2"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, ".", &PackageMap::new()).unwrap();
/// let configs = ConfigurationSampler::new(&robot, 7).sample_many(100);
/// assert!(configs.iter().all(|q| robot.check_limits(q).is_ok()));
/// assert_eq!(configs, ConfigurationSampler::new(&robot, 7).sample_many(100));
/// ```
#[derive(Debug, Clone)]
pub struct ConfigurationSampler {
    ranges: Vec<(f64, f64)>,
    rng: ChaCha8Rng,
}

impl ConfigurationSampler {
    /// A sampler for `robot`'s joint vectors, seeded with `seed`.
    pub fn new(robot: &Robot, seed: u64) -> Self {
        let ranges = robot
            .dof_joints()
            .iter()
            .map(|&j| match robot.joints()[j].limits {
                Some(l) => (l.lower, l.upper),
                None => (-PI, PI),
            })
            .collect();
        Self {
            ranges,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The next joint vector, written into `q`.
    ///
    /// # Panics
    /// If `q.len()` is not the robot's [`dof`](Robot::dof).
    pub fn sample_into(&mut self, q: &mut [f64]) {
        assert_eq!(
            q.len(),
            self.ranges.len(),
            "one value per degree of freedom"
        );
        for (v, &(lower, upper)) in q.iter_mut().zip(&self.ranges) {
            let u: f64 = self.rng.random();
            // A convex combination cannot overflow for any finite limits;
            // rounding may step an ulp past a bound, so clamp.
            *v = (lower * (1.0 - u) + upper * u).clamp(lower, upper);
        }
    }

    /// The next joint vector.
    pub fn sample(&mut self) -> Vec<f64> {
        let mut q = vec![0.0; self.ranges.len()];
        self.sample_into(&mut q);
        q
    }

    /// The next `count` joint vectors.
    pub fn sample_many(&mut self, count: usize) -> Configurations {
        let mut configs = Configurations::new(self.ranges.len());
        let mut q = vec![0.0; self.ranges.len()];
        for _ in 0..count {
            self.sample_into(&mut q);
            configs.push(&q);
        }
        configs
    }
}
