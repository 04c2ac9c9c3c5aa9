//! Principal axes for the OBB and RSS fits (RTCD §4.4.3; Eberly
//! §6.1.1–6.1.3): of a covariance matrix, of summed triangle moments (one
//! set, or two side by side), and a lone triangle's own frame.
use crate::FitError;
use clash_math::{
    Matrix3, MomentSum, Pair, Scalar, Triangle, TriangleMoments, Vector3, covariance_of_moments,
    symmetric_eigen_closed_form, symmetric_eigen_closed_form_x2,
};

/// The eigenvectors of a covariance matrix (right-handed, orthonormal columns,
/// decreasing eigenvalue): the principal axes. Solved in closed form
/// ([`symmetric_eigen_closed_form`]), whose vectors are orthonormal and
/// right-handed to rounding by construction (normalised, then turned by an
/// exact rotation; the third is the cross product of the first two): fits
/// run once per tree node, and any orthonormal frame gives a valid box, so
/// the last digits of the axes matter less than speed.
pub(crate) fn principal_axes<T: Scalar>(cov: &Matrix3<T>) -> Matrix3<T> {
    symmetric_eigen_closed_form(cov).vectors
}

/// [`principal_axes`] of two covariance matrices, solved side by side
/// ([`symmetric_eigen_closed_form_x2`]).
pub(crate) fn principal_axes_x2<T: Scalar>(cov: [&Matrix3<T>; 2]) -> [Matrix3<T>; 2] {
    symmetric_eigen_closed_form_x2(cov).map(|e| e.vectors)
}

/// For one non-degenerate triangle: the frame of its smallest enclosing
/// rectangle (longest edge, the in-plane perpendicular, the unit normal).
/// The rectangle along the longest edge has area twice the triangle's, the
/// least of any rectangle holding it, since both angles on that edge are
/// acute. `None` for a degenerate triangle.
pub(crate) fn single_triangle_axes<T: Scalar>(t: &Triangle<T>) -> Option<Matrix3<T>> {
    let (e0, e1, x) = first_edges_and_longest(t);
    let z = e0.cross(&e1).try_normalize(T::ZERO)?;
    let y = z.cross(&x).try_normalize(T::ZERO)?;
    Some(Matrix3::from_columns(&[y.cross(&z), y, z]))
}

/// The edges `b - a` and `c - b` of a triangle, and its longest edge (the
/// first of the longest among `b - a`, `c - b`, `a - c`).
#[inline(always)]
fn first_edges_and_longest<T: Scalar>(t: &Triangle<T>) -> (Vector3<T>, Vector3<T>, Vector3<T>) {
    let edges = [t.b - t.a, t.c - t.b, t.a - t.c];
    let mut x = edges[0];
    for e in &edges[1..] {
        if e.norm_squared() > x.norm_squared() {
            x = *e;
        }
    }
    (edges[0], edges[1], x)
}

