//! The fits of the median/mean builder's nodes: along the axes the parent
//! computed for both children at once, or over the carried triangles.

use super::Builder;
use super::shared::Shared;
use crate::build::FitQuality;
use crate::build::partition::{Elem, Prims};
use clash_bv::{FitError, FitScratch, FitVolume};
use clash_math::{Matrix3, MomentSum, Scalar, Triangle};

impl Builder {
    /// The volume of one node of the median/mean builder. Fits along axes
    /// take `axes` (the continuous-PCA axes of the node's summed moments,
    /// or a lone triangle's own frame, computed by the parent, see
    /// [`Self::axes_x2`]) and the extents over its listed corners (a lone
    /// triangle's own corners); other fits take the node's (carried)
    /// triangles.
    pub(super) fn fit<T: Scalar, B: FitVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        prims: &Prims<'_, T>,
        axes: Option<Matrix3<T>>,
        corners: &[u32],
        scratch: &mut FitScratch<T>,
    ) -> Result<B, FitError> {
        if !self.fits_along::<T, B>(prims.len()) {
            return self.opts.fit.fit(prims.tris);
        }
        if let Some(axes) = axes {
            let points = shared.corners(prims, corners)?;
            if let Some(bv) = B::fit_along_axes_with(&axes, &points, scratch) {
                return Ok(bv);
            }
        }
        // Degenerate triangles (zero total area) or overflow: the checked
        // fit over the triangles, as `fit_triangles` would. Rare, so the
        // triangles are gathered here.
        let tris: Vec<Triangle<T>> = prims
            .elems
            .iter()
            .map(|e| shared.source.triangle(e.id as usize))
            .collect();
        B::fit_triangles(&tris)
    }

    /// Whether a node of `n` triangles is fitted along axes (see
    /// [`Self::fit`]).
    fn fits_along<T: Scalar, B: FitVolume<T>>(&self, n: usize) -> bool {
        B::FITS_ALONG_AXES
            && match self.opts.fit {
                FitQuality::Basic => true,
                FitQuality::TightAbove { min_triangles } => n < min_triangles as usize,
                FitQuality::Tight => false,
            }
    }

    /// The volumes of two sibling nodes, each the very volume
    /// [`Self::fit`] gives it: side by side
    /// ([`FitVolume::fit_along_axes_x2_with`]) when both are fitted
    /// along axes, else one after the other.
    pub(super) fn fit_x2<T: Scalar, B: FitVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        prims: [&Prims<'_, T>; 2],
        axes: [Option<Matrix3<T>>; 2],
        corners: [&[u32]; 2],
        scratch: &mut FitScratch<T>,
    ) -> Result<[B; 2], FitError> {
        if let [Some(a), Some(b)] = &axes
            && self.fits_along::<T, B>(prims[0].len())
            && self.fits_along::<T, B>(prims[1].len())
        {
            let points = [
                shared.corners(prims[0], corners[0])?,
                shared.corners(prims[1], corners[1])?,
            ];
            if let [Some(l), Some(r)] =
                B::fit_along_axes_x2_with([a, b], [&points[0], &points[1]], scratch)
            {
                return Ok([l, r]);
            }
        }
        Ok([
            self.fit(shared, prims[0], axes[0], corners[0], scratch)?,
            self.fit(shared, prims[1], axes[1], corners[1], scratch)?,
        ])
    }

    /// The axes of two sibling nodes' fits along axes: a lone triangle's
    /// own frame (two lone triangles' side by side), else the continuous-PCA axes of the summed moments
    /// (Eberly §6.1.3), the two eigen solves side by side (they are bound
    /// by latency, and overlap); `None` where the fit takes the checked
    /// path over the triangles or fits no axes.
    pub(super) fn axes_x2<T: Scalar>(
        &self,
        shared: &Shared<'_, T>,
        elems: [&[Elem]; 2],
        sums: [&MomentSum; 2],
    ) -> [Option<Matrix3<T>>; 2] {
        if !shared.lists {
            return [None, None];
        }
        match elems {
            [[a], [b]] => shared.lone_axes_x2([a, b]),
            [[a], _] => [
                shared.lone_axes(a),
                clash_bv::principal_axes_of_sum(sums[1]),
            ],
            [_, [b]] => [
                clash_bv::principal_axes_of_sum(sums[0]),
                shared.lone_axes(b),
            ],
            _ => clash_bv::principal_axes_of_sums(sums),
        }
    }
}
