//! The model in each scalar type: a scene's shapes, colliders, bodies and
//! settings as the world's, and back in `f64`.

use geom_core::Vec2;
use geom_core::world::{self, BodyDef, Collider, ColliderDef, Filter, WorldConfig, WorldError};
use geom_core::{Capsule, Circle, Segment};

use super::{BodySpec, ColliderSpec, Settings, Shape};
use crate::num::SandboxScalar;

impl Shape {
    /// The shape in scalar type `S`.
    pub(crate) fn to_shape<S: SandboxScalar>(self) -> Result<world::Shape<S>, WorldError> {
        let p = to_vec::<S>;
        Ok(match self {
            Self::Segment { start, end } => world::Shape::Segment(Segment::new(p(start), p(end))?),
            Self::Capsule { start, end, radius } => {
                world::Shape::Capsule(Capsule::new(p(start), p(end), S::from_f64(radius))?)
            }
            Self::Circle { center, radius } => world::Shape::Circle(Circle::new(p(center), S::from_f64(radius))?),
        })
    }

    /// A shape in `f64`.
    pub(crate) fn of_shape<S: SandboxScalar>(shape: &world::Shape<S>) -> Self {
        let p = of_vec::<S>;
        match shape {
            world::Shape::Segment(s) => Self::Segment { start: p(s.start()), end: p(s.end()) },
            world::Shape::Capsule(c) => {
                let s = c.segment();
                Self::Capsule { start: p(s.start()), end: p(s.end()), radius: c.radius().to_f64() }
            }
            world::Shape::Circle(c) => Self::Circle { center: p(c.center()), radius: c.radius().to_f64() },
        }
    }
}

impl Shape {
    /// Its values as a user names them, for [`check_values`](super::check_values).
    fn values(self) -> Vec<(&'static str, f64)> {
        let point = |p: Vec2<f64>| [("coordinate", p.x), ("coordinate", p.y)];
        match self {
            Self::Segment { start, end } => [point(start), point(end)].concat(),
            Self::Capsule { start, end, radius } => [&point(start)[..], &point(end), &[("radius", radius)]].concat(),
            Self::Circle { center, radius } => [&point(center)[..], &[("radius", radius)]].concat(),
        }
    }
}

impl ColliderSpec {
    /// Its values bounded by a type's safe range, as a user names them.
    pub(crate) fn values(&self) -> Vec<(&'static str, f64)> {
        let mut values = self.shape.values();
        values.extend([("velocity", self.velocity.x), ("velocity", self.velocity.y), ("friction", self.friction)]);
        values
    }

    /// The collider in scalar type `S`.
    pub(crate) fn to_def<S: SandboxScalar>(self) -> Result<ColliderDef<S>, WorldError> {
        let mut def = ColliderDef::new(self.shape.to_shape::<S>()?);
        def.velocity = to_vec(self.velocity);
        def.friction = S::from_f64(self.friction);
        def.restitution = S::from_f64(self.restitution);
        def.sensor = self.sensor;
        def.filter = Filter { layer: self.layer, mask: self.mask };
        def.tag = self.tag;
        def.one_way = self.one_way.map(to_vec);
        Ok(def)
    }

    /// A collider, in `f64`.
    pub(crate) fn of_collider<S: SandboxScalar>(collider: &Collider<S>) -> Self {
        Self {
            shape: Shape::of_shape(&collider.shape()),
            velocity: of_vec(collider.velocity()),
            friction: collider.friction().to_f64(),
            restitution: collider.restitution().to_f64(),
            sensor: collider.is_sensor(),
            layer: collider.filter().layer,
            mask: collider.filter().mask,
            tag: collider.tag(),
            one_way: collider.one_way().map(of_vec),
        }
    }
}

impl BodySpec {
    /// Its values bounded by a type's safe range, as a user names them.
    pub(crate) fn values(&self) -> Vec<(&'static str, f64)> {
        let [a, b] = self.core;
        vec![
            ("coordinate", self.position.x),
            ("coordinate", self.position.y),
            ("coordinate", a.x),
            ("coordinate", a.y),
            ("coordinate", b.x),
            ("coordinate", b.y),
            ("radius", self.radius),
            ("velocity", self.velocity.x),
            ("velocity", self.velocity.y),
            ("inverse mass", self.inverse_mass),
            ("friction", self.friction),
            ("gravity scale", self.gravity_scale),
        ]
    }

    /// The body in scalar type `S`.
    pub(crate) fn to_def<S: SandboxScalar>(self) -> BodyDef<S> {
        let (position, radius) = (to_vec(self.position), S::from_f64(self.radius));
        let mut def = if self.is_capsule() {
            BodyDef::capsule(position, to_vec(self.core[0]), to_vec(self.core[1]), radius)
        } else {
            BodyDef::new(position, radius)
        };
        def.velocity = to_vec(self.velocity);
        def.inverse_mass = S::from_f64(self.inverse_mass);
        def.restitution = S::from_f64(self.restitution);
        def.friction = S::from_f64(self.friction);
        def.gravity_scale = S::from_f64(self.gravity_scale);
        def.sensor = self.sensor;
        def.filter = Filter { layer: self.layer, mask: self.mask };
        def.tag = self.tag;
        def
    }

    /// A body definition, in `f64`.
    pub(crate) fn of_def<S: SandboxScalar>(def: &BodyDef<S>) -> Self {
        Self {
            position: of_vec(def.position),
            core: [of_vec(def.core[0]), of_vec(def.core[1])],
            radius: def.radius.to_f64(),
            velocity: of_vec(def.velocity),
            restitution: def.restitution.to_f64(),
            inverse_mass: def.inverse_mass.to_f64(),
            friction: def.friction.to_f64(),
            gravity_scale: def.gravity_scale.to_f64(),
            sensor: def.sensor,
            layer: def.filter.layer,
            mask: def.filter.mask,
            tag: def.tag,
            // A scene's, not the world's.
            player: None,
        }
    }
}

impl Settings {
    /// The world configuration in scalar type `S`.
    pub(crate) fn to_config<S: SandboxScalar>(self) -> WorldConfig<S> {
        let mut config = WorldConfig::new(to_vec(self.gravity));
        if let Some(threshold) = self.bounce_threshold {
            config.bounce_threshold = S::from_f64(threshold);
        }
        if let Some(substeps) = self.substeps {
            config.substeps = substeps;
        }
        config
    }
}

/// A point in scalar type `S`.
pub(crate) fn to_vec<S: SandboxScalar>(v: Vec2<f64>) -> Vec2<S> {
    Vec2::new(S::from_f64(v.x), S::from_f64(v.y))
}

/// A point in `f64`.
pub(crate) fn of_vec<S: SandboxScalar>(v: Vec2<S>) -> Vec2<f64> {
    Vec2::new(v.x.to_f64(), v.y.to_f64())
}
