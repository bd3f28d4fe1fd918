//! How the world steps ([`WorldConfig`]), why it refuses a change
//! ([`WorldError`]), and the checks every value it takes goes through.

use core::fmt;

use super::digest::Digest;
use super::{BodyId, ColliderId};
use crate::scalar::Scalar;
use crate::shape::ShapeError;
use crate::vec2::Vec2;

/// Why the world refused a change. The world is left exactly as it was.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, World, WorldConfig, WorldError};
/// use geom_core::Vec2;
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, -0.1)))?;
/// let mut def = BodyDef::new(Vec2::new(0.0, 0.0), 1.0);
/// def.restitution = 1.5;
/// assert_eq!(world.add_body(def), Err(WorldError::Restitution));
/// assert!(world.bodies().is_empty());
/// # Ok::<(), WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WorldError {
    /// A position or radius does not make a valid shape.
    Shape(ShapeError),
    /// A velocity, an impulse or the gravity is NaN, infinite, or beyond
    /// [`Scalar::MAX_COORD`] in a component (or would make a velocity so).
    Velocity,
    /// The inverse mass is negative, NaN, or beyond [`Scalar::MAX_COORD`].
    InverseMass,
    /// The restitution is outside `[0, 1]` (or NaN).
    Restitution,
    /// The friction coefficient is negative, NaN or beyond
    /// [`Scalar::MAX_COORD`].
    Friction,
    /// The gravity scale is NaN or beyond [`Scalar::MAX_COORD`] in size.
    GravityScale,
    /// A setting of the [`WorldConfig`] is out of its range: the bounce
    /// threshold, the damping or the sleep threshold negative, the
    /// contact frequency or the push speed not positive, any of them NaN
    /// or beyond [`Scalar::MAX_COORD`], or no substeps.
    Config,
    /// No body has this id.
    UnknownBody(BodyId),
    /// No collider has this id.
    UnknownCollider(ColliderId),
    /// All 2^32 ids have been handed out.
    OutOfIds,
    /// A saved state lists ids out of order, twice, or beyond the next id
    /// to hand out, or a contact a step could not have recorded (with
    /// something that does not exist, or the wrong way round).
    Ids,
    /// A saved state's contact holds a value a step cannot leave: one that
    /// is not finite or beyond [`Scalar::MAX_COORD`], or an impulse (the
    /// solver's of a substep, or the tick's) that pulls.
    Contact,
    /// A saved state's sleeping body moves (a body asleep has no
    /// velocity), or names a group that no sleeping body of its own names.
    Sleep,
    /// A saved state is not one: its bytes do not decode as a world.
    Malformed,
    /// A saved state is in another scalar type (`I16F16` bytes read as
    /// `I32F32`, say): read it in its own type, then
    /// [`convert`](crate::world::World::convert) it.
    Scalar,
    /// A saved state's checksum does not match its contents: it was
    /// altered or corrupted.
    Checksum,
    /// A one-way collider's direction is zero, NaN, or beyond
    /// [`Scalar::MAX_COORD`] in a component.
    OneWay,
    /// A character controller's body has a non-zero inverse mass, or one
    /// of its [settings](crate::world::CharacterConfig) is out of range:
    /// `up` zero or beyond [`Scalar::MAX_COORD`], `min_floor_up` outside
    /// `[-1, 1]`, a height, distance or impulse negative or beyond
    /// `MAX_COORD` (or any of them NaN).
    Character,
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shape(e) => write!(f, "invalid shape: {e}"),
            Self::Velocity => {
                f.write_str("a velocity, an impulse or the gravity is not finite or outside the safe range")
            }
            Self::InverseMass => f.write_str("the inverse mass is negative, not finite or outside the safe range"),
            Self::Restitution => f.write_str("the restitution is outside [0, 1]"),
            Self::Friction => f.write_str("the friction is negative, not finite or outside the safe range"),
            Self::GravityScale => f.write_str("the gravity scale is not finite or outside the safe range"),
            Self::Config => f.write_str(
                "a setting of the configuration is out of range: a threshold or the damping negative, \
                 the contact frequency or push speed not positive, or no substeps",
            ),
            Self::UnknownBody(id) => write!(f, "no body has id {}", id.0),
            Self::UnknownCollider(id) => write!(f, "no collider has id {}", id.0),
            Self::OutOfIds => f.write_str("all ids have been handed out"),
            Self::Ids => f.write_str(
                "ids are out of order, repeated, beyond the next id, or unknown, or a contact is the wrong way round",
            ),
            Self::Contact => f.write_str("a contact holds a value out of range, or an impulse that pulls"),
            Self::Sleep => f.write_str("a sleeping body has a velocity, or sleeps in a group no sleeping body names"),
            Self::Malformed => f.write_str("the bytes are not a saved world"),
            Self::Scalar => f.write_str("the saved world is in another scalar type"),
            Self::Checksum => f.write_str("the saved world's checksum does not match: it was altered or corrupted"),
            Self::OneWay => f.write_str("a one-way collider's direction is zero, not finite or outside the safe range"),
            Self::Character => f.write_str(
                "a character's body has a non-zero inverse mass, or a setting of its controller is out of range",
            ),
        }
    }
}

