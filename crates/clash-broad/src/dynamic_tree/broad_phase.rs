//! [`BroadPhase`] for [`DynamicTree`]: the trait forwards to the inherent methods.
use crate::{
    BroadPhase, BroadPhaseError, DynamicTree, ProxyHandle, ProxyPair, ProxyUpdate, RayHit,
};
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Scalar, Vector3};

impl<T: Scalar, U> BroadPhase<T, U> for DynamicTree<T, U> {
    fn insert(&mut self, aabb: Aabb<T>, data: U) -> Result<ProxyHandle, BroadPhaseError> {
        DynamicTree::insert(self, aabb, data)
    }
    fn remove(&mut self, handle: ProxyHandle) -> Result<U, BroadPhaseError> {
        DynamicTree::remove(self, handle)
    }
    fn update(
        &mut self,
        handle: ProxyHandle,
        aabb: Aabb<T>,
        displacement: Vector3<T>,
    ) -> Result<bool, BroadPhaseError> {
        DynamicTree::update(self, handle, aabb, displacement)
    }
    fn update_many(&mut self, updates: &[ProxyUpdate<T>]) -> Result<usize, BroadPhaseError> {
        DynamicTree::update_many(self, updates)
    }
    fn aabb(&self, handle: ProxyHandle) -> Result<&Aabb<T>, BroadPhaseError> {
        DynamicTree::aabb(self, handle)
    }
    fn data(&self, handle: ProxyHandle) -> Result<&U, BroadPhaseError> {
        DynamicTree::data(self, handle)
    }
    fn len(&self) -> usize {
        DynamicTree::len(self)
    }
    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        DynamicTree::overlapping_pairs(self, out)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError> {
        DynamicTree::query_aabb(self, aabb, out)
    }
    fn query_point(
        &self,
        point: &Point3<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError> {
        DynamicTree::query_point(self, point, out)
    }
    fn cast_ray_all(
        &self,
        ray: &Ray<T>,
        max_t: T,
        out: &mut Vec<RayHit<T>>,
    ) -> Result<(), BroadPhaseError> {
        DynamicTree::cast_ray_all(self, ray, max_t, out)
    }
    fn cast_ray_closest(
        &self,
        ray: &Ray<T>,
        max_t: T,
    ) -> Result<Option<RayHit<T>>, BroadPhaseError> {
        DynamicTree::cast_ray_closest(self, ray, max_t)
    }
}
