//! The contacts a world keeps from one tick to the next: the pairs in
//! contact, where and along which normal they touched, and the impulses
//! the solver applied, from which the next tick's solve starts; and what
//! a game reads of them ([`WorldContact`], [`Ground`]).

use alloc::vec::Vec;

use super::arith::{add_held, in_range as in_range_vec, max, min, scale};
use super::digest::Digest;
use super::{BodyId, Id, World, WorldError, hash_scalars, in_range};
use crate::scalar::{Exact, Scalar};
use crate::vec2::Vec2;

/// A pair in contact during the last tick: a body and a collider, or a
/// body and a body with a higher id.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactState<S> {
    pub(crate) body: BodyId,
    pub(crate) other: Id,
    /// The unit normal, from the other towards the body.
    pub(crate) normal: Vec2<S>,
    /// Where they touch, on the other's surface, carried along with it to
    /// the end of the tick.
    pub(crate) point: Vec2<S>,
    /// The gap (positive) or overlap (negative) along the normal at the
    /// end of the tick.
    pub(crate) separation: S,
    /// The solver's accumulated impulses of one substep, along the normal
    /// and its tangent: where the next tick's solve starts.
    pub(crate) normal_impulse: S,
    pub(crate) tangent_impulse: S,
    /// Every normal impulse the solver applied during the tick, summed (at
    /// least 0): what [`WorldContact::impulse`] reports.
    pub(crate) impulse: S,
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
                self.impulse,
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
            self.impulse,
        ];
        if values.into_iter().all(in_range) && self.normal_impulse >= S::ZERO && self.impulse >= S::ZERO {
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
            impulse: convert(self.impulse),
        };
        converted.validate()?;
        Ok(converted)
    }
}

impl<S: Scalar> ContactState<S> {
    /// The contact as its first body sees it.
    fn as_first(&self) -> WorldContact<S> {
        WorldContact {
            body: self.body,
            other: self.other,
            normal: self.normal,
            point: self.point,
            separation: self.separation,
            depth: depth(self.separation),
            impulse: self.impulse,
        }
    }

    /// A contact between two bodies as the second sees it: the normal
    /// turned round, the point on the first's surface.
    fn as_second(&self, body: BodyId) -> WorldContact<S> {
        WorldContact {
            body,
            other: Id::Body(self.body),
            normal: -self.normal,
            point: in_range_vec(add_held(self.point, scale(self.normal, self.separation))),
            separation: self.separation,
            depth: depth(self.separation),
            impulse: self.impulse,
        }
    }
}

/// The overlap of a separation (within the safe range): zero when apart
/// or touching.
fn depth<S: Scalar>(separation: S) -> S {
    max(S::ZERO, -separation)
}

/// A contact of the last tick as a game reads it, seen from one of its
/// bodies: [`World::contacts_of`] and [`World::contact_details`] give
/// them.
///
/// A pair is in contact when it touched at some instant of the tick or the
/// solver pushed it apart, so a body resting on a floor is in contact with
/// it every tick. "Touching" is within the world's rounding margin: such a
/// body ends each tick up to a few rounding steps clear of the floor (four
/// steps of a fixed-point type's resolution per body; in the floats
/// `2^-16` of the size of its coordinates), which `separation` shows. A
/// game's own contact query on the two shapes can find them that far
/// apart; grow one shape by the margin to agree with the world.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, Id, World, WorldConfig};
/// use geom_core::{Segment, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.01)))?;
/// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
/// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
/// for _ in 0..60 {
///     world.step();
/// }
/// let contact = world.contacts_of(ball).next().unwrap();
/// assert_eq!(contact.other, Id::Collider(floor));
/// assert_eq!(contact.normal, Vec2::new(0.0, 1.0));
/// assert_eq!(contact.depth, 0.0);
/// assert!(contact.separation < 1e-9);
/// // The floor carries the ball's weight: its mass (1) times gravity.
/// assert!((contact.impulse - 0.01).abs() < 1e-9);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldContact<S> {
    /// The body the contact is seen from.
    pub body: BodyId,
    /// What it touches: a collider or another body.
    pub other: Id,
    /// The unit normal, from the other towards the body: the way the body
    /// is pushed.
    pub normal: Vec2<S>,
    /// Where they touch, on the other's surface: the point the tick's
    /// contact was made at, carried along with the other to where it ends
    /// the tick.
    pub point: Vec2<S>,
    /// The gap (positive) or the overlap (negative) along the normal at
    /// the end of the tick.
    pub separation: S,
    /// How deep they overlap at the end of the tick: minus the separation,
    /// zero when they touch or are apart.
    pub depth: S,
    /// The normal impulse the solver applied during the tick (at least 0,
    /// in mass times units per tick): a body of mass `m` resting on a floor
    /// under gravity `g` gets about `m·|g|` every tick. Zero for a contact
    /// only the continuous motion made (a body stopped at a collider it
    /// was not expected to reach); a sleeping body keeps the values of its
    /// last solved tick.
    pub impulse: S,
}

