//! World queries between ticks: ray casts, overlaps and the nearest shape,
//! through the broad phase.
//!
//! Every query sees the colliders and bodies whose [`Filter`](super::Filter) its own
//! filter matches, never sensors, and answers in a defined order (ids
//! ascending, colliders before bodies; ties go to the lowest). A query's
//! filter is a [`Filter`](super::Filter), or a [`QueryFilter`] that also passes over one
//! body ([`Filter::excluding`](super::Filter::excluding)): a ray cast from inside a player that must
//! not find the player.

use alloc::vec::Vec;
use core::cell::Cell;

use super::aabb::Aabb;
use super::index::Entry;
use super::{Id, QueryFilter, Shape, World};
use crate::query::kernel::{Narrow, clamp_to_range, offset};
use crate::query::{
    Sweep, closest_point_point_segment, distance_point_segment, intersects_capsule_capsule, intersects_circle_capsule,
    intersects_circle_circle, intersects_circle_segment, sweep_circle_capsule, sweep_circle_circle,
    sweep_circle_segment,
};
use crate::scalar::Exact;
use crate::scalar::Scalar;
use crate::shape::{Capsule, Circle, Segment};
use crate::vec2::Vec2;

/// The first shape a ray meets: see [`World::ray_cast`].
///
/// # Examples
///
/// See [`World::ray_cast`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit<S> {
    /// What it hit.
    pub id: Id,
    /// When, as a fraction of the ray's translation, in `[0, 1]`.
    pub t: S,
    /// Where, on the shape's surface (the ray's origin when it starts
    /// inside the shape); held within [`Scalar::MAX_COORD`] in each
    /// component, as an impact event's point is: at the range's edge a
    /// body's surface reaches beyond it.
    pub point: Vec2<S>,
    /// The unit normal of the surface there, facing the ray.
    pub normal: Vec2<S>,
}

/// The shape nearest to a point: see [`World::nearest`].
///
/// # Examples
///
/// See [`World::nearest`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest<S> {
    /// Which shape.
    pub id: Id,
    /// Its point nearest to the query point (the query point itself when
    /// it lies inside the shape).
    pub point: Vec2<S>,
    /// The distance to it, zero inside the shape.
    pub distance: S,
}

/// The largest magnitude among `values`, in the narrow ring.
fn largest<S: Scalar>(values: &[S]) -> Narrow<S> {
    let zero = <Narrow<S> as Exact>::ZERO;
    values.iter().fold(zero, |m, &v| {
        let v = v.to_narrow();
        let v = if v < zero { -v } else { v };
        if v > m { v } else { m }
    })
}

/// Whether boxes `a` and `b` may hold shapes that a query's own test finds
/// touching: they overlap, or (for floats) are apart by less than the
/// rounding of the boxes and of that test. For fixed point both are exact
/// and this is plain overlap. Every query prunes with it, so that which
/// boxes the broad phase holds (the grown boxes of the last step, or each
/// shape's own) never changes an answer.
fn near<S: Scalar>(a: &Aabb<S>, b: &Aabb<S>) -> bool {
    let margin = <Narrow<S> as Exact>::apart_margin(|| {
        largest(&[a.min.x, a.min.y, a.max.x, a.max.y, b.min.x, b.min.y, b.max.x, b.max.y])
    });
    let low = |v: S| v.to_narrow() - margin;
    let high = |v: S| v.to_narrow();
    low(a.min.x) <= high(b.max.x)
        && low(b.min.x) <= high(a.max.x)
        && low(a.min.y) <= high(b.max.y)
        && low(b.min.y) <= high(a.max.y)
}

/// Whether box `b` may hold a point within `distance` of `p`, with the
/// same allowance for floats' rounding as [`near`].
fn within_box<S: Scalar>(b: &Aabb<S>, p: Vec2<S>, distance: S) -> bool {
    let zero = <Narrow<S> as Exact>::ZERO;
    let margin =
        <Narrow<S> as Exact>::apart_margin(|| largest(&[b.min.x, b.min.y, b.max.x, b.max.y, p.x, p.y, distance]));
    let gap = |low: S, high: S, v: S| {
        let (low, high, v) = (low.to_narrow(), high.to_narrow(), v.to_narrow());
        let gap = if v < low {
            low - v
        } else if v > high {
            v - high
        } else {
            zero
        };
        if gap > margin { gap - margin } else { zero }
    };
    let (dx, dy) = (gap(b.min.x, b.max.x, p.x), gap(b.min.y, b.max.y, p.y));
    let reach = distance.to_narrow() + margin;
    // Degree 2: below 2^124 in `i128` for every fixed-point type.
    dx * dx + dy * dy <= reach * reach
}

