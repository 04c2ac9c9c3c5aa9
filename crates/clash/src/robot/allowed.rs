//! The allowed-collision matrix: pairs of links never checked.

/// Which pairs of a robot's links may collide without it counting
/// ("allowed": never checked), as MoveIt's matrix of the same name: adjacent
/// links, pairs that can never meet. A dense symmetric table, so a lookup is
/// one load.
///
/// ```
/// use clash::robot::AllowedCollisionMatrix;
/// let mut acm = AllowedCollisionMatrix::new(3);
/// acm.set(0, 2, true);
/// assert!(acm.is_allowed(2, 0));
/// assert!(!acm.is_allowed(0, 1));
/// assert_eq!(acm.allowed_pairs().collect::<Vec<_>>(), vec![(0, 2)]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedCollisionMatrix {
    links: usize,
    allowed: Vec<bool>,
}

impl AllowedCollisionMatrix {
    /// A matrix over `links` links with no pair allowed (every pair checked).
    pub fn new(links: usize) -> Self {
        Self {
            links,
            allowed: vec![false; links * links],
        }
    }

    /// The number of links.
    pub fn num_links(&self) -> usize {
        self.links
    }

    /// Whether the pair `(a, b)` is allowed to collide (never checked).
    ///
    /// # Panics
    /// If `a` or `b` is not below [`num_links`](Self::num_links).
    #[inline]
    pub fn is_allowed(&self, a: usize, b: usize) -> bool {
        assert!(a < self.links && b < self.links, "link index out of range");
        self.allowed[a * self.links + b]
    }

    /// Sets whether the pair `(a, b)` (either order) is allowed to collide.
    ///
    /// # Panics
    /// If `a` or `b` is not below [`num_links`](Self::num_links).
    pub fn set(&mut self, a: usize, b: usize, allowed: bool) {
        assert!(a < self.links && b < self.links, "link index out of range");
        self.allowed[a * self.links + b] = allowed;
        self.allowed[b * self.links + a] = allowed;
    }

    /// Allows or forbids every pair of `link` with another link.
    ///
    /// # Panics
    /// If `link` is not below [`num_links`](Self::num_links).
    pub fn set_all(&mut self, link: usize, allowed: bool) {
        for other in 0..self.links {
            if other != link {
                self.set(link, other, allowed);
            }
        }
    }

    /// The allowed pairs `(a, b)`, `a < b`, in increasing order.
    pub fn allowed_pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.links).flat_map(move |a| {
            (a + 1..self.links)
                .filter(move |&b| self.allowed[a * self.links + b])
                .map(move |b| (a, b))
        })
    }
}
