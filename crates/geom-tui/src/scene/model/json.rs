//! Bodies and colliders as the headless runner's JSON lists them (serde's
//! `Serialize`): points as `[x, y]`, a body's shape keys for a capsule
//! only, and the optional keys only where they differ from the defaults.

use geom_core::Vec2;
use serde::Serialize;

use super::{BodySpec, default_layer, default_mask};

impl Serialize for BodySpec {
    /// As a table of keys: `shape`, `start` and `end` for a capsule
    /// only, and the optional keys only where they differ from the
    /// defaults.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let capsule = self.is_capsule();
        let core_end = |i: usize| capsule.then_some(Point(self.core[i]));
        let out = BodyOut {
            shape: capsule.then_some("capsule"),
            position: Point(self.position),
            start: core_end(0),
            end: core_end(1),
            radius: self.radius,
            velocity: Point(self.velocity),
            restitution: self.restitution,
            inverse_mass: self.inverse_mass,
            friction: self.friction,
            gravity_scale: self.gravity_scale,
            sensor: self.sensor,
            layer: self.layer,
            mask: self.mask,
            tag: self.tag,
            player: self.player,
        };
        out.serialize(s)
    }
}

/// A point as `[x, y]`.
struct Point(Vec2<f64>);

impl Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        point(&self.0, s)
    }
}

/// Writes a point as `[x, y]`.
pub(super) fn point<S: serde::Serializer>(v: &Vec2<f64>, s: S) -> Result<S::Ok, S::Error> {
    [v.x, v.y].serialize(s)
}

/// A point as `[x, y]`, when there is one (the caller skips `None`).
// serde's `serialize_with` passes references.
#[allow(clippy::ref_option)]
pub(super) fn optional_point<S: serde::Serializer>(v: &Option<Vec2<f64>>, s: S) -> Result<S::Ok, S::Error> {
    v.map(|p| [p.x, p.y]).serialize(s)
}

// serde's `skip_serializing_if` passes references.
#[allow(clippy::trivially_copy_pass_by_ref)]
pub(super) fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(super) fn is_one(v: &f64) -> bool {
    *v == 1.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(super) fn is_false(v: &bool) -> bool {
    !*v
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(super) fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(super) fn is_default_layer(v: &u32) -> bool {
    *v == default_layer()
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(super) fn is_default_mask(v: &u32) -> bool {
    *v == default_mask()
}

pub(super) fn is_zero(v: &Vec2<f64>) -> bool {
    *v == Vec2::new(0.0, 0.0)
}

/// What a body looks like: a circle's keys are those it always had.
#[derive(Serialize)]
struct BodyOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<&'static str>,
    position: Point,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<Point>,
    radius: f64,
    velocity: Point,
    restitution: f64,
    inverse_mass: f64,
    #[serde(skip_serializing_if = "is_zero_f64")]
    friction: f64,
    #[serde(skip_serializing_if = "is_one")]
    gravity_scale: f64,
    #[serde(skip_serializing_if = "is_false")]
    sensor: bool,
    #[serde(skip_serializing_if = "is_default_layer")]
    layer: u32,
    #[serde(skip_serializing_if = "is_default_mask")]
    mask: u32,
    #[serde(skip_serializing_if = "is_zero_u64")]
    tag: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<u8>,
}