/// What a body stands on: see [`World::ground`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground<S> {
    /// The collider or body it stands on.
    pub other: Id,
    /// The contact's unit normal, from the ground towards the body.
    pub normal: Vec2<S>,
    /// Where it stands, on the ground's surface.
    pub point: Vec2<S>,
    /// The ground's velocity in units per tick: a moving platform's, a
    /// body's, zero for a static collider.
    pub velocity: Vec2<S>,
}

/// Lists what is derived from the contacts wherever they change (never
/// state): their pairs, as [`World::contacts`] gives them, and the contacts
/// between two bodies ordered by their second body, then by their first,
/// each as `second body's id << 32 | index in the list`. With the list
/// itself ordered by the first body, each body's contacts are then found
/// without a scan. `spare` is a buffer for the sort.
pub(super) fn list<S: Scalar>(
    contacts: &[ContactState<S>],
    pairs: &mut Vec<(BodyId, Id)>,
    by_second: &mut Vec<u64>,
    spare: &mut Vec<u64>,
) {
    pairs.clear();
    pairs.extend(contacts.iter().map(ContactState::key));
    by_second.clear();
    // The index orders a second body's contacts by their first body, as
    // the list does.
    by_second.extend(
        contacts
            .iter()
            .enumerate()
            .filter_map(|(k, c)| c.other.body().map(|b| (u64::from(b.index()) << 32) | k as u64)),
    );
    sort_by_high_half(by_second, spare);
}

/// Sorts keys whose low halves ascend as given by their high halves: the
/// order of sorting them whole. A stable radix sort over the bytes of the
/// high half, skipping the bytes every key shares (a world of fewer than
/// 65,536 bodies sorts in two passes): linear in the keys, where a
/// comparison sort of a tick's contacts was a sixth of its cost outside
/// the solver.
fn sort_by_high_half(keys: &mut Vec<u64>, spare: &mut Vec<u64>) {
    let high = |k: u64| (k >> 32) as u32;
    let first = keys.first().map_or(0, |&k| high(k));
    let differ = keys.iter().fold(0, |d, &k| d | (high(k) ^ first));
    for shift in [32, 40, 48, 56] {
        if (differ >> (shift - 32)) as u8 == 0 {
            continue;
        }
        let digit = |k: u64| ((k >> shift) & 0xff) as usize;
        let mut starts = [0_usize; 256];
        for &k in keys.iter() {
            starts[digit(k)] += 1;
        }
        let mut at = 0;
        for start in &mut starts {
            (*start, at) = (at, at + *start);
        }
        spare.clear();
        spare.resize(keys.len(), 0);
        for &k in keys.iter() {
            spare[starts[digit(k)]] = k;
            starts[digit(k)] += 1;
        }
        core::mem::swap(keys, spare);
    }
}

