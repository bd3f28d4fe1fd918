//! A world in any of the five scalar types behind one object-safe face, so
//! the sandbox can hold, step, rewind and convert it without knowing its
//! type. Everything crossing this boundary is `f64`; nothing here adds
//! physics of its own.

use geom_core::world::{BodyId, Collider, ColliderId, World, WorldError};
use geom_core::{Contact, Vec2, contact_circle_capsule, contact_circle_circle, contact_circle_segment};

use crate::num::{SandboxScalar, ScalarKind, with_scalar};
use crate::scene::{BodySpec, Scene, SceneError, Shape, explain, of_vec};

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
    /// A copy (cheap: the colliders are shared).
    fn boxed_clone(&self) -> Box<dyn Sim>;
    /// How many bodies there are.
    fn body_count(&self) -> usize;
    /// Every body, in id order.
    fn bodies(&self) -> Vec<(BodyId, BodySpec)>;
    /// Every collider, in id order.
    fn colliders(&self) -> Vec<(ColliderId, Shape)>;
    /// The gravity, as `f64`.
    fn gravity(&self) -> Vec2<f64>;
    /// Every current contact, computed in the world's own scalar type.
    fn contacts(&self) -> Vec<ContactView>;
    /// The whole world as a scene (tick and ids aside).
    fn to_scene(&self) -> Scene;
    /// The same world in another scalar type.
    fn convert(&self, kind: ScalarKind) -> Result<Box<dyn Sim>, String>;
    /// Replaces a body.
    fn set_body(&mut self, id: BodyId, body: BodySpec) -> Result<(), String>;
    /// Adds a body.
    fn add_body(&mut self, body: BodySpec) -> Result<BodyId, String>;
    /// Removes a body.
    fn remove_body(&mut self, id: BodyId) -> Result<(), String>;
    /// Replaces a collider's shape.
    fn set_collider(&mut self, id: ColliderId, shape: Shape) -> Result<(), String>;
    /// Adds a collider.
    fn add_collider(&mut self, shape: Shape) -> Result<ColliderId, String>;
    /// Removes a collider.
    fn remove_collider(&mut self, id: ColliderId) -> Result<(), String>;
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

