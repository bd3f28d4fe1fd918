//! Events: what happened during a tick, for a game to score, play sounds
//! and apply damage from.

use alloc::vec::Vec;

use super::{BodyId, Id};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// Something that happened to a body during the last tick: see
/// [`World::events`](super::World::events).
///
/// `body` is always a body; `other` is a collider, or a body with a
/// higher id.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, Event, EventKind, Id, World, WorldConfig};
/// use geom_core::{Segment, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
/// let wall = world.add_collider(Segment::new(Vec2::new(4.0, -1.0), Vec2::new(4.0, 1.0))?)?;
/// let mut def = BodyDef::new(Vec2::new(0.0, 0.0), 0.0); // a bullet
/// def.velocity = Vec2::new(8.0, 0.0);
/// let bullet = world.add_body(def)?;
/// world.step();
/// let kinds: Vec<_> = world.events().iter().map(|e| (e.body, e.other, e.kind.name())).collect();
/// assert_eq!(kinds, [(bullet, Id::Collider(wall), "contact-began"), (bullet, Id::Collider(wall), "impact")]);
/// let EventKind::Impact { t, normal, speed, .. } = world.events()[1].kind else { unreachable!() };
/// assert!((t - 0.5).abs() < 1e-12);
/// assert_eq!((normal, speed), (Vec2::new(-1.0, 0.0), 8.0));
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event<S> {
    /// The body it happened to.
    pub body: BodyId,
    /// What it happened with.
    pub other: Id,
    /// What happened.
    pub kind: EventKind<S>,
}

/// What an [`Event`] reports.
///
/// See [`Event`] for an example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EventKind<S> {
    /// A contact that began this tick: the two were not in contact during
    /// the tick before.
    ContactBegan,
    /// The body hit the other faster than the bounce threshold (a resting
    /// contact is not an impact).
    Impact {
        /// When, as a fraction of the tick. For two bodies, when they
        /// first touched moving straight from where they started the tick
        /// to where they ended it (they are resolved at its end).
        t: S,
        /// Where: on the other's surface (held within
        /// [`Scalar::MAX_COORD`] in each
        /// component: at the range's edge a surface reaches beyond it).
        point: Vec2<S>,
        /// The unit normal, from the other towards the body.
        normal: Vec2<S>,
        /// How fast they approached along the normal, in units per tick,
        /// held at [`Scalar::MAX_COORD`] (two
        /// things near the edge of the safe range can approach faster).
        speed: S,
    },
    /// A contact that ended: in contact during the tick before, not during
    /// this one.
    ContactEnded,
    /// A body began to overlap a sensor (either `body` or `other` is the
    /// sensor).
    SensorBegan,
    /// A body stopped overlapping a sensor.
    SensorEnded,
}

impl<S> EventKind<S> {
    /// The event's name, as the headless runner prints it:
    /// `contact-began`, `impact`, `contact-ended`, `sensor-began` or
    /// `sensor-ended`.
    ///
    /// See [`Event`] for an example.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::ContactBegan => "contact-began",
            Self::Impact { .. } => "impact",
            Self::ContactEnded => "contact-ended",
            Self::SensorBegan => "sensor-began",
            Self::SensorEnded => "sensor-ended",
        }
    }

    /// Where the kind goes among a pair's events of one tick: what began,
    /// the impacts, what ended.
    fn rank(&self) -> u8 {
        match self {
            Self::ContactBegan => 0,
            Self::SensorBegan => 1,
            Self::Impact { .. } => 2,
            Self::ContactEnded => 3,
            Self::SensorEnded => 4,
        }
    }
}

/// Pushes an event for every pair in `now` that is not in `previous`
/// (`began`) and every pair in `previous` that is not in `now` (`ended`);
/// both ascending, without repeats.
pub(super) fn diff<S: Scalar>(
    previous: &[(BodyId, Id)],
    now: &[(BodyId, Id)],
    events: &mut Vec<Event<S>>,
    (began, ended): (EventKind<S>, EventKind<S>),
) {
    let (mut i, mut j) = (0, 0);
    let mut push = |(body, other): (BodyId, Id), kind| events.push(Event { body, other, kind });
    loop {
        match (previous.get(i), now.get(j)) {
            (Some(&old), Some(&new)) if old == new => {
                i += 1;
                j += 1;
            }
            (Some(&old), Some(&new)) if old < new => {
                push(old, ended);
                i += 1;
            }
            (_, Some(&new)) => {
                push(new, began);
                j += 1;
            }
            (Some(&old), None) => {
                push(old, ended);
                i += 1;
            }
            (None, None) => break,
        }
    }
}

/// Puts a tick's events in their order: by body, then by the other, then
/// what began, the impacts in the order they happened, what ended. `keys`
/// and `spare` are buffers kept from tick to tick, so that sorting
/// allocates nothing once they have grown (a stable sort would).
pub(super) fn sort<S: Copy>(
    events: &mut Vec<Event<S>>,
    keys: &mut Vec<(BodyId, Id, u8, u32)>,
    spare: &mut Vec<Event<S>>,
) {
    keys.clear();
    // Fewer than 2^32 events: a tick has at most a few per pair.
    keys.extend(events.iter().enumerate().map(|(i, e)| (e.body, e.other, e.kind.rank(), i as u32)));
    keys.sort_unstable();
    spare.clear();
    spare.extend(keys.iter().map(|&(.., i)| events[i as usize]));
    core::mem::swap(events, spare);
}
