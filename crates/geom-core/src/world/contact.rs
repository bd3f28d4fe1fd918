//! The contacts a world keeps from one tick to the next: the pairs in
//! contact, where and along which normal they touched, and the impulses
//! the solver applied, from which the next tick's solve starts.

use super::digest::Digest;
use super::{BodyId, Id, WorldError, hash_scalars, in_range};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// A pair in contact during the last tick: a body and a collider, or a
/// body and a body with a higher id.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactState<S> {
    pub(crate) body: BodyId,
    pub(crate) other: Id,
    /// The unit normal, from the other towards the body.
    pub(crate) normal: Vec2<S>,
    /// Where they touch, on the other's surface.
    pub(crate) point: Vec2<S>,
    /// The gap (positive) or overlap (negative) along the normal at the
    /// end of the tick.
    pub(crate) separation: S,
    /// The solver's accumulated impulses of one substep, along the normal
    /// and its tangent: where the next tick's solve starts.
    pub(crate) normal_impulse: S,
    pub(crate) tangent_impulse: S,
}

impl<S: Scalar> ContactState<S> {
    /// The pair, as `World::contacts` lists it.
    pub(crate) fn key(&self) -> (BodyId, Id) {
        (self.body, self.other)
    }

    pub(crate) fn hash(&self, h: &mut Digest) {
        h.write_u32(self.body.0);
        self.other.hash(h);
        hash_scalars(
            h,
            &[
                self.normal.x,
                self.normal.y,
                self.point.x,
                self.point.y,
                self.separation,
                self.normal_impulse,
                self.tangent_impulse,
            ],
        );
    }
}

impl<S: Scalar> ContactState<S> {
    /// Whether every value is one a step can leave: finite, within the
    /// safe range, and a normal impulse that never pulls.
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        let values = [
            self.normal.x,
            self.normal.y,
            self.point.x,
            self.point.y,
            self.separation,
            self.normal_impulse,
            self.tangent_impulse,
        ];
        if values.into_iter().all(in_range) && self.normal_impulse >= S::ZERO {
            Ok(())
        } else {
            Err(WorldError::Contact)
        }
    }

    /// Every value converted to another type, validated.
    pub(crate) fn convert<T: Scalar>(&self, convert: &mut dyn FnMut(S) -> T) -> Result<ContactState<T>, WorldError> {
        let mut vec = |v: Vec2<S>| Vec2::new(convert(v.x), convert(v.y));
        let (normal, point) = (vec(self.normal), vec(self.point));
        let converted = ContactState {
            body: self.body,
            other: self.other,
            normal,
            point,
            separation: convert(self.separation),
            normal_impulse: convert(self.normal_impulse),
            tangent_impulse: convert(self.tangent_impulse),
        };
        converted.validate()?;
        Ok(converted)
    }
}
