//! Saving and loading a world (the `serde` feature): through serde into
//! any format, and as compact bytes for the network or a save file.
//!
//! A saved world is plain data: its scalar type's format (a float, or a
//! fixed-point type of so many bits, so many fractional), the
//! configuration, the tick, the ids still to hand out, every body and
//! collider as its definition with its id (and each body's sleep state),
//! the contacts of the last tick with the solver's impulses, its sensor
//! overlaps, and the world's [checksum](World::checksum).
//! Reading one back refuses another type's state, validates every value as
//! [`World::add_body`] does, checks the ids, that every contact pair is
//! ordered as a step records it and holds values a step can leave, that a
//! sleeping body is still and sleeps in an island of sleeping bodies, and
//! recomputes the checksum: a state corrupted
//! by a flipped bit or a cut-off message is refused with a [`WorldError`]
//! rather than becoming a different world. (The checksum catches accidents,
//! not forgery: a state edited on purpose, its checksum recomputed, loads
//! if every value in it is valid, and then steps as any valid world does.)
//! Nothing is flattened or untagged, so non-self-describing formats
//! (`postcard`, `bincode`) carry it.

use alloc::vec::Vec;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::contact::ContactState;
use super::sleep::Sleep;
use super::{BodyDef, BodyId, ColliderDef, ColliderId, Id, Snapshot, World, WorldConfig, WorldError};
use crate::scalar::Scalar;
use crate::scalar::private::Format;
use crate::vec2::Vec2;

/// A body's sleep state as saved: the ticks it has been still, and the
/// island it sleeps in (named by its lowest body id), if it sleeps.
#[derive(Serialize, Deserialize)]
struct SleepData {
    still: u16,
    island: Option<BodyId>,
}

/// A contact as saved.
#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Scalar + Serialize + DeserializeOwned")]
struct ContactData<S> {
    body: BodyId,
    other: Id,
    normal: Vec2<S>,
    point: Vec2<S>,
    #[serde(with = "crate::scalar::serde_scalar")]
    separation: S,
    #[serde(with = "crate::scalar::serde_scalar")]
    normal_impulse: S,
    #[serde(with = "crate::scalar::serde_scalar")]
    tangent_impulse: S,
    #[serde(with = "crate::scalar::serde_scalar")]
    impulse: S,
}

/// A world as plain data.
#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Scalar + Serialize + DeserializeOwned")]
struct WorldData<S> {
    /// The scalar type's format, first, so that bytes saved in another
    /// type are recognised before anything else is read.
    scalar: Format,
    config: WorldConfig<S>,
    tick: u64,
    next_body: u32,
    next_collider: u32,
    bodies: Vec<(BodyId, BodyDef<S>, SleepData)>,
    colliders: Vec<(ColliderId, ColliderDef<S>)>,
    contacts: Vec<ContactData<S>>,
    overlaps: Vec<(BodyId, Id)>,
    checksum: u64,
}

/// Whether ids are strictly increasing and below the next one to hand out.
fn ids_in_order(ids: impl Iterator<Item = u32>, next: u32) -> bool {
    let mut previous: Option<u32> = None;
    for id in ids {
        if previous.is_some_and(|p| p >= id) || id >= next {
            return false;
        }
        previous = Some(id);
    }
    true
}

impl<S: Scalar> WorldData<S> {
    fn of(world: &World<S>) -> Self {
        Self {
            scalar: S::FORMAT,
            config: world.config,
            tick: world.tick,
            next_body: world.next_body,
            next_collider: world.next_collider,
            bodies: world
                .bodies
                .iter()
                .map(|b| (b.id(), b.def(), SleepData { still: b.sleep.still, island: b.sleep.island }))
                .collect(),
            colliders: world.colliders.iter().map(|c| (c.id(), c.def())).collect(),
            contacts: world
                .contacts
                .iter()
                .map(|c| ContactData {
                    body: c.body,
                    other: c.other,
                    normal: c.normal,
                    point: c.point,
                    separation: c.separation,
                    normal_impulse: c.normal_impulse,
                    tangent_impulse: c.tangent_impulse,
                    impulse: c.impulse,
                })
                .collect(),
            overlaps: world.overlaps.clone(),
            checksum: world.checksum(),
        }
    }

