//! A world in any of the five scalar types behind one object-safe face, so
//! the sandbox can hold, step, rewind and edit it without knowing its
//! type. Everything crossing this boundary is `f64`; nothing here adds
//! physics of its own.

use geom_core::world::{self, BodyId, ColliderId, EventKind, Id, World, WorldError};
use geom_core::{
    Capsule, Circle, Contact, Segment, Vec2, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_segment,
};

use crate::inputs::character_config;
use crate::num::{SandboxScalar, ScalarKind, with_scalar};
use crate::scene::{BodySpec, ColliderSpec, Scene, SceneError, Shape, check_values, explain, of_vec};

/// A world in some scalar type.
pub(crate) trait Sim: Send {
    /// Which scalar type it runs in.
    fn kind(&self) -> ScalarKind;
    /// The current tick.
    fn tick(&self) -> u64;
    /// The world's checksum.
    fn checksum(&self) -> u64;
    /// Advances one tick.
    fn step(&mut self);
    /// A copy (cheap: the colliders are shared; the query index is left
    /// for [`Sim::index_queries`]).
    fn boxed_clone(&self) -> Box<dyn Sim>;
    /// Builds the index the world's queries search, if a copy or an edit
    /// since the last step left it stale: drawing the contacts (a query
    /// per body) would otherwise look at every shape for each.
    fn index_queries(&mut self);
    /// How many bodies there are.
    fn body_count(&self) -> usize;
    /// How many colliders there are.
    fn collider_count(&self) -> usize;
    /// Every body, in id order.
    fn bodies(&self) -> Vec<(BodyId, BodySpec)>;
    /// Every collider, in id order.
    fn colliders(&self) -> Vec<(ColliderId, ColliderSpec)>;
    /// The gravity, as `f64`.
    fn gravity(&self) -> Vec2<f64>;
    /// Every current contact, computed in the world's own scalar type
    /// through the world's own queries: each body's (in id order) with the
    /// colliders and the later bodies it touches, sensors and pairs whose
    /// layers do not meet left out.
    fn contacts(&self) -> Vec<ContactView>;
    /// What happened during the last tick, as the world reports it.
    fn events(&self) -> Vec<EventView>;
    /// The whole world as a scene (tick and ids aside).
    fn to_scene(&self) -> Scene;
    /// A body, if it exists.
    fn body(&self, id: BodyId) -> Option<BodySpec>;
    /// A collider, if it exists.
    fn collider(&self, id: ColliderId) -> Option<ColliderSpec>;
    /// Sets some values of a body or collider, each converted from `f64`
    /// once; the values not named keep every bit.
    fn set_fields(&mut self, item: Selected, changes: &[(Field, f64)]) -> Result<(), String>;
    /// Adds a body.
    fn add_body(&mut self, body: BodySpec) -> Result<BodyId, String>;
    /// Removes a body.
    fn remove_body(&mut self, id: BodyId) -> Result<(), String>;
    /// Adds a collider.
    fn add_collider(&mut self, collider: ColliderSpec) -> Result<ColliderId, String>;
    /// Removes a collider.
    fn remove_collider(&mut self, id: ColliderId) -> Result<(), String>;
    /// Moves a character by `motion` (converted from `f64` once) with the
    /// sandbox's [`character_config`]: what the move met.
    fn move_character(&mut self, id: BodyId, motion: Vec2<f64>) -> Result<MoveView, String>;
    /// Whether a character stands on walkable ground now, before it moves.
    fn character_grounded(&self, id: BodyId) -> Result<bool, String>;
}

/// What a character's move met, as the status bar shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveView {
    /// It stands on walkable ground after the move.
    pub grounded: bool,
    /// It hit a wall (or a slope too steep) on the way.
    pub wall: bool,
    /// It hit a ceiling on the way.
    pub ceiling: bool,
}

/// A body or a static collider of a world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selected {
    /// A body.
    Body(BodyId),
    /// A static collider.
    Collider(ColliderId),
}

