//! Changing a world between ticks: adding, replacing and removing bodies
//! and colliders, and a game's inputs. Every change is validated first and
//! refused with a [`WorldError`] that leaves the world as it was; a change
//! that reaches a sleeping body wakes its island (see `sleep.rs`).

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::aabb::circle_box;
use super::sleep::{wake_body, wake_island};
use super::{Body, BodyDef, BodyId, Collider, ColliderDef, ColliderId, Id, World, WorldError, in_safe_range};
use crate::query::kernel::scale;
use crate::scalar::Scalar;
use crate::vec2::Vec2;

impl<S: Scalar> World<S> {
    /// Adds a body, returning its id.
    ///
    /// # Errors
    ///
    /// A [`WorldError`] naming what is wrong with `def`; the world is left
    /// unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I16F16;
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::{ShapeError, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(I16F16::ZERO, I16F16::ZERO)))?;
    /// let far = Vec2::new(I16F16::from_num(5000), I16F16::ZERO);
    /// let err = world.add_body(BodyDef::new(far, I16F16::ONE));
    /// assert_eq!(err, Err(WorldError::Shape(ShapeError::out_of_range(far.x))));
    /// let id = world.add_body(BodyDef::new(Vec2::new(I16F16::ZERO, I16F16::ZERO), I16F16::ONE))?;
    /// assert_eq!(world.bodies().len(), 1);
    /// # let _ = id;
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn add_body(&mut self, def: BodyDef<S>) -> Result<BodyId, WorldError> {
        let id = BodyId(self.next_body);
        let body = def.validate(id)?;
        self.next_body = self.next_body.checked_add(1).ok_or(WorldError::OutOfIds)?;
        self.bodies.push(body);
        self.index.invalidate();
        Ok(id)
    }

    /// Replaces everything about a body but its id: its shape, velocity,
    /// mass, restitution, friction, gravity scale, sensor flag, filter and
    /// tag.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or what is wrong with `def`; the world
    /// is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// let mut def = world.body(id).unwrap().def();
    /// def.gravity_scale = 0.0; // a balloon
    /// def.tag = 42; // the game's own id for it
    /// world.set_body(id, def)?;
    /// world.step();
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 0.0));
    /// assert_eq!(world.body(id).unwrap().tag(), 42);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_body(&mut self, id: BodyId, def: BodyDef<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let body = def.validate(id)?;
        wake_body(&mut self.bodies, index);
        self.bodies[index] = body;
        self.index.invalidate();
        Ok(())
    }

    /// Sets a body's velocity (units per tick): a game's input between
    /// ticks.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or [`WorldError::Velocity`] for a
    /// velocity outside the safe range; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// world.set_velocity(id, Vec2::new(0.0, 2.0))?; // jump
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 2.0));
    /// assert_eq!(world.set_velocity(id, Vec2::new(f32::NAN, 0.0)), Err(WorldError::Velocity));
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.0, 2.0));
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn set_velocity(&mut self, id: BodyId, velocity: Vec2<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if !in_safe_range(velocity) {
            return Err(WorldError::Velocity);
        }
        wake_body(&mut self.bodies, index);
        self.bodies[index].velocity = velocity;
        Ok(())
    }

    /// Applies an impulse to a body: its velocity changes by
    /// `impulse × inverse_mass` (each component rounded once), so the same
    /// impulse moves a heavy body less, and equal and opposite impulses on
    /// two bodies leave their momentum unchanged. An immovable body
    /// (inverse mass 0) does not change.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or [`WorldError::Velocity`] when the
    /// impulse or the resulting velocity is outside the safe range; the
    /// world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let mut heavy = BodyDef::new(Vec2::new(0.0, 0.0), 1.0);
    /// heavy.inverse_mass = 0.25; // a mass of 4
    /// let id = world.add_body(heavy)?;
    /// world.apply_impulse(id, Vec2::new(2.0, 0.0))?;
    /// assert_eq!(world.body(id).unwrap().velocity(), Vec2::new(0.5, 0.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn apply_impulse(&mut self, id: BodyId, impulse: Vec2<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if !in_safe_range(impulse) {
            return Err(WorldError::Velocity);
        }
        let body = &self.bodies[index];
        // Exact, then rounded once (saturating at the type's edge, beyond
        // the safe range, in fixed point): a change too large is refused,
        // never clamped.
        let change = scale(impulse, body.inverse_mass);
        if !in_safe_range(change) {
            return Err(WorldError::Velocity);
        }
        // Both within the safe range: the sum fits (three bits of
        // headroom), and is checked before it is kept.
        let velocity = body.velocity + change;
        if !in_safe_range(velocity) {
            return Err(WorldError::Velocity);
        }
        wake_body(&mut self.bodies, index);
        self.bodies[index].velocity = velocity;
        Ok(())
    }

    /// Moves a body to a new position, as a teleport: it is not swept, so
    /// it can pass through walls (and end inside one, to be pushed out by
    /// the next tick).
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`], or [`WorldError::Shape`] for a
    /// position outside the safe range (or one that would put an end of a
    /// capsule body's core outside it); the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// world.set_position(id, Vec2::new(10.0, 3.0))?; // respawn
    /// assert_eq!(world.body(id).unwrap().position(), Vec2::new(10.0, 3.0));
    /// assert!(world.set_position(id, Vec2::new(f32::INFINITY, 0.0)).is_err());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_position(&mut self, id: BodyId, position: Vec2<S>) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let body = &self.bodies[index];
        crate::shape::Circle::new(position, body.radius())?;
        if body.is_capsule() {
            // The core's ends in range too (each sum within twice it).
            let [start, end] = body.core();
            crate::shape::Capsule::new(position + start, position + end, body.radius())?;
        }
        wake_body(&mut self.bodies, index);
        self.bodies[index].place(position);
        self.index.invalidate();
        Ok(())
    }

    /// Removes a body, returning what it was. Its contacts go with it,
    /// without an event.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::Vec2;
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
    /// assert_eq!(world.remove_body(id)?.radius, 1.0);
    /// assert_eq!(world.remove_body(id), Err(WorldError::UnknownBody(id)));
    /// # Ok::<(), WorldError>(())
    /// ```
    pub fn remove_body(&mut self, id: BodyId) -> Result<BodyDef<S>, WorldError> {
        let index = self.body_index(id)?;
        let gone = |&(body, other): &(BodyId, Id)| body == id || other == Id::Body(id);
        // Its island wakes whole (it may be the body the island is named
        // by, and what rested on it must fall), and so do those it touched.
        wake_body(&mut self.bodies, index);
        self.wake_touching(Id::Body(id));
        self.contacts.retain(|c| !gone(&c.key()));
        super::contact::list(&self.contacts, &mut self.pairs, &mut self.by_second, &mut Vec::new());
        self.overlaps.retain(|pair| !gone(pair));
        self.index.invalidate();
        Ok(self.bodies.remove(index).def())
    }

    /// The body with this id, if any.
    ///
    /// See [`World::add_body`] for an example.
    #[must_use]
    pub fn body(&self, id: BodyId) -> Option<&Body<S>> {
        self.body_index(id).ok().map(|i| &self.bodies[i])
    }

    /// All bodies, in id order.
    ///
    /// See [`World::add_body`] for an example.
    #[must_use]
    pub fn bodies(&self) -> &[Body<S>] {
        &self.bodies
    }

    pub(super) fn body_index(&self, id: BodyId) -> Result<usize, WorldError> {
        self.bodies.binary_search_by_key(&id, Body::id).map_err(|_| WorldError::UnknownBody(id))
    }

    /// Adds a collider: a shape (a [`Segment`](crate::Segment),
    /// [`Capsule`](crate::Capsule), [`Circle`](crate::Circle) or [`Shape`](crate::world::Shape))
    /// with the defaults, or a [`ColliderDef`].
    ///
    /// # Errors
    ///
    /// What is wrong with the definition (a velocity outside the safe
    /// range, a friction or restitution out of bounds), or
    /// [`WorldError::OutOfIds`]; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{ColliderDef, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let mut lift = ColliderDef::new(Segment::new(Vec2::new(6.0, 0.0), Vec2::new(8.0, 0.0))?);
    /// lift.velocity = Vec2::new(0.0, 0.125); // a platform going up
    /// let lift = world.add_collider(lift)?;
    /// world.step();
    /// assert_eq!(world.collider(floor).unwrap().velocity(), Vec2::new(0.0, 0.0));
    /// let moved = world.collider(lift).unwrap().shape();
    /// assert_eq!(moved.bounds().0, Vec2::new(6.0, 0.125));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn add_collider(&mut self, def: impl Into<ColliderDef<S>>) -> Result<ColliderId, WorldError> {
        let id = ColliderId(self.next_collider);
        let collider = def.into().validate(id)?;
        self.next_collider = self.next_collider.checked_add(1).ok_or(WorldError::OutOfIds)?;
        self.wake_near(&collider);
        Arc::make_mut(&mut self.colliders).push(collider);
        self.colliders_hash = None;
        self.index.invalidate();
        Ok(id)
    }

    /// Removes a collider, returning it. Its contacts go with it, without
    /// an event.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`].
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let id = world.add_collider(Circle::new(Vec2::new(0.0, 0.0), 1.0)?)?;
    /// assert!(world.remove_collider(id).is_ok());
    /// assert!(world.colliders().is_empty());
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn remove_collider(&mut self, id: ColliderId) -> Result<ColliderDef<S>, WorldError> {
        let index = self.collider_index(id)?;
        self.wake_touching(Id::Collider(id));
        let removed = Arc::make_mut(&mut self.colliders).remove(index);
        self.contacts.retain(|c| c.other != Id::Collider(id));
        super::contact::list(&self.contacts, &mut self.pairs, &mut self.by_second, &mut Vec::new());
        self.overlaps.retain(|&(_, other)| other != Id::Collider(id));
        self.colliders_hash = None;
        self.index.invalidate();
        Ok(removed.def())
    }

    /// Replaces everything about a collider but its id (and so its place
    /// in the stepping order): its shape, velocity, friction, restitution,
    /// sensor flag, filter and tag.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`], or what is wrong with the
    /// definition; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{Shape, World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let post = world.add_collider(Circle::new(Vec2::new(0.0, 0.0), 1.0)?)?;
    /// let moved = Circle::new(Vec2::new(3.0, 0.0), 1.0)?;
    /// world.set_collider(post, moved)?;
    /// assert_eq!(world.collider(post).unwrap().shape(), Shape::Circle(moved));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_collider(&mut self, id: ColliderId, def: impl Into<ColliderDef<S>>) -> Result<(), WorldError> {
        let index = self.collider_index(id)?;
        let collider = def.into().validate(id)?;
        self.wake_touching(Id::Collider(id));
        self.wake_near(&collider);
        Arc::make_mut(&mut self.colliders)[index] = collider;
        self.colliders_hash = None;
        self.index.invalidate();
        Ok(())
    }

    /// Sets a collider's velocity (units per tick): a platform moves by it
    /// every tick until it is changed; zero makes the collider static.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownCollider`], or [`WorldError::Velocity`] for a
    /// velocity outside the safe range; the world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let door = world.add_collider(Segment::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 2.0))?)?;
    /// world.set_collider_velocity(door, Vec2::new(0.0, 0.5))?; // open
    /// world.step();
    /// world.step();
    /// world.set_collider_velocity(door, Vec2::new(0.0, 0.0))?; // stop
    /// world.step();
    /// assert_eq!(world.collider(door).unwrap().shape().bounds().0, Vec2::new(0.0, 1.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn set_collider_velocity(&mut self, id: ColliderId, velocity: Vec2<S>) -> Result<(), WorldError> {
        let index = self.collider_index(id)?;
        if !in_safe_range(velocity) {
            return Err(WorldError::Velocity);
        }
        Arc::make_mut(&mut self.colliders)[index].velocity = velocity;
        self.colliders_hash = None;
        Ok(())
    }

    fn collider_index(&self, id: ColliderId) -> Result<usize, WorldError> {
        self.colliders.binary_search_by_key(&id, Collider::id).map_err(|_| WorldError::UnknownCollider(id))
    }

    /// The collider with this id, if any.
    ///
    /// See [`World::add_collider`] for an example.
    #[must_use]
    pub fn collider(&self, id: ColliderId) -> Option<&Collider<S>> {
        self.collider_index(id).ok().map(|i| &self.colliders[i])
    }

    /// All colliders, in id order.
    ///
    /// See [`World::remove_collider`] for an example.
    #[must_use]
    pub fn colliders(&self) -> &[Collider<S>] {
        &self.colliders
    }

    /// Wakes the islands of the sleeping bodies in contact with `id` (or
    /// overlapping it, as a sensor).
    fn wake_touching(&mut self, id: Id) {
        for k in 0..self.contacts.len() {
            let (body, other) = self.contacts[k].key();
            if other == id || Id::Body(body) == id {
                for touched in [Some(body), other.body()].into_iter().flatten() {
                    if let Ok(i) = self.body_index(touched) {
                        wake_body(&mut self.bodies, i);
                    }
                }
            }
        }
    }

    /// Wakes the islands of the sleeping bodies whose boxes meet a new or
    /// moved collider's: it may have been put where they rest.
    fn wake_near(&mut self, collider: &Collider<S>) {
        let reach = collider.shape.aabb();
        for i in 0..self.bodies.len() {
            if let Some(island) = self.bodies[i].sleep.island
                && circle_box(&self.bodies[i]).overlaps(&reach)
            {
                wake_island(&mut self.bodies, island);
            }
        }
    }
}