impl core::error::Error for WorldError {}

impl From<ShapeError> for WorldError {
    fn from(e: ShapeError) -> Self {
        Self::Shape(e)
    }
}

/// Whether `v` is a finite value within `[0, max]`.
pub(super) fn in_unit_range<S: Scalar>(v: S, max: S) -> bool {
    v.is_finite() && v >= S::ZERO && v <= max
}

/// Whether `v` is NaN (`v != v`: the generic test, for every scalar type).
#[allow(clippy::eq_op)]
pub(super) fn is_nan<S: Scalar>(v: S) -> bool {
    v != v
}

/// Whether `v` is finite and within `±MAX_COORD`.
pub(super) fn in_range<S: Scalar>(v: S) -> bool {
    v.is_finite() && v <= S::MAX_COORD && v >= -S::MAX_COORD
}

/// Whether both components are finite and within the safe range.
pub(super) fn in_safe_range<S: Scalar>(v: Vec2<S>) -> bool {
    in_range(v.x) && in_range(v.y)
}

/// Hashes scalars by their bits.
pub(super) fn hash_scalars<S: Scalar>(h: &mut Digest, values: &[S]) {
    for v in values {
        h.write_u64(v.hash_bits());
    }
}

/// How the world steps: gravity, bounces, the contact solver and
/// sleeping.
///
/// [`WorldConfig::new`] gives defaults that suit bodies about a unit
/// across under the given gravity; each field says what it trades.
///
/// # Examples
///
/// ```
/// use geom_core::world::WorldConfig;
/// use geom_core::Vec2;
///
/// let config = WorldConfig::new(Vec2::new(0.0_f64, -0.5));
/// assert_eq!(config.bounce_threshold, 1.0); // 2 × (|gx| + |gy|)
/// assert_eq!(config.substeps, 8);
/// assert_eq!(config.sleep_threshold, 0.125); // an eighth of the bounce threshold
/// assert_eq!(config.sleep_ticks, 30);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
pub struct WorldConfig<S> {
    /// Added to every movable body's velocity (times its gravity scale)
    /// over each tick (units per tick per tick), a share in each substep.
    pub gravity: Vec2<S>,
    /// Impacts slower than this along the normal (units per tick, the
    /// approach speed at the start of the tick) do not bounce, and are not
    /// reported as impact events. A body resting on another approaches it
    /// at about a tick's gravity, so this must be above that for bodies to
    /// rest; and every bounce of a ball with restitution below 1 is slower
    /// than the one before, so it comes to rest once its bounces fall
    /// below this.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub bounce_threshold: S,
    /// How many substeps a tick is solved in (at least 1). Each substep
    /// adds its share of gravity, solves every contact once with position
    /// correction, moves the bodies and solves every contact once more
    /// without it. More substeps make stacks stiffer and heavy-on-light
    /// stacks steadier, at a cost proportional to their number.
    pub substeps: u8,
    /// How stiff a contact between two bodies is: the frequency of the
    /// spring it acts as, in cycles per tick (a contact with a collider is
    /// rigid: it corrects an overlap at the rate of a spring twice as stiff
    /// and sinks nothing under load). A stiffer contact corrects an overlap
    /// faster and sinks less under load: one holding the weight `w` (mass
    /// times gravity) of what rests on it sinks about `w / (m·(2π·hertz)²)`,
    /// `m = 1 / (1/ma + 1/mb)` the pair's effective mass, whatever the
    /// damping and the substeps (in a column of equal bodies, the contact
    /// under `k` of them sinks `2k·g / (2π·hertz)²`). Stiffer than a quarter
    /// of the [`substeps`](Self::substeps) per tick a contact overshoots and
    /// jitters, so the frequency is held there: for a stiffer contact, raise
    /// the substeps too. Positive.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub contact_hertz: S,
    /// The damping ratio of that spring: 1 is critically damped, more
    /// corrects overlaps more slowly and never bounces. At least 0.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub contact_damping: S,
    /// The fastest a contact pushes overlapping bodies apart, in units per
    /// tick: bodies created inside each other separate at most this fast
    /// instead of flying apart. Positive.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub push_speed: S,
    /// A body whose speed (and whose last tick's motion) stays at most
    /// this (units per tick, in each component) for [`sleep_ticks`]
    /// ticks, together with everything it touches, falls asleep. At
    /// least 0.
    ///
    /// [`sleep_ticks`]: WorldConfig::sleep_ticks
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub sleep_threshold: S,
    /// How many ticks a group of touching bodies must stay that slow before
    /// it sleeps: it is then exactly still, costs next to nothing to step,
    /// and wakes when an awake body or a moving collider touches it or an
    /// input reaches one of its bodies. 0 turns sleeping off.
    pub sleep_ticks: u16,
}