/// One editable value of a body or a collider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// The x of a body's or a circle's centre.
    X,
    /// The y of a body's or a circle's centre.
    Y,
    /// A body's or a platform's velocity along x.
    Vx,
    /// A body's or a platform's velocity along y.
    Vy,
    /// The radius of a body, a circle or a capsule.
    Radius,
    /// A body's or a collider's restitution.
    Restitution,
    /// A body's inverse mass.
    InverseMass,
    /// A body's or a collider's friction.
    Friction,
    /// The x of a segment's or a capsule's first endpoint (for a capsule
    /// body, relative to its position).
    X1,
    /// The y of a segment's or a capsule's first endpoint (for a capsule
    /// body, relative to its position).
    Y1,
    /// The x of a segment's or a capsule's second endpoint (for a capsule
    /// body, relative to its position).
    X2,
    /// The y of a segment's or a capsule's second endpoint (for a capsule
    /// body, relative to its position).
    Y2,
}

impl Field {
    /// What it is, in words: `coordinate`, `velocity`, `radius`, …
    pub(crate) fn quantity(self) -> &'static str {
        match self {
            Self::X | Self::Y | Self::X1 | Self::Y1 | Self::X2 | Self::Y2 => "coordinate",
            Self::Vx | Self::Vy => "velocity",
            Self::Radius => "radius",
            Self::Restitution => "restitution",
            Self::InverseMass => "inverse mass",
            Self::Friction => "friction",
        }
    }

    /// The name typed in the edit prompt.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::X => "x",
            Self::Y => "y",
            Self::Vx => "vx",
            Self::Vy => "vy",
            Self::Radius => "r",
            Self::Restitution => "e",
            Self::InverseMass => "im",
            Self::Friction => "mu",
            Self::X1 => "x1",
            Self::Y1 => "y1",
            Self::X2 => "x2",
            Self::Y2 => "y2",
        }
    }
}

/// A body's editable values: its position, a capsule's core (relative to
/// the position), then its velocity, radius, restitution, inverse mass and
/// friction.
pub(crate) fn body_fields(b: &BodySpec) -> Vec<(Field, f64)> {
    let mut fields = vec![(Field::X, b.position.x), (Field::Y, b.position.y)];
    if b.is_capsule() {
        let [start, end] = b.core;
        fields.extend([(Field::X1, start.x), (Field::Y1, start.y), (Field::X2, end.x), (Field::Y2, end.y)]);
    }
    fields.extend([
        (Field::Vx, b.velocity.x),
        (Field::Vy, b.velocity.y),
        (Field::Radius, b.radius),
        (Field::Restitution, b.restitution),
        (Field::InverseMass, b.inverse_mass),
        (Field::Friction, b.friction),
    ]);
    fields
}

/// A collider's editable values: its shape's, then its velocity (a
/// platform's), friction and restitution.
pub(crate) fn collider_fields(collider: &ColliderSpec) -> Vec<(Field, f64)> {
    let mut fields = match collider.shape {
        Shape::Segment { start, end } => {
            vec![(Field::X1, start.x), (Field::Y1, start.y), (Field::X2, end.x), (Field::Y2, end.y)]
        }
        Shape::Capsule { start, end, radius } => vec![
            (Field::X1, start.x),
            (Field::Y1, start.y),
            (Field::X2, end.x),
            (Field::Y2, end.y),
            (Field::Radius, radius),
        ],
        Shape::Circle { center, radius } => vec![(Field::X, center.x), (Field::Y, center.y), (Field::Radius, radius)],
    };
    fields.extend([
        (Field::Vx, collider.velocity.x),
        (Field::Vy, collider.velocity.y),
        (Field::Friction, collider.friction),
        (Field::Restitution, collider.restitution),
    ]);
    fields
}

/// `shape` with one value changed: `None` when it has no such field, the
/// shape's error when the value is refused.
fn with_field<S: SandboxScalar>(
    shape: world::Shape<S>,
    field: Field,
    value: S,
) -> Option<Result<world::Shape<S>, geom_core::ShapeError>> {
    use world::Shape as W;
    let set = |p: Vec2<S>| match field {
        Field::X | Field::X1 | Field::X2 => Vec2::new(value, p.y),
        _ => Vec2::new(p.x, value),
    };
    Some(match (shape, field) {
        (W::Segment(s), Field::X1 | Field::Y1) => Segment::new(set(s.start()), s.end()).map(W::Segment),
        (W::Segment(s), Field::X2 | Field::Y2) => Segment::new(s.start(), set(s.end())).map(W::Segment),
        (W::Capsule(c), Field::X1 | Field::Y1 | Field::X2 | Field::Y2 | Field::Radius) => {
            let (s, r) = (c.segment(), c.radius());
            match field {
                Field::X1 | Field::Y1 => Capsule::new(set(s.start()), s.end(), r),
                Field::Radius => Capsule::new(s.start(), s.end(), value),
                _ => Capsule::new(s.start(), set(s.end()), r),
            }
            .map(W::Capsule)
        }
        (W::Circle(c), Field::X | Field::Y) => Circle::new(set(c.center()), c.radius()).map(W::Circle),
        (W::Circle(c), Field::Radius) => Circle::new(c.center(), value).map(W::Circle),
        _ => return None,
    })
}