/// The world `scene` describes, in the scalar type `kind`.
pub(crate) fn build(scene: &Scene, kind: ScalarKind) -> Result<Box<dyn Sim>, SceneError> {
    with_scalar!(kind, S => Ok(Box::new(scene.build::<S>()?)))
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

    fn body_count(&self) -> usize {
        World::bodies(self).len()
    }

    fn bodies(&self) -> Vec<(BodyId, BodySpec)> {
        World::bodies(self).iter().map(|b| (b.id(), BodySpec::of_def(&b.def()))).collect()
    }

    fn colliders(&self) -> Vec<(ColliderId, Shape)> {
        World::colliders(self).iter().map(|(id, c)| (*id, Shape::of_collider(c))).collect()
    }

    fn gravity(&self) -> Vec2<f64> {
        of_vec(self.config().gravity)
    }

    fn contacts(&self) -> Vec<ContactView> {
        let view = |c: Contact<S>| ContactView { point: of_vec(c.point), normal: of_vec(c.normal) };
        let bodies = World::bodies(self);
        let circles: Vec<(Vec2<f64>, f64)> =
            bodies.iter().map(|b| (of_vec(b.position()), b.radius().to_f64())).collect();
        let colliders: Vec<_> =
            World::colliders(self).iter().map(|(_, c)| (c, Shape::of_collider(c).bounds())).collect();
        let mut out = Vec::new();
        for (i, body) in bodies.iter().enumerate() {
            let (p, r) = circles[i];
            let circle = body.circle();
            for (collider, (lo, hi)) in &colliders {
                if p.x + r < lo.x || p.x - r > hi.x || p.y + r < lo.y || p.y - r > hi.y {
                    continue;
                }
                let contact = match collider {
                    Collider::Segment(s) => contact_circle_segment(&circle, s),
                    Collider::Capsule(c) => contact_circle_capsule(&circle, c),
                    Collider::Circle(c) => contact_circle_circle(&circle, c),
                };
                out.extend(contact.map(view));
            }
            for (j, other) in bodies.iter().enumerate().skip(i + 1) {
                let (q, s) = circles[j];
                if (p.x - q.x).abs() > r + s || (p.y - q.y).abs() > r + s {
                    continue;
                }
                out.extend(contact_circle_circle(&circle, &other.circle()).map(view));
            }
        }
        out
    }

    fn to_scene(&self) -> Scene {
        let config = self.config();
        let mut scene = Scene::new(crate::scene::Settings {
            gravity: of_vec(config.gravity),
            bounce_threshold: Some(config.bounce_threshold.to_f64()),
            max_substeps: Some(config.max_substeps),
        });
        scene.scalar = Some(S::KIND);
        scene.colliders = Sim::colliders(self).into_iter().map(|(_, c)| c).collect();
        scene.bodies = Sim::bodies(self).into_iter().map(|(_, b)| b).collect();
        scene
    }

    fn convert(&self, kind: ScalarKind) -> Result<Box<dyn Sim>, String> {
        with_scalar!(kind, T => {
            let converted = World::convert(self, |v: S| T::from_f64(v.to_f64()))
                .map_err(|e| format!("cannot switch to {kind}: {}", explain(e, kind)))?;
            Ok(Box::new(converted))
        })
    }

    fn set_body(&mut self, id: BodyId, body: BodySpec) -> Result<(), String> {
        World::set_body(self, id, body.to_def()).map_err(|e| explain(e, S::KIND))
    }

    fn add_body(&mut self, body: BodySpec) -> Result<BodyId, String> {
        World::add_body(self, body.to_def()).map_err(|e| explain(e, S::KIND))
    }

    fn remove_body(&mut self, id: BodyId) -> Result<(), String> {
        World::remove_body(self, id).map(drop).map_err(|e| explain(e, S::KIND))
    }

    fn set_collider(&mut self, id: ColliderId, shape: Shape) -> Result<(), String> {
        let collider = shape.to_collider().map_err(|e: WorldError| explain(e, S::KIND))?;
        World::set_collider(self, id, collider).map_err(|e| explain(e, S::KIND))
    }

    fn add_collider(&mut self, shape: Shape) -> Result<ColliderId, String> {
        let collider = shape.to_collider().map_err(|e: WorldError| explain(e, S::KIND))?;
        Ok(World::add_collider(self, collider))
    }

    fn remove_collider(&mut self, id: ColliderId) -> Result<(), String> {
        World::remove_collider(self, id).map(drop).map_err(|e| explain(e, S::KIND))
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
    fn converting_keeps_the_tick_the_ids_and_the_values() {
        let mut sim = default_sim(ScalarKind::I16F16);
        for _ in 0..30 {
            sim.step();
        }
        let wide = sim.convert(ScalarKind::F64).unwrap();
        assert_eq!((wide.kind(), wide.tick()), (ScalarKind::F64, 30));
        assert_eq!(wide.bodies(), sim.bodies(), "every I16F16 value is an f64");
        assert_eq!(wide.colliders(), sim.colliders());
        let back = wide.convert(ScalarKind::I16F16).unwrap();
        assert_eq!(back.checksum(), sim.checksum());
    }

    #[test]
    fn converting_refuses_a_world_the_narrower_type_cannot_hold() {
        let mut sim = default_sim(ScalarKind::F64);
        sim.add_collider(Shape::Circle { center: geom_core::Vec2::new(6000.0, 0.0), radius: 1.0 }).unwrap();
        let e = sim.convert(ScalarKind::I16F16).err().expect("6000 is outside I16F16's range");
        assert!(e.starts_with("cannot switch to I16F16") && e.contains("±4096"), "{e}");
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
        let (id, mut body) = sim.bodies()[0];
        body.position.x = 5000.0;
        let e = sim.set_body(id, body).unwrap_err();
        assert!(e.contains("±4096"), "{e}");
        body.position.x = 0.0;
        body.radius = -1.0;
        assert!(sim.set_body(id, body).unwrap_err().contains("negative"));
        assert!(sim.add_collider(Shape::Circle { center: geom_core::Vec2::new(0.0, 9000.0), radius: 1.0 }).is_err());
        assert_eq!(sim.checksum(), before);
    }
}

#[cfg(test)]
mod contact_tests {
    use super::*;
    use crate::scene::Settings;

    #[test]
    fn contacts_list_bodies_touching_colliders_and_each_other_and_nothing_else() {
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
        scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) });
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