/// [`single_triangle_axes`] of two triangles, computed side by side in
/// [`Scalar::Pair`] lanes; each answer is bit for bit the single one's
/// (the lanes evaluate nalgebra's `cross`, `norm` and `try_normalize`
/// expressions in the same order, and lane arithmetic rounds as the
/// scalar's). One triangle's frame is a chain of dependent square roots
/// and divisions; two chains in one set of instructions take the time of
/// one.
#[inline]
pub(crate) fn single_triangle_axes_x2<T: Scalar>(t: [&Triangle<T>; 2]) -> [Option<Matrix3<T>>; 2] {
    use clash_math::lanes::Lanes;
    type V<T> = [<T as Scalar>::Pair; 3];
    let [(a0, a1, ax), (b0, b1, bx)] = t.map(first_edges_and_longest);
    let lanes = |a: Vector3<T>, b: Vector3<T>| -> V<T> {
        [
            T::Pair::new(a.x, b.x),
            T::Pair::new(a.y, b.y),
            T::Pair::new(a.z, b.z),
        ]
    };
    // nalgebra's `cross`, `norm_squared` (`x² + y² + z²`, left to right,
    // then added to zero, which changes no sum of squares) and `unscale`
    // (a division of each coordinate).
    let cross = |a: V<T>, b: V<T>| -> V<T> {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let norm = |v: V<T>| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let z = cross(lanes(a0, b0), lanes(a1, b1));
    let nz = norm(z);
    let z = z.map(|c| c / nz);
    let y = cross(z, lanes(ax, bx));
    let ny = norm(y);
    let y = y.map(|c| c / ny);
    let x = cross(y, z);
    let (nz, ny) = (nz.lanes(), ny.lanes());
    let [x, y, z] = [x, y, z].map(|v| v.map(|c| c.lanes()));
    core::array::from_fn(|l| {
        // `try_normalize(0)` fails on a norm `<= 0` (not on NaN).
        if nz[l] <= T::ZERO || ny[l] <= T::ZERO {
            return None;
        }
        let col = |v: [[T; 2]; 3]| Vector3::new(v[0][l], v[1][l], v[2][l]);
        Some(Matrix3::from_columns(&[col(x), col(y), col(z)]))
    })
}

/// The axes of the default OBB and RSS fits of a lone triangle (a tree's
/// leaf): its longest edge, the in-plane perpendicular and the unit normal,
/// the frame of its smallest enclosing rectangle. `None` for a degenerate
/// triangle, whose fits take the principal axes of its corners.
pub fn lone_triangle_axes<T: Scalar>(t: &Triangle<T>) -> Option<Matrix3<T>> {
    single_triangle_axes(t)
}

/// [`lone_triangle_axes`] of two triangles, computed side by side (a tree
/// builder fits two sibling leaves together); each answer is bit for bit
/// [`lone_triangle_axes`]'s. The frame is bound by the latency of its
/// square roots and divisions, and the two share them, in one SIMD
/// register for `f64` on x86_64 ([`Scalar::Pair`]).
pub fn lone_triangle_axes_x2<T: Scalar>(t: [&Triangle<T>; 2]) -> [Option<Matrix3<T>>; 2] {
    single_triangle_axes_x2(t)
}

/// The principal axes (right-handed, orthonormal columns, decreasing
/// variance) of triangles as a continuous distribution (Eberly §6.1.3)
/// given their moments summed about any origin ([`MomentSum`]): the axes
/// of [`Obb::fit_pca_triangles`] and [`Rss::fit_pca_triangles`] for two or
/// more triangles, up to rounding. `None` when the total area is zero or
/// not finite (the fits then take the checked path over the triangles).
///
/// [`Rss::fit_pca_triangles`]: crate::Rss::fit_pca_triangles
/// [`Obb::fit_pca_triangles`]: crate::Obb::fit_pca_triangles
pub fn principal_axes_of_sum<T: Scalar>(sum: &MomentSum) -> Option<Matrix3<T>> {
    sum.covariance()
        .map(|c| principal_axes(&c.matrix.map(T::lit)))
}

/// [`principal_axes_of_sum`] of two sums, each answer as the single one
/// gives it (a tree builder fits the two children of a node together):
/// both covariances and both eigen solves run in the two lanes of
/// [`Scalar::Pair`], one SIMD instruction per step for the pair.
pub fn principal_axes_of_sums<T: Scalar>(sums: [&MomentSum; 2]) -> [Option<Matrix3<T>>; 2] {
    let cov = MomentSum::covariance_x2(sums).map(|c| c.map(|c| c.matrix.map(T::lit)));
    let stand_in = Matrix3::identity();
    let axes = principal_axes_x2([
        cov[0].as_ref().unwrap_or(&stand_in),
        cov[1].as_ref().unwrap_or(&stand_in),
    ]);
    [cov[0].map(|_| axes[0]), cov[1].map(|_| axes[1])]
}

/// The axes [`Obb::fit_pca_triangles`](crate::Obb::fit_pca_triangles)
/// takes (a lone triangle's own frame, else the principal axes of the
/// continuous distribution, Eberly §6.1.3),
/// from the triangles' moments; `None` when the moments' total area is zero
/// or non-finite (degenerate or non-finite input), where the caller takes the
/// checked path over the triangles. The caller checks that the slices have
/// the same length.
pub(crate) fn pca_axes_of_moments<T: Scalar>(
    triangles: &[Triangle<T>],
    moments: &[TriangleMoments<T>],
) -> Option<Matrix3<T>> {
    debug_assert_eq!(triangles.len(), moments.len());
    if let ([t], [m]) = (triangles, moments) {
        // A non-finite corner makes the area non-finite (NaN or infinite).
        return if m.area > T::ZERO && m.area.finite() {
            single_triangle_axes(t)
        } else {
            None
        };
    }
    covariance_of_moments(moments).map(|c| principal_axes(&c.matrix))
}

/// The moment fits of OBBs and RSSs: checks that `moments` matches
/// `triangles`, then fits `along` the principal axes summed from the
/// moments, or takes `fallback` (the checked fit over the triangles) on
/// degenerate or non-finite input.
pub(crate) fn fit_with_moment_axes<T: Scalar, V>(
    triangles: &[Triangle<T>],
    moments: &[TriangleMoments<T>],
    along: impl FnOnce(&Matrix3<T>) -> V,
    fallback: impl FnOnce() -> Result<V, FitError>,
) -> Result<V, FitError> {
    crate::fit::check::check_moments(triangles, moments)?;
    match pca_axes_of_moments(triangles, moments) {
        Some(axes) => Ok(along(&axes)),
        None => fallback(),
    }
}

/// A unit vector orthogonal to the unit vector `v`.
pub(crate) fn any_orthogonal<T: Scalar>(v: &clash_math::Vector3<T>) -> clash_math::Vector3<T> {
    let a = if v.x.abs() < T::lit(0.57) {
        clash_math::Vector3::x()
    } else {
        clash_math::Vector3::y()
    };
    v.cross(&a).normalize()
}