/// The contact of a body's shape `a` with a collider's shape `b` (the
/// normal towards the body), by the queries the world's step uses: a
/// circle's own against each shape, the capsule query for a capsule.
fn contact_with<S: SandboxScalar>(a: &world::Shape<S>, b: &world::Shape<S>) -> Option<Contact<S>> {
    use world::Shape as W;
    match (a, b) {
        (W::Circle(c), W::Segment(s)) => contact_circle_segment(c, s),
        (W::Circle(c), W::Capsule(k)) => contact_circle_capsule(c, k),
        (W::Circle(c), W::Circle(d)) => contact_circle_circle(c, d),
        (a, b) => contact_capsule_capsule(&as_capsule(a)?, &as_capsule(b)?),
    }
}

/// The contact of two bodies (the normal towards `a`), as the world's
/// step finds it: the circle query between circles, the capsule query
/// when either is a capsule.
fn contact_of_bodies<S: SandboxScalar>(a: &world::Body<S>, b: &world::Body<S>) -> Option<Contact<S>> {
    if a.is_capsule() || b.is_capsule() {
        contact_capsule_capsule(&a.capsule(), &b.capsule())
    } else {
        contact_circle_circle(&a.circle(), &b.circle())
    }
}

/// A shape as a capsule: a segment of radius zero, a circle with a point
/// for a core (`None` only for shapes no world holds).
fn as_capsule<S: SandboxScalar>(shape: &world::Shape<S>) -> Option<Capsule<S>> {
    match *shape {
        world::Shape::Segment(s) => Capsule::new(s.start(), s.end(), S::ZERO).ok(),
        world::Shape::Capsule(k) => Some(k),
        world::Shape::Circle(c) => Capsule::new(c.center(), c.center(), c.radius()).ok(),
    }
}

/// A contact to draw: where, and the normal (towards the body, or towards
/// the first of two bodies).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactView {
    /// The contact point.
    pub point: Vec2<f64>,
    /// The unit normal.
    pub normal: Vec2<f64>,
}

/// An event of the last tick to draw or print, in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EventView {
    /// The body it happened to.
    pub body: BodyId,
    /// What it happened with.
    pub other: Id,
    /// The event's name (see `EventKind::name`).
    pub kind: &'static str,
    /// For an impact: when, where, along which normal, how fast.
    pub impact: Option<ImpactView>,
}

/// An impact's numbers, in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ImpactView {
    pub t: f64,
    pub point: Vec2<f64>,
    pub normal: Vec2<f64>,
    pub speed: f64,
}

/// The smallest box holding every body and collider of `worlds`, if they
/// hold any.
pub(crate) fn shapes_bounds(worlds: &[&dyn Sim]) -> Option<(Vec2<f64>, Vec2<f64>)> {
    worlds
        .iter()
        .flat_map(|w| {
            w.bodies().into_iter().map(|(_, b)| b.shape()).chain(w.colliders().into_iter().map(|(_, c)| c.shape))
        })
        .map(|s| s.bounds())
        .reduce(|(lo, hi), (l, h)| (Vec2::new(lo.x.min(l.x), lo.y.min(l.y)), Vec2::new(hi.x.max(h.x), hi.y.max(h.y))))
}

/// The world `scene` describes, in the scalar type `kind`.
pub(crate) fn build(scene: &Scene, kind: ScalarKind) -> Result<Box<dyn Sim>, SceneError> {
    with_scalar!(kind, S => Ok(Box::new(indexed(scene.build::<S>()?))))
}

/// `world` with the broad phase its queries search built: a world that has
/// not stepped since it was made, copied or edited has none, and drawing
/// its contacts (a query per body) would look at every shape for each.
fn indexed<S: SandboxScalar>(mut world: World<S>) -> World<S> {
    world.update_query_index();
    world
}