impl<S: Scalar> WorldConfig<S> {
    /// A configuration with the given gravity and the defaults: a bounce
    /// threshold of twice gravity's size (`2·(|gx| + |gy|)`, held at
    /// [`Scalar::MAX_COORD`]), 8 substeps, contacts of 2 cycles per tick
    /// damped at 10, a push speed of 4 bounce thresholds (at least 1/16
    /// unit per tick, so that a world without gravity separates overlaps
    /// too), and sleep after 30 ticks below an eighth of the bounce
    /// threshold.
    ///
    /// A gravity outside the safe range (which [`World::new`](crate::world::World::new) refuses) is
    /// measured at the range's edge here, so building the configuration
    /// never overflows.
    ///
    /// See [`WorldConfig`] for an example.
    #[must_use]
    pub fn new(gravity: Vec2<S>) -> Self {
        // Clamped first: |MIN| and the sum of two huge components overflow
        // a fixed-point type.
        let abs = |v: S| {
            if v < -S::MAX_COORD || v > S::MAX_COORD {
                S::MAX_COORD
            } else if v < S::ZERO {
                -v
            } else {
                v
            }
        };
        let held = |v: S| if v > S::MAX_COORD { S::MAX_COORD } else { v };
        let size = abs(gravity.x) + abs(gravity.y);
        let threshold = size + size; // at most 4·MAX_COORD: no overflow
        let bounce_threshold = held(threshold);
        let four = bounce_threshold + bounce_threshold;
        let push_speed = held(four + four);
        let least = S::from_dyadic::<4>(1);
        let push_speed = if push_speed < least { least } else { push_speed };
        Self {
            gravity,
            bounce_threshold,
            substeps: 8,
            contact_hertz: S::from(2_i8),
            contact_damping: S::from(10_i8),
            push_speed,
            sleep_threshold: bounce_threshold.mul_round(S::from_dyadic::<3>(1)),
            sleep_ticks: 30,
        }
    }

    pub(super) fn validate(&self) -> Result<(), WorldError> {
        if !in_safe_range(self.gravity) {
            return Err(WorldError::Velocity);
        }
        let positive = |v: S| in_unit_range(v, S::MAX_COORD) && v > S::ZERO;
        if !in_unit_range(self.bounce_threshold, S::MAX_COORD)
            || self.substeps == 0
            || !positive(self.contact_hertz)
            || !in_unit_range(self.contact_damping, S::MAX_COORD)
            || !positive(self.push_speed)
            || !in_unit_range(self.sleep_threshold, S::MAX_COORD)
        {
            return Err(WorldError::Config);
        }
        Ok(())
    }

    pub(super) fn hash(&self, h: &mut Digest) {
        hash_scalars(
            h,
            &[
                self.gravity.x,
                self.gravity.y,
                self.bounce_threshold,
                self.contact_hertz,
                self.contact_damping,
                self.push_speed,
                self.sleep_threshold,
            ],
        );
        h.write_u8(self.substeps);
        h.write_u32(u32::from(self.sleep_ticks));
    }
}