impl<S: Scalar> World<S> {
    /// Every contact of the last tick with its data, in the order of
    /// [`contacts`](World::contacts), each seen from its first body (a
    /// contact between two bodies from the lower id).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
    /// world.step();
    /// let all: Vec<_> = world.contact_details().collect();
    /// assert_eq!((all[0].body, all[0].other), (ball, Id::Collider(floor)));
    /// assert_eq!(all[0].normal, Vec2::new(0.0, 1.0));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn contact_details(&self) -> impl ExactSizeIterator<Item = WorldContact<S>> + '_ {
        self.contacts.iter().map(ContactState::as_first)
    }

    /// The contacts of the last tick of one body, seen from it (the normal
    /// pushes it, the point is on what it touches), ordered by what it
    /// touches: colliders by id, then bodies by id. Found without a scan
    /// of the world's contacts; empty for an id the world does not have.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.01)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let low = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
    /// let high = world.add_body(BodyDef::new(Vec2::new(0.0, 1.5), 0.5))?;
    /// world.step();
    /// // The lower ball touches the floor and the ball above it.
    /// let seen: Vec<_> = world.contacts_of(low).map(|c| (c.other, c.normal)).collect();
    /// assert_eq!(seen, [(Id::Collider(floor), Vec2::new(0.0, 1.0)), (Id::Body(high), Vec2::new(0.0, -1.0))]);
    /// // The upper one is pushed up by the lower.
    /// let seen: Vec<_> = world.contacts_of(high).map(|c| (c.other, c.normal)).collect();
    /// assert_eq!(seen, [(Id::Body(low), Vec2::new(0.0, 1.0))]);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn contacts_of(&self, body: BodyId) -> impl Iterator<Item = WorldContact<S>> + '_ {
        let contacts = &self.contacts;
        // As the first body: one run of the list, colliders then bodies.
        let start = contacts.partition_point(|c| c.body < body);
        let end = start + contacts[start..].partition_point(|c| c.body == body);
        let split = start + contacts[start..end].partition_point(|c| c.other.body().is_none());
        // As the second: a run of the list by second body, whose first
        // bodies have lower ids than any the body is first of.
        let second_of = |key: &u64| (key >> 32) as u32;
        let from = self.by_second.partition_point(|key| second_of(key) < body.index());
        let to = from + self.by_second[from..].partition_point(|key| second_of(key) == body.index());
        let second = self.by_second[from..to].iter().map(move |&key| contacts[key as u32 as usize].as_second(body));
        let first = |range: core::ops::Range<usize>| contacts[range].iter().map(ContactState::as_first);
        first(start..split).chain(second).chain(first(split..end))
    }

    /// What `body` stands on: of its contacts of the last tick whose normal
    /// points against the body's gravity by at least `min_up` (the
    /// normal's component along "up", the cosine of the steepest slope
    /// that counts: 0.7071 for 45°, 1 for flat ground only), the one that
    /// points most nearly up (the first of equals, in the order of
    /// [`contacts_of`](World::contacts_of)). `None` when it has none, when
    /// the body feels no gravity (no "up"), or for an id the world does not
    /// have. The comparison is exact in the fixed-point types, so a game
    /// asking it of a contact gets the same answer every time and on every
    /// peer.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.01)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let wall = world.add_collider(Segment::new(Vec2::new(1.0, 0.0), Vec2::new(1.0, 5.0))?)?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.5, 0.5), 0.5))?;
    /// world.step();
    /// assert_eq!(world.contacts_of(ball).count(), 2); // the floor and the wall
    /// let ground = world.ground(ball, 0.7071).unwrap(); // slopes up to 45°
    /// assert_eq!((ground.other, ground.normal), (Id::Collider(floor), Vec2::new(0.0, 1.0)));
    /// assert_eq!(ground.velocity, Vec2::new(0.0, 0.0));
    /// # let _ = wall;
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn ground(&self, body: BodyId, min_up: S) -> Option<Ground<S>> {
        let down = self.body(body)?.gravity(self.config.gravity);
        if down == Vec2::ZERO {
            return None;
        }
        let limit = SlopeLimit::new(-down, min_up);
        let mut best: Option<(S::Exact, WorldContact<S>)> = None;
        for contact in self.contacts_of(body) {
            let u = limit.up(contact.normal);
            if limit.within(u) && best.as_ref().is_none_or(|(b, _)| u > *b) {
                best = Some((u, contact));
            }
        }
        let (_, contact) = best?;
        let velocity = match contact.other {
            Id::Collider(id) => self.collider(id).map(super::Collider::velocity),
            Id::Body(id) => self.body(id).map(super::Body::velocity),
        };
        Some(Ground {
            other: contact.other,
            normal: contact.normal,
            point: contact.point,
            velocity: velocity.unwrap_or(Vec2::ZERO),
        })
    }
}

/// A slope limit against a direction "up" of any length: a unit normal
/// qualifies when its component along up is at least `min_up`. With
/// `u = n·up` (that component times |up|), that is `u ≥ min_up·|up|`,
/// compared in squares, exactly: the same answer every time and on every
/// peer.
pub(super) struct SlopeLimit<S: Scalar> {
    up: (S::Exact, S::Exact),
    min_up: S::Exact,
    /// `min_up²·|up|²`.
    bound: S::Exact,
}

impl<S: Scalar> SlopeLimit<S> {
    /// A limit beyond ±2 answers as ±2 does (no unit normal's component
    /// reaches it), and keeps the squares small.
    pub(super) fn new(up: Vec2<S>, min_up: S) -> Self {
        let two = S::ONE + S::ONE;
        let (m, ux, uy) = (max(min(min_up, two), -two).to_exact(), up.x.to_exact(), up.y.to_exact());
        Self { up: (ux, uy), min_up: m, bound: m * m * (ux * ux + uy * uy) }
    }

    /// `n·up`, exactly.
    pub(super) fn up(&self, n: Vec2<S>) -> S::Exact {
        n.x.to_exact() * self.up.0 + n.y.to_exact() * self.up.1
    }

    /// Whether a normal whose [`up`](Self::up) is `u` qualifies.
    pub(super) fn within(&self, u: S::Exact) -> bool {
        let zero = <S::Exact as Exact>::ZERO;
        if self.min_up >= zero { u >= zero && u * u >= self.bound } else { u >= zero || u * u <= self.bound }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::sort_by_high_half;
    use crate::SplitMix;

    /// The radix sort puts keys whose low halves ascend in the order of
    /// sorting them whole, for high halves of every width (one byte, two,
    /// all four, and all equal) and any count, none included.
    #[test]
    fn sorting_by_the_high_half_sorts_the_keys_whole() {
        let mut rng = SplitMix(0x6279_7365_636f_6e64);
        let mut spare = Vec::new();
        for case in 0..2_000_u64 {
            let count = rng.next() % 300;
            let width = [0, 8, 16, 24, 32][(case % 5) as usize];
            let mut keys: Vec<u64> = (0..count)
                .map(|low| {
                    let high = if width == 0 { 7 } else { rng.next() >> (64 - width) };
                    (high << 32) | low
                })
                .collect();
            let mut whole = keys.clone();
            whole.sort_unstable();
            sort_by_high_half(&mut keys, &mut spare);
            assert_eq!(keys, whole, "case {case}");
        }
    }
}