/// The outcome of `edit` on `world`, its errors in words, after rebuilding
/// the world's query index (see [`indexed`]).
fn edited<S: SandboxScalar, T>(
    world: &mut World<S>,
    edit: impl FnOnce(&mut World<S>) -> Result<T, WorldError>,
) -> Result<T, String> {
    let outcome = edit(world).map_err(|e| explain(e, S::KIND));
    world.update_query_index();
    outcome
}

impl<S: SandboxScalar> Sim for World<S> {
    fn kind(&self) -> ScalarKind {
        S::KIND
    }

    fn tick(&self) -> u64 {
        World::tick(self)
    }

    fn checksum(&self) -> u64 {
        World::checksum(self)
    }

    fn step(&mut self) {
        World::step(self);
    }

    fn boxed_clone(&self) -> Box<dyn Sim> {
        Box::new(self.clone())
    }

    fn index_queries(&mut self) {
        self.update_query_index();
    }

    fn body_count(&self) -> usize {
        World::bodies(self).len()
    }

    fn collider_count(&self) -> usize {
        World::colliders(self).len()
    }

    fn bodies(&self) -> Vec<(BodyId, BodySpec)> {
        World::bodies(self).iter().map(|b| (b.id(), BodySpec::of_def(&b.def()))).collect()
    }

    fn colliders(&self) -> Vec<(ColliderId, ColliderSpec)> {
        World::colliders(self).iter().map(|c| (c.id(), ColliderSpec::of_collider(c))).collect()
    }

    fn gravity(&self) -> Vec2<f64> {
        of_vec(self.config().gravity)
    }

    fn contacts(&self) -> Vec<ContactView> {
        let view = |c: Contact<S>| ContactView { point: of_vec(c.point), normal: of_vec(c.normal) };
        let mut out = Vec::new();
        let mut touching = Vec::new();
        for body in World::bodies(self).iter().filter(|b| !b.is_sensor()) {
            let shape = body.shape();
            match shape {
                world::Shape::Capsule(capsule) => World::overlap_capsule(self, &capsule, body.filter(), &mut touching),
                _ => World::overlap_circle(self, &body.circle(), body.filter(), &mut touching),
            }
            for &other in &touching {
                let contact = match other {
                    Id::Collider(c) => World::collider(self, c).and_then(|c| contact_with(&shape, &c.shape())),
                    Id::Body(b) if b > body.id() => {
                        World::body(self, b).and_then(|other| contact_of_bodies(body, other))
                    }
                    Id::Body(_) => None,
                };
                out.extend(contact.map(view));
            }
        }
        out
    }

    fn events(&self) -> Vec<EventView> {
        World::events(self)
            .iter()
            .map(|e| EventView {
                body: e.body,
                other: e.other,
                kind: e.kind.name(),
                impact: match e.kind {
                    EventKind::Impact { t, point, normal, speed } => Some(ImpactView {
                        t: t.to_f64(),
                        point: of_vec(point),
                        normal: of_vec(normal),
                        speed: speed.to_f64(),
                    }),
                    _ => None,
                },
            })
            .collect()
    }

    fn to_scene(&self) -> Scene {
        let config = self.config();
        let mut scene = Scene::new(crate::scene::Settings {
            gravity: of_vec(config.gravity),
            bounce_threshold: Some(config.bounce_threshold.to_f64()),
            substeps: Some(config.substeps),
        });
        scene.scalar = Some(S::KIND);
        scene.colliders = Sim::colliders(self).into_iter().map(|(_, c)| c).collect();
        scene.bodies = Sim::bodies(self).into_iter().map(|(_, b)| b).collect();
        scene
    }

    fn body(&self, id: BodyId) -> Option<BodySpec> {
        World::body(self, id).map(|b| BodySpec::of_def(&b.def()))
    }

    fn collider(&self, id: ColliderId) -> Option<ColliderSpec> {
        World::collider(self, id).map(ColliderSpec::of_collider)
    }

