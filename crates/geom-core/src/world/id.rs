//! The ids of bodies and colliders, and the layer filter that decides
//! which of them meet.

use super::digest::Digest;

/// The stable identifier of a body: bodies are kept, stepped and hashed in
/// the order of their ids, which are never reused.
///
/// # Examples
///
/// ```
/// use geom_core::world::{BodyDef, World, WorldConfig};
/// use geom_core::Vec2;
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
/// let a = world.add_body(BodyDef::new(Vec2::new(0.0, 0.0), 1.0))?;
/// let b = world.add_body(BodyDef::new(Vec2::new(5.0, 0.0), 1.0))?;
/// assert!(a < b);
/// assert_eq!(a.index(), 0);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyId(pub(super) u32);

impl BodyId {
    /// The id as a number: ids are handed out from 0 upwards.
    ///
    /// See [`BodyId`] for an example.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0
    }
}

/// The stable identifier of a collider (see [`BodyId`]).
///
/// # Examples
///
/// ```
/// use geom_core::world::{World, WorldConfig};
/// use geom_core::{Circle, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
/// let post = world.add_collider(Circle::new(Vec2::new(1.0, 1.0), 0.5)?)?;
/// assert_eq!(post.index(), 0);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderId(pub(super) u32);

impl ColliderId {
    /// The id as a number: ids are handed out from 0 upwards.
    ///
    /// See [`ColliderId`] for an example.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0
    }
}

/// A body or a collider: the other side of a contact or an event, or what
/// a world query found. Colliders order before bodies.
///
/// # Examples
///
/// ```
/// use geom_core::world::{Filter, Id, World, WorldConfig};
/// use geom_core::{Circle, Vec2};
///
/// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
/// let post = world.add_collider(Circle::new(Vec2::new(0.0, 0.0), 1.0)?)?;
/// let found = world.nearest(Vec2::new(3.0, 0.0), Filter::ALL).unwrap();
/// assert_eq!(found.id, Id::Collider(post));
/// assert_eq!(found.id.collider(), Some(post));
/// assert_eq!(found.id.body(), None);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Id {
    /// A collider.
    Collider(ColliderId),
    /// A body.
    Body(BodyId),
}

impl Id {
    /// The body's id, if this is a body.
    ///
    /// See [`Id`] for an example.
    #[must_use]
    pub fn body(self) -> Option<BodyId> {
        match self {
            Self::Body(id) => Some(id),
            Self::Collider(_) => None,
        }
    }

    /// The collider's id, if this is a collider.
    ///
    /// See [`Id`] for an example.
    #[must_use]
    pub fn collider(self) -> Option<ColliderId> {
        match self {
            Self::Collider(id) => Some(id),
            Self::Body(_) => None,
        }
    }

    pub(super) fn hash(self, h: &mut Digest) {
        match self {
            Self::Collider(id) => {
                h.write_u8(0);
                h.write_u32(id.0);
            }
            Self::Body(id) => {
                h.write_u8(1);
                h.write_u32(id.0);
            }
        }
    }
}

/// Collision layers: which bodies and colliders interact.
///
/// Each body and collider is on the layers set in `layer` and interacts
/// with the layers set in `mask`. Two of them collide (or report a sensor
/// overlap) only when each is on a layer the other interacts with:
/// `a.layer & b.mask != 0` and `b.layer & a.mask != 0`, a rule that is
/// symmetric. A world query takes a filter too, and finds what its filter
/// matches.
///
/// The default is layer 1, interacting with every layer.
///
/// # Examples
///
/// ```
/// use geom_core::world::Filter;
///
/// const PLAYERS: u32 = 1 << 1;
/// const BULLETS: u32 = 1 << 2;
/// let player = Filter { layer: PLAYERS, mask: !PLAYERS }; // players pass through each other
/// let bullet = Filter { layer: BULLETS, mask: PLAYERS };
/// assert!(player.matches(bullet) && bullet.matches(player));
/// assert!(!player.matches(player));
/// assert!(!bullet.matches(Filter::default())); // bullets only hit players
/// assert!(Filter::ALL.matches(player));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The layers this is on.
    pub layer: u32,
    /// The layers this interacts with.
    pub mask: u32,
}

impl Filter {
    /// On every layer, interacting with every layer: as a query's filter,
    /// it finds everything whose own filter is not empty.
    pub const ALL: Self = Self { layer: u32::MAX, mask: u32::MAX };

    /// Whether two filters let their owners interact (see [`Filter`]).
    ///
    /// See [`Filter`] for an example.
    #[must_use]
    pub const fn matches(self, other: Self) -> bool {
        self.layer & other.mask != 0 && other.layer & self.mask != 0
    }

    pub(super) fn hash(self, h: &mut Digest) {
        h.write_u32(self.layer);
        h.write_u32(self.mask);
    }
}

impl Default for Filter {
    /// Layer 1, interacting with every layer.
    fn default() -> Self {
        Self { layer: 1, mask: u32::MAX }
    }
}

impl Filter {
    /// A query's filter that also passes over one body: a ray cast down
    /// from a player's feet that must not find the player itself.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Filter, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, -0.01)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let player = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
    /// let down = |filter| world.ray_cast(Vec2::new(0.0, 0.5), Vec2::new(0.0, -2.0), filter).unwrap().id;
    /// assert_eq!(down(Filter::ALL.into()), Id::Body(player)); // from inside the player, at t = 0
    /// assert_eq!(down(Filter::ALL.excluding(player)), Id::Collider(floor));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub const fn excluding(self, body: BodyId) -> QueryFilter {
        QueryFilter { filter: self, exclude: Some(body) }
    }
}

/// What a world query finds: what its [`Filter`] matches, less one body if
/// it names one ([`Filter::excluding`]). Every query takes a plain
/// `Filter` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueryFilter {
    /// The layers the query finds.
    pub filter: Filter,
    /// A body the query passes over.
    pub exclude: Option<BodyId>,
}

impl QueryFilter {
    /// Whether the query finds something with this filter and id.
    pub(super) fn finds(&self, filter: Filter, id: Id) -> bool {
        self.filter.matches(filter) && self.exclude.is_none_or(|b| id != Id::Body(b))
    }
}

impl From<Filter> for QueryFilter {
    /// The filter, passing over no body.
    fn from(filter: Filter) -> Self {
        Self { filter, exclude: None }
    }
}