/// A shape a query looks at: a collider's, or a body's circle or capsule.
#[derive(Clone, Copy, Debug)]
struct Candidate<S> {
    id: Id,
    shape: Shape<S>,
}

impl<S: Scalar> World<S> {
    /// Builds the broad phase that world queries search, if an edit, a
    /// restore or a clone since the last step has made it stale; else does
    /// nothing. A step builds it anyway; until then a query looks at every
    /// shape. Answers never depend on it, only their cost: call it after
    /// changing or restoring a world of many shapes and before querying it
    /// many times (each shape's contacts, say). It is not part of the state.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Filter, Id, World, WorldConfig};
    /// use geom_core::{Circle, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// for i in 0..1000 {
    ///     world.add_body(BodyDef::new(Vec2::new(i as f32 * 3.0, 0.0), 1.0))?;
    /// }
    /// let saved = world.snapshot();
    /// world.update_query_index();
    /// let mut found = Vec::new();
    /// world.overlap_circle(&Circle::new(Vec2::new(3.0, 1.5), 1.0)?, Filter::ALL, &mut found);
    /// assert_eq!(found, [Id::Body(world.bodies()[1].id())]);
    /// // A restored world answers the same, searched or not.
    /// world.restore(&saved);
    /// let mut again = Vec::new();
    /// world.overlap_circle(&Circle::new(Vec2::new(3.0, 1.5), 1.0)?, Filter::ALL, &mut again);
    /// assert_eq!(again, found);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn update_query_index(&mut self) {
        if self.index.is_valid() {
            return;
        }
        self.index.build(self.bodies.iter().map(|b| b.shape().aabb()), self.colliders.iter().map(|c| c.shape.aabb()));
    }

    /// Calls `visit` with every non-sensor shape that `filter` matches and
    /// whose box `enter` accepts (through the broad phase's tree when it
    /// holds every shape where it is, else by looking at each), with
    /// `enter` also deciding which parts of the tree to walk into.
    fn candidates(&self, filter: QueryFilter, enter: impl Fn(&Aabb<S>) -> bool, mut visit: impl FnMut(Candidate<S>)) {
        let mut consider = |entry: Entry| {
            let (id, shape, item_filter, sensor) = match entry {
                Entry::Collider(c) => {
                    let c = &self.colliders[c as usize];
                    (Id::Collider(c.id()), c.shape, c.filter, c.sensor)
                }
                Entry::Body(b) => {
                    let b = &self.bodies[b as usize];
                    (Id::Body(b.id()), b.shape(), b.filter, b.sensor)
                }
            };
            if !sensor && filter.finds(item_filter, id) {
                visit(Candidate { id, shape });
            }
        };
        if self.index.is_valid() {
            self.index.visit(&enter, |b, e| {
                if enter(b) {
                    consider(e);
                }
            });
        } else {
            for (c, collider) in self.colliders.iter().enumerate() {
                if enter(&collider.shape.aabb()) {
                    consider(Entry::Collider(c as u32));
                }
            }
            for (b, body) in self.bodies.iter().enumerate() {
                if enter(&body.shape().aabb()) {
                    consider(Entry::Body(b as u32));
                }
            }
        }
    }

    /// The first collider or body (not a sensor, and matched by `filter`)
    /// that a ray from `origin` along `translation` meets: the id, the
    /// time as a fraction of the translation, the point and the normal. A
    /// ray that starts inside or on a shape meets it at `t = 0`. Ties go to
    /// the lowest id, colliders before bodies. `None` when it meets nothing,
    /// when `origin` is outside the safe range (or not finite), or when the
    /// translation is NaN in a component (it has no direction); otherwise
    /// the translation is clamped to `±MAX_COORD` per component.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Filter, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let wall = world.add_collider(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0))?)?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(5.0, 0.0), 1.0))?;
    /// let aim = |y: f64| world.ray_cast(Vec2::new(0.0, y), Vec2::new(20.0, 0.0), Filter::ALL);
    /// let first = aim(0.0).unwrap();
    /// assert_eq!((first.id, first.point, first.normal), (Id::Body(ball), Vec2::new(4.0, 0.0), Vec2::new(-1.0, 0.0)));
    /// assert!((first.t - 0.2).abs() < 1e-12); // 4 of 20
    /// let past = aim(3.0).unwrap(); // above the ball
    /// assert_eq!(past.id, Id::Collider(wall));
    /// assert!((past.t - 0.5).abs() < 1e-12);
    /// assert_eq!(aim(8.0), None); // above the wall
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn ray_cast(&self, origin: Vec2<S>, translation: Vec2<S>, filter: impl Into<QueryFilter>) -> Option<RayHit<S>> {
        let filter = filter.into();
        let point = Circle::new(origin, S::ZERO).ok()?;
        if super::is_nan(translation.x) || super::is_nan(translation.y) {
            return None;
        }
        let translation = clamp_to_range(translation);
        let reach = Aabb::spanning(origin, origin + translation, S::ZERO);
        let mut best: Option<RayHit<S>> = None;
        self.candidates(
            filter,
            |b| near(b, &reach),
            |candidate| {
                let outcome = match candidate.shape {
                    Shape::Segment(s) => sweep_circle_segment(&point, translation, &s),
                    Shape::Capsule(c) => sweep_circle_capsule(&point, translation, &c),
                    Shape::Circle(c) => sweep_circle_circle(&point, translation, &c, Vec2::ZERO),
                };
                let hit = match outcome {
                    Sweep::Miss => return,
                    Sweep::InContact { contact, .. } => {
                        RayHit { id: candidate.id, t: S::ZERO, point: origin, normal: contact.normal }
                    }
                    Sweep::Hit(impact) => {
                        let point = clamp_to_range(impact.point);
                        RayHit { id: candidate.id, t: impact.t, point, normal: impact.normal }
                    }
                };
                if best.is_none_or(|b| hit.t < b.t || (hit.t == b.t && hit.id < b.id)) {
                    best = Some(hit);
                }
            },
        );
        best
    }

    /// Every collider and body (not a sensor, and matched by `filter`)
    /// that `circle` touches or overlaps, ids ascending (colliders before
    /// bodies), written into `found` (cleared first, so a buffer can be
    /// reused without allocating).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Filter, Id, World, WorldConfig};
    /// use geom_core::{Circle, Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f32, 0.0)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let near = world.add_body(BodyDef::new(Vec2::new(1.0, 1.0), 0.5))?;
    /// world.add_body(BodyDef::new(Vec2::new(4.0, 4.0), 0.5))?;
    /// let mut found = Vec::new();
    /// world.overlap_circle(&Circle::new(Vec2::new(0.0, 0.5), 1.0)?, Filter::ALL, &mut found);
    /// assert_eq!(found, [Id::Collider(floor), Id::Body(near)]);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn overlap_circle(&self, circle: &Circle<S>, filter: impl Into<QueryFilter>, found: &mut Vec<Id>) {
        self.overlap(&Shape::Circle(*circle), filter.into(), found, |shape| match *shape {
            Shape::Segment(s) => intersects_circle_segment(circle, &s),
            Shape::Capsule(c) => intersects_circle_capsule(circle, &c),
            Shape::Circle(c) => intersects_circle_circle(circle, &c),
        });
    }

    /// Every collider and body (not a sensor, and matched by `filter`)
    /// that `capsule` touches or overlaps, ids ascending (colliders before
    /// bodies), written into `found` (cleared first).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Filter, Id, World, WorldConfig};
    /// use geom_core::{Capsule, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let a = world.add_body(BodyDef::new(Vec2::new(0.0, 0.5), 0.5))?;
    /// let b = world.add_body(BodyDef::new(Vec2::new(6.0, 0.5), 0.5))?;
    /// world.add_body(BodyDef::new(Vec2::new(3.0, 5.0), 0.5))?;
    /// // A sword's sweep: everything along the blade.
    /// let blade = Capsule::new(Vec2::new(0.0, 1.0), Vec2::new(6.0, 1.0), 0.25)?;
    /// let mut hit = Vec::new();
    /// world.overlap_capsule(&blade, Filter::ALL, &mut hit);
    /// assert_eq!(hit, [Id::Body(a), Id::Body(b)]);
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn overlap_capsule(&self, capsule: &Capsule<S>, filter: impl Into<QueryFilter>, found: &mut Vec<Id>) {
        self.overlap(&Shape::Capsule(*capsule), filter.into(), found, |shape| match *shape {
            Shape::Segment(s) => {
                Capsule::new(s.start(), s.end(), S::ZERO).is_ok_and(|thin| intersects_capsule_capsule(capsule, &thin))
            }
            Shape::Capsule(c) => intersects_capsule_capsule(capsule, &c),
            Shape::Circle(c) => intersects_circle_capsule(&c, capsule),
        });
    }

    /// The ids of every non-sensor shape that `filter` finds and whose box
    /// is near `reach`, ascending (colliders before bodies), into `found`
    /// (cleared first).
    pub(super) fn ids_near(&self, reach: &Aabb<S>, filter: QueryFilter, found: &mut Vec<Id>) {
        found.clear();
        self.candidates(
            filter,
            |b| near(b, reach),
            |candidate| {
                if near(&candidate.shape.aabb(), reach) {
                    found.push(candidate.id);
                }
            },
        );
        found.sort_unstable();
    }

    /// What `touches` says `query` touches, among the candidates near its
    /// box, ids ascending, into `found` (cleared first).
    fn overlap(&self, query: &Shape<S>, filter: QueryFilter, found: &mut Vec<Id>, touches: impl Fn(&Shape<S>) -> bool) {
        found.clear();
        let reach = query.aabb();
        self.candidates(
            filter,
            |b| near(b, &reach),
            |candidate| {
                if touches(&candidate.shape) {
                    found.push(candidate.id);
                }
            },
        );
        found.sort_unstable();
    }

    /// The collider or body (not a sensor, and matched by `filter`)
    /// nearest to `point`: its id, its point nearest to `point`, and the
    /// distance (zero when `point` is inside it). Ties go to the lowest id,
    /// colliders before bodies. `None` when nothing matches, or when
    /// `point` is outside the safe range (or not finite).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, Filter, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?)?;
    /// let ball = world.add_body(BodyDef::new(Vec2::new(0.0, 6.0), 1.0))?;
    /// let low = world.nearest(Vec2::new(1.0, 2.0), Filter::ALL).unwrap();
    /// assert_eq!((low.id, low.point, low.distance), (Id::Collider(floor), Vec2::new(1.0, 0.0), 2.0));
    /// let high = world.nearest(Vec2::new(0.0, 4.5), Filter::ALL).unwrap();
    /// assert_eq!((high.id, high.point, high.distance), (Id::Body(ball), Vec2::new(0.0, 5.0), 0.5));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    #[must_use]
    pub fn nearest(&self, point: Vec2<S>, filter: impl Into<QueryFilter>) -> Option<Nearest<S>> {
        let filter = filter.into();
        Circle::new(point, S::ZERO).ok()?;
        let mut best: Option<Nearest<S>> = None;
        // The best distance so far, to skip what lies beyond it.
        let bound: Cell<Option<S>> = Cell::new(None);
        let enter = |b: &Aabb<S>| bound.get().is_none_or(|d| within_box(b, point, d));
        self.candidates(filter, enter, |candidate| {
            let found = nearest_on(&candidate.shape, point);
            let candidate = Nearest { id: candidate.id, ..found };
            if best.is_none_or(|b| {
                candidate.distance < b.distance || (candidate.distance == b.distance && candidate.id < b.id)
            }) {
                best = Some(candidate);
                bound.set(Some(candidate.distance));
            }
        });
        best
    }
}

/// The point of `shape` nearest to `point`, and the distance (the id is a
/// placeholder).
fn nearest_on<S: Scalar>(shape: &Shape<S>, point: Vec2<S>) -> Nearest<S> {
    let (core, radius) = match shape {
        Shape::Segment(s) => (*s, S::ZERO),
        Shape::Capsule(c) => (c.segment(), c.radius()),
        Shape::Circle(c) => (Segment::new_unchecked(c.center(), c.center()), c.radius()),
    };
    let to_core = distance_point_segment(point, &core);
    let placeholder = Id::Collider(super::ColliderId(0));
    if to_core <= radius {
        return Nearest { id: placeholder, point, distance: S::ZERO };
    }
    let on_core = closest_point_point_segment(point, &core).point;
    let surface = on_core + offset(point.to_exact().sub(on_core.to_exact()), radius);
    Nearest { id: placeholder, point: surface, distance: to_core - radius }
}