    fn set_fields(&mut self, item: Selected, changes: &[(Field, f64)]) -> Result<(), String> {
        let no_such = |field: Field, what: &str| format!("a {what} has no `{}`", field.name());
        let values: Vec<_> = changes.iter().map(|&(field, value)| (field.quantity(), value)).collect();
        check_values(S::KIND, &values)?;
        match item {
            Selected::Body(id) => {
                let body = World::body(self, id).ok_or_else(|| format!("no body has id {}", id.index()))?;
                let (mut def, capsule) = (body.def(), body.is_capsule());
                for &(field, value) in changes {
                    let value = S::from_f64(value);
                    match field {
                        Field::X => def.position.x = value,
                        Field::Y => def.position.y = value,
                        // A capsule's core, relative to the position: a
                        // circle has none (it is both zero).
                        Field::X1 | Field::Y1 | Field::X2 | Field::Y2 if !capsule => {
                            return Err(no_such(field, "circle body"));
                        }
                        Field::X1 => def.core[0].x = value,
                        Field::Y1 => def.core[0].y = value,
                        Field::X2 => def.core[1].x = value,
                        Field::Y2 => def.core[1].y = value,
                        Field::Vx => def.velocity.x = value,
                        Field::Vy => def.velocity.y = value,
                        Field::Radius => def.radius = value,
                        Field::Restitution => def.restitution = value,
                        Field::InverseMass => def.inverse_mass = value,
                        Field::Friction => def.friction = value,
                    }
                }
                edited(self, |w| w.set_body(id, def))
            }
            Selected::Collider(id) => {
                let mut def =
                    World::collider(self, id).ok_or_else(|| format!("no collider has id {}", id.index()))?.def();
                for &(field, value) in changes {
                    let value = S::from_f64(value);
                    match field {
                        Field::Vx => def.velocity.x = value,
                        Field::Vy => def.velocity.y = value,
                        Field::Friction => def.friction = value,
                        Field::Restitution => def.restitution = value,
                        _ => {
                            def.shape = with_field(def.shape, field, value)
                                .ok_or_else(|| no_such(field, Shape::of_shape(&def.shape).kind()))?
                                .map_err(|e| explain(e.into(), S::KIND))?;
                        }
                    }
                }
                edited(self, |w| w.set_collider(id, def))
            }
        }
    }

    fn add_body(&mut self, body: BodySpec) -> Result<BodyId, String> {
        edited(self, |w| w.add_body(body.to_def()))
    }

    fn remove_body(&mut self, id: BodyId) -> Result<(), String> {
        edited(self, |w| w.remove_body(id).map(drop))
    }

    fn add_collider(&mut self, collider: ColliderSpec) -> Result<ColliderId, String> {
        edited(self, |w| collider.to_def().and_then(|def| w.add_collider(def)))
    }

    fn remove_collider(&mut self, id: ColliderId) -> Result<(), String> {
        edited(self, |w| w.remove_collider(id).map(drop))
    }

    fn move_character(&mut self, id: BodyId, motion: Vec2<f64>) -> Result<MoveView, String> {
        let motion = Vec2::new(S::from_f64(motion.x), S::from_f64(motion.y));
        let moved = edited(self, |w| w.move_character(id, motion, &character_config()))?;
        Ok(MoveView { grounded: moved.grounded(), wall: moved.wall, ceiling: moved.ceiling })
    }