    fn into_world(self) -> Result<World<S>, WorldError> {
        if self.scalar != S::FORMAT {
            return Err(WorldError::Scalar);
        }
        self.config.validate()?;
        if !ids_in_order(self.bodies.iter().map(|(id, ..)| id.0), self.next_body)
            || !ids_in_order(self.colliders.iter().map(|(id, _)| id.0), self.next_collider)
        {
            return Err(WorldError::Ids);
        }
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for (id, def, sleep) in self.bodies {
            let mut body = def.validate(id)?;
            if sleep.island.is_some() && body.velocity() != Vec2::ZERO {
                return Err(WorldError::Sleep);
            }
            body.sleep = Sleep { still: sleep.still, island: sleep.island };
            bodies.push(body);
        }
        // An island is named by a sleeping body of its own.
        for body in &bodies {
            if let Some(island) = body.sleep.island {
                let named = bodies.binary_search_by_key(&island, super::Body::id).map(|k| bodies[k].sleep.island);
                if named != Ok(Some(island)) {
                    return Err(WorldError::Sleep);
                }
            }
        }
        let colliders = self.colliders.into_iter().map(|(id, def)| def.validate(id)).collect::<Result<Vec<_>, _>>()?;
        let exists = |id: Id| match id {
            Id::Body(b) => bodies.binary_search_by_key(&b, super::Body::id).is_ok(),
            Id::Collider(c) => colliders.binary_search_by_key(&c, super::Collider::id).is_ok(),
        };
        // A pair as a step records it: a body, then a collider or a body
        // with a higher id. (Which list a pair is in is not checked: an
        // input between ticks may have made either side a sensor since.)
        let recorded = |&(body, other): &(BodyId, Id)| {
            let ordered = match other {
                Id::Body(b) => b > body,
                Id::Collider(_) => true,
            };
            ordered && exists(Id::Body(body)) && exists(other)
        };
        let contacts: Vec<ContactState<S>> = self
            .contacts
            .into_iter()
            .map(|c| ContactState {
                body: c.body,
                other: c.other,
                normal: c.normal,
                point: c.point,
                separation: c.separation,
                normal_impulse: c.normal_impulse,
                tangent_impulse: c.tangent_impulse,
                impulse: c.impulse,
            })
            .collect();
        let keys: Vec<(BodyId, Id)> = contacts.iter().map(ContactState::key).collect();
        for pairs in [&keys, &self.overlaps] {
            if !pairs.windows(2).all(|w| w[0] < w[1]) || !pairs.iter().all(recorded) {
                return Err(WorldError::Ids);
            }
        }
        for contact in &contacts {
            contact.validate()?;
        }
        let next = [self.next_body, self.next_collider];
        let world = World::assemble(self.config, self.tick, bodies, colliders, next, (contacts, self.overlaps));
        if world.checksum() != self.checksum {
            return Err(WorldError::Checksum);
        }
        Ok(world)
    }
}

impl<S: Scalar + Serialize + DeserializeOwned> Serialize for World<S> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        WorldData::of(self).serialize(serializer)
    }
}

impl<'de, S: Scalar + Serialize + DeserializeOwned> Deserialize<'de> for World<S> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        WorldData::deserialize(deserializer)?.into_world().map_err(D::Error::custom)
    }
}

impl<S: Scalar + Serialize + DeserializeOwned> Serialize for Snapshot<S> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, S: Scalar + Serialize + DeserializeOwned> Deserialize<'de> for Snapshot<S> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        World::deserialize(deserializer).map(Snapshot)
    }
}

impl<S: Scalar + Serialize + DeserializeOwned> World<S> {
    /// The whole state as compact bytes (`postcard`: integers as varints,
    /// fixed-point values as their raw bits), for the network, a replay or
    /// a save file; events are not saved. In `I32F32`, a scene of 1000
    /// bodies (one in four a capsule) resting and bouncing in a box 200
    /// units wide takes about 117 bytes per body, contacts (with the
    /// solver's impulses) included (measured by the crate's tests).
    ///
    /// # Examples
    ///
    /// ```
    /// use fixed::types::I32F32;
    /// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let v = |x: f64, y: f64| Vec2::new(I32F32::from_num(x), I32F32::from_num(y));
    /// let mut world = World::new(WorldConfig::new(v(0.0, -0.05)))?;
    /// world.add_collider(Segment::new(v(-10.0, 0.0), v(10.0, 0.0))?)?;
    /// world.add_body(BodyDef::new(v(0.0, 3.0), I32F32::from_num(0.5)))?;
    /// world.step();
    /// let bytes = world.to_bytes();
    /// let mut copy = World::<I32F32>::from_bytes(&bytes)?;
    /// assert_eq!(copy.checksum(), world.checksum());
    /// world.step();
    /// copy.step();
    /// assert_eq!(copy.checksum(), world.checksum());
    ///
    /// let mut tampered = bytes.clone();
    /// let last = tampered.len() - 12;
    /// tampered[last] ^= 1;
    /// assert!(World::<I32F32>::from_bytes(&tampered).is_err());
    /// # Ok::<(), WorldError>(())
    /// ```
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        // postcard fails only for a fixed buffer that fills up, or a
        // sequence of unknown length; a growing `Vec` and these types
        // never do. An empty result would be refused as `Malformed`.
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// A world from [`to_bytes`](World::to_bytes).
    ///
    /// # Errors
    ///
    /// [`WorldError::Malformed`] for bytes that do not decode (or that go
    /// on past the end of the state); [`WorldError::Scalar`] for a state
    /// saved in another scalar type; [`WorldError::Checksum`] for a state
    /// whose contents do not match its checksum; and whatever
    /// [`World::add_body`] would refuse (a negative radius, ids out of
    /// order). Nothing is built.
    ///
    /// See [`to_bytes`](World::to_bytes) for an example.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, WorldError> {
        // The format alone first: the rest of another type's state may
        // decode, or fail to, as anything.
        let (scalar, _) = postcard::take_from_bytes::<Format>(bytes).map_err(|_| WorldError::Malformed)?;
        if scalar != S::FORMAT {
            return Err(WorldError::Scalar);
        }
        let (data, rest) = postcard::take_from_bytes::<WorldData<S>>(bytes).map_err(|_| WorldError::Malformed)?;
        if !rest.is_empty() {
            return Err(WorldError::Malformed);
        }
        data.into_world()
    }
}