    fn character_grounded(&self, id: BodyId) -> Result<bool, String> {
        World::character_ground(self, id, &character_config()).map(|g| g.is_some()).map_err(|e| explain(e, S::KIND))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::DEFAULT_SCENE;

    fn default_sim(kind: ScalarKind) -> Box<dyn Sim> {
        build(&Scene::parse(DEFAULT_SCENE).unwrap(), kind).unwrap()
    }

    #[test]
    fn the_scene_of_a_world_rebuilds_the_same_state() {
        let mut sim = default_sim(ScalarKind::I32F32);
        for _ in 0..50 {
            sim.step();
        }
        let rebuilt = build(&sim.to_scene(), ScalarKind::I32F32).unwrap();
        assert_eq!(rebuilt.bodies(), sim.bodies());
        assert_eq!(rebuilt.colliders(), sim.colliders());
    }

    #[test]
    fn edits_outside_the_types_range_are_refused_and_change_nothing() {
        let mut sim = default_sim(ScalarKind::I16F16);
        let before = sim.checksum();
        let body = Selected::Body(sim.bodies()[0].0);
        let e = sim.set_fields(body, &[(Field::X, 5000.0)]).unwrap_err();
        assert!(e.contains("±4096"), "{e}");
        assert!(sim.set_fields(body, &[(Field::Radius, -1.0)]).unwrap_err().contains("negative"));
        let segment = Selected::Collider(sim.colliders()[0].0);
        assert_eq!(sim.set_fields(segment, &[(Field::Radius, 1.0)]).unwrap_err(), "a segment has no `r`");
        assert!(
            sim.add_collider(Shape::Circle { center: geom_core::Vec2::new(0.0, 9000.0), radius: 1.0 }.into()).is_err()
        );
        assert_eq!(sim.checksum(), before);
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;

    #[test]
    fn setting_one_field_keeps_every_bit_of_the_others() {
        // Beyond 2^21 an I32F32 value with all 32 fraction bits is not an
        // f64: a round trip through f64 would round it.
        let mut scene = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
        scene.bodies.push(BodySpec::new(Vec2::new(3_000_000.0, 0.0), 1.0));
        let mut world: World<fixed::types::I32F32> = scene.build().unwrap();
        let id = world.bodies()[0].id();
        let mut def = world.body(id).unwrap().def();
        def.position.x += fixed::types::I32F32::DELTA;
        World::set_body(&mut world, id, def).unwrap();
        Sim::set_fields(&mut world, Selected::Body(id), &[(Field::Vy, 0.5)]).unwrap();
        let after = world.body(id).unwrap().def();
        assert_eq!(after.position, def.position);
        assert_eq!(after.velocity.y, 0.5);
    }

    #[test]
    fn every_field_a_body_lists_can_be_set_and_only_a_capsule_has_a_core() {
        let ball = BodySpec::new(Vec2::new(0.0, 0.0), 0.5);
        let player = BodySpec::capsule(Vec2::new(0.0, 0.0), Vec2::new(0.0, -0.5), Vec2::new(0.0, 1.5), 0.5);
        let core = [Field::X1, Field::Y1, Field::X2, Field::Y2];
        for body in [ball, player] {
            let empty = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
            let mut sim = build(&empty, ScalarKind::I16F16).unwrap();
            let id = sim.add_body(body).unwrap();
            let fields = body_fields(&body);
            assert_eq!(core.iter().all(|f| fields.iter().any(|(g, _)| g == f)), body.is_capsule());
            let changes: Vec<(Field, f64)> = fields.into_iter().map(|(f, v)| (f, v + 0.25)).collect();
            sim.set_fields(Selected::Body(id), &changes).unwrap();
            assert_eq!(body_fields(&sim.body(id).unwrap()), changes);
        }
        let empty = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
        let mut sim = build(&empty, ScalarKind::F64).unwrap();
        let id = sim.add_body(ball).unwrap();
        assert_eq!(sim.set_fields(Selected::Body(id), &[(Field::X1, 1.0)]).unwrap_err(), "a circle body has no `x1`");
        assert_eq!(sim.body(id).unwrap(), ball, "a refused edit changes nothing");
    }

    #[test]
    fn every_field_a_collider_lists_can_be_set_and_no_other() {
        let shapes = [
            Shape::Segment { start: Vec2::new(0.0, 0.0), end: Vec2::new(1.0, 0.0) },
            Shape::Capsule { start: Vec2::new(0.0, 0.0), end: Vec2::new(1.0, 0.0), radius: 0.5 },
            Shape::Circle { center: Vec2::new(0.0, 0.0), radius: 0.5 },
        ];
        for shape in shapes {
            let empty = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
            let mut sim = build(&empty, ScalarKind::F64).unwrap();
            let id = sim.add_collider(shape.into()).unwrap();
            let changes: Vec<(Field, f64)> =
                collider_fields(&shape.into()).into_iter().map(|(f, v)| (f, v + 0.25)).collect();
            sim.set_fields(Selected::Collider(id), &changes).unwrap();
            assert_eq!(collider_fields(&sim.collider(id).unwrap()), changes);
            let e = sim.set_fields(Selected::Collider(id), &[(Field::InverseMass, 1.0)]).unwrap_err();
            assert_eq!(e, format!("a {} has no `im`", shape.kind()));
        }
    }
}

#[cfg(test)]
mod contact_tests {
    use super::*;
    use crate::scene::{DEFAULT_SCENE, Settings};

    /// Every contact, found by trying every pair, in the order `contacts`
    /// promises: each body's with the colliders, then with later bodies;
    /// sensors and pairs whose layers do not meet left out.
    fn every_pair<S: SandboxScalar>(world: &World<S>) -> Vec<ContactView> {
        let view = |c: Contact<S>| ContactView { point: of_vec(c.point), normal: of_vec(c.normal) };
        let bodies = World::bodies(world);
        let mut out = Vec::new();
        for (i, body) in bodies.iter().enumerate().filter(|(_, b)| !b.is_sensor()) {
            for collider in World::colliders(world) {
                if collider.is_sensor() || !body.filter().matches(collider.filter()) {
                    continue;
                }
                out.extend(contact_with(&body.shape(), &collider.shape()).map(view));
            }
            for other in &bodies[i + 1..] {
                if other.is_sensor() || !body.filter().matches(other.filter()) {
                    continue;
                }
                out.extend(contact_of_bodies(body, other).map(view));
            }
        }
        out
    }

    #[test]
    fn the_worlds_queries_find_the_same_contacts_as_trying_every_pair() {
        let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
        // A crowd, touching exactly and overlapping, on and off the
        // colliders, on three layers, some of them sensors.
        for i in 0..60_u32 {
            let (x, y) = (f64::from(i % 12) - 6.0, f64::from(i / 12) * 1.5 - 19.5);
            let radius = 0.5 + f64::from(i % 3) * 0.25;
            // Two in seven are capsules, lying or standing.
            let mut body = match i % 7 {
                0 => BodySpec::capsule(Vec2::new(x, y), Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), radius),
                3 => BodySpec::capsule(Vec2::new(x, y), Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.5), radius),
                _ => BodySpec::new(Vec2::new(x, y), radius),
            };
            body.layer = 1 << (i % 3);
            body.mask = if i % 5 == 0 { 0b011 } else { u32::MAX };
            body.sensor = i % 11 == 0;
            scene.bodies.push(body);
        }
        let mut found = 0;
        for kind in ScalarKind::ALL {
            with_scalar!(kind, S => {
                let mut world: World<S> = scene.build().unwrap();
                for tick in 0..120 {
                    let contacts = Sim::contacts(&world);
                    assert_eq!(contacts, every_pair(&world), "{kind} at tick {tick}");
                    found += contacts.len();
                    World::step(&mut world);
                }
            });
        }
        assert!(found > 1000, "the scene has contacts to find: {found}");
    }

    #[test]
    fn a_capsule_bodys_contacts_are_along_its_whole_core() {
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
        scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) }.into());
        // Standing on the floor, 4 tall: its feet touch the floor, its head
        // a ball above, far beyond its radius from its position.
        scene.bodies.push(BodySpec::capsule(Vec2::new(0.0, 1.0), Vec2::new(0.0, 0.0), Vec2::new(0.0, 3.0), 1.0));
        scene.bodies.push(BodySpec::new(Vec2::new(0.0, 6.0), 1.0));
        // A plank lying on the floor, its end under a post.
        scene.bodies.push(BodySpec::capsule(Vec2::new(6.0, 0.5), Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 0.5));
        scene.colliders.push(Shape::Circle { center: Vec2::new(8.0, 2.0), radius: 1.0 }.into());
        for kind in ScalarKind::ALL {
            let contacts = build(&scene, kind).unwrap().contacts();
            let up = Vec2::new(0.0, 1.0);
            assert_eq!(contacts.len(), 4, "{kind}: {contacts:?}");
            assert_eq!(contacts[0], ContactView { point: Vec2::new(0.0, 0.0), normal: up }, "{kind}: the feet");
            let head = ContactView { point: Vec2::new(0.0, 5.0), normal: -up };
            assert_eq!(contacts[1], head, "{kind}: the head, under the ball");
            assert_eq!((contacts[2].normal, contacts[2].point.y), (up, 0.0), "{kind}: the plank on the floor");
            assert_eq!(contacts[3].normal, -up, "{kind}: the plank's end under the post");
        }
    }

    #[test]
    fn contacts_list_bodies_touching_colliders_and_each_other_and_nothing_else() {
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
        scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) }.into());
        scene.bodies.push(BodySpec::new(Vec2::new(0.0, 1.0), 1.0)); // on the floor
        scene.bodies.push(BodySpec::new(Vec2::new(2.0, 1.0), 1.0)); // on the floor, touching the first
        scene.bodies.push(BodySpec::new(Vec2::new(0.0, 5.0), 1.0)); // in the air
        for kind in ScalarKind::ALL {
            let contacts = build(&scene, kind).unwrap().contacts();
            let expected = [
                ContactView { point: Vec2::new(0.0, 0.0), normal: Vec2::new(0.0, 1.0) },
                ContactView { point: Vec2::new(1.0, 1.0), normal: Vec2::new(-1.0, 0.0) },
                ContactView { point: Vec2::new(2.0, 0.0), normal: Vec2::new(0.0, 1.0) },
            ];
            assert_eq!(contacts, expected, "{kind}");
        }
    }
}
