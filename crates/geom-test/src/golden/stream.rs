//! The golden query stream: for every query and scalar type, a fixed,
//! seeded sequence of scenes, drawn by this module's own generator
//! (`SplitMix64`, so no dependency's internals can move it), and every output
//! bit of geom's answers.
//!
//! The scenes mirror the property tests' strategies: mostly near touching
//! (within a few rounding steps), with zero-length segments, centres on
//! segments and on end points, concentric circles, grazing sweeps, motions
//! along segments or none, at scales from 1 to the type's whole safe range.
//!
//! The generator uses only integer arithmetic and the `f64` operations
//! IEEE 754 rounds correctly (`+ − × ÷ √` and conversions), never a
//! platform's maths library (`hypot`, say, is not correctly rounded on
//! every target): the same scenes come out on every IEEE 754 target, so
//! that a digest that moves there is the library's doing. Fixed-point
//! scenes go further: every value is placed with integer arithmetic on the
//! raw values and with geom's own fixed-point distances (integer arithmetic
//! too), and every `f64` they meet is exact (a power of two, or 53 random
//! bits times one), so they come out the same on x87 as well, where `f64`
//! arithmetic rounds twice.

use std::marker::PhantomData;

use geom_core::{
    Capsule, Circle, Contact, Segment, SegmentFeature, Sweep, Vec2, closest_point_point_segment,
    closest_points_segment_segment, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_segment, distance_point_segment, distance_squared_point_segment, intersects_capsule_capsule,
    intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment, sweep_capsule_capsule,
    sweep_capsule_circle, sweep_capsule_segment, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
    sweep_segment_segment,
};

use crate::{SplitMix, Testable};

/// Every query the golden stream covers, in the order digests are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Query {
    /// [`closest_point_point_segment`].
    ClosestPointPointSegment,
    /// [`closest_points_segment_segment`].
    ClosestPointsSegmentSegment,
    /// [`distance_squared_point_segment`].
    DistanceSquaredPointSegment,
    /// [`distance_point_segment`].
    DistancePointSegment,
    /// [`intersects_circle_segment`].
    IntersectsCircleSegment,
    /// [`intersects_circle_capsule`].
    IntersectsCircleCapsule,
    /// [`intersects_circle_circle`].
    IntersectsCircleCircle,
    /// [`intersects_capsule_capsule`].
    IntersectsCapsuleCapsule,
    /// [`contact_circle_segment`].
    ContactCircleSegment,
    /// [`contact_circle_capsule`].
    ContactCircleCapsule,
    /// [`contact_circle_circle`].
    ContactCircleCircle,
    /// [`contact_capsule_capsule`].
    ContactCapsuleCapsule,
    /// [`sweep_circle_segment`].
    SweepCircleSegment,
    /// [`sweep_circle_capsule`].
    SweepCircleCapsule,
    /// [`sweep_circle_circle`].
    SweepCircleCircle,
    /// [`sweep_capsule_circle`].
    SweepCapsuleCircle,
    /// [`sweep_capsule_segment`].
    SweepCapsuleSegment,
    /// [`sweep_capsule_capsule`].
    SweepCapsuleCapsule,
    /// [`sweep_segment_segment`].
    SweepSegmentSegment,
}

impl Query {
    /// Every query.
    pub const ALL: [Self; 19] = [
        Self::ClosestPointPointSegment,
        Self::ClosestPointsSegmentSegment,
        Self::DistanceSquaredPointSegment,
        Self::DistancePointSegment,
        Self::IntersectsCircleSegment,
        Self::IntersectsCircleCapsule,
        Self::IntersectsCircleCircle,
        Self::IntersectsCapsuleCapsule,
        Self::ContactCircleSegment,
        Self::ContactCircleCapsule,
        Self::ContactCircleCircle,
        Self::ContactCapsuleCapsule,
        Self::SweepCircleSegment,
        Self::SweepCircleCapsule,
        Self::SweepCircleCircle,
        Self::SweepCapsuleCircle,
        Self::SweepCapsuleSegment,
        Self::SweepCapsuleCapsule,
        Self::SweepSegmentSegment,
    ];

    /// The function's name in `geom_core`.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_test::golden::stream::Query;
    ///
    /// assert_eq!(Query::SweepCapsuleCircle.name(), "sweep_capsule_circle");
    /// assert_eq!(Query::from_name("sweep_capsule_circle"), Some(Query::SweepCapsuleCircle));
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::ClosestPointPointSegment => "closest_point_point_segment",
            Self::ClosestPointsSegmentSegment => "closest_points_segment_segment",
            Self::DistanceSquaredPointSegment => "distance_squared_point_segment",
            Self::DistancePointSegment => "distance_point_segment",
            Self::IntersectsCircleSegment => "intersects_circle_segment",
            Self::IntersectsCircleCapsule => "intersects_circle_capsule",
            Self::IntersectsCircleCircle => "intersects_circle_circle",
            Self::IntersectsCapsuleCapsule => "intersects_capsule_capsule",
            Self::ContactCircleSegment => "contact_circle_segment",
            Self::ContactCircleCapsule => "contact_circle_capsule",
            Self::ContactCircleCircle => "contact_circle_circle",
            Self::ContactCapsuleCapsule => "contact_capsule_capsule",
            Self::SweepCircleSegment => "sweep_circle_segment",
            Self::SweepCircleCapsule => "sweep_circle_capsule",
            Self::SweepCircleCircle => "sweep_circle_circle",
            Self::SweepCapsuleCircle => "sweep_capsule_circle",
            Self::SweepCapsuleSegment => "sweep_capsule_segment",
            Self::SweepCapsuleCapsule => "sweep_capsule_capsule",
            Self::SweepSegmentSegment => "sweep_segment_segment",
        }
    }

    /// The query with this name.
    ///
    /// See [`Query::name`] for an example.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|q| q.name() == name)
    }

    /// The seed of this query's stream (the same for every scalar type).
    fn seed(self) -> u64 {
        use std::hash::Hasher;
        let mut h = seahash::SeaHasher::new();
        h.write(b"geom golden stream 1: ");
        h.write(self.name().as_bytes());
        h.finish()
    }
}

/// Where a case's named values go: a hash of their bits, or JSON.
pub trait Sink<S: Testable> {
    /// A scalar.
    fn num(&mut self, name: &'static str, v: S);
    /// A wide scalar (a squared length).
    fn wide(&mut self, name: &'static str, v: S::Wide);
    /// A yes/no answer.
    fn flag(&mut self, name: &'static str, v: bool);
    /// Which of several outcomes (a variant's name).
    fn tag(&mut self, name: &'static str, v: &'static str);

    /// A point, as its two coordinates.
    fn point(&mut self, name: &'static str, p: Vec2<S>) {
        self.num(name, p.x);
        self.num(name, p.y);
    }
}

/// A case's inputs, by name: points and scalars.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs<S> {
    /// The values, in the order the query takes them.
    pub values: Vec<(&'static str, Input<S>)>,
}

/// One input value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input<S> {
    /// A point or a motion.
    Point(Vec2<S>),
    /// A radius.
    Num(S),
}

impl<S: Testable> Inputs<S> {
    fn push_point(&mut self, name: &'static str, p: Vec2<S>) {
        self.values.push((name, Input::Point(p)));
    }

    fn push_num(&mut self, name: &'static str, v: S) {
        self.values.push((name, Input::Num(v)));
    }

    fn point(&self, name: &str) -> Vec2<S> {
        match self.values.iter().find(|(n, _)| *n == name) {
            Some((_, Input::Point(p))) => *p,
            _ => panic!("the case has no point `{name}`"),
        }
    }

    fn num(&self, name: &str) -> S {
        match self.values.iter().find(|(n, _)| *n == name) {
            Some((_, Input::Num(v))) => *v,
            _ => panic!("the case has no value `{name}`"),
        }
    }

    fn segment(&self, start: &str, end: &str) -> Segment<S> {
        Segment::new(self.point(start), self.point(end)).expect("generated in range")
    }

    fn circle(&self, center: &str, radius: &str) -> Circle<S> {
        Circle::new(self.point(center), self.num(radius)).expect("generated in range")
    }

    fn capsule(&self, start: &str, end: &str, radius: &str) -> Capsule<S> {
        Capsule::new(self.point(start), self.point(end), self.num(radius)).expect("generated in range")
    }

    /// The names each query takes, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_test::golden::stream::{Inputs, Query};
    ///
    /// let names = Inputs::<f32>::names(Query::SweepCircleCircle);
    /// assert_eq!(names, ["a.center", "a.radius", "a.motion", "b.center", "b.radius", "b.motion"]);
    /// ```
    #[must_use]
    pub fn names(query: Query) -> &'static [&'static str] {
        match query {
            Query::ClosestPointPointSegment | Query::DistanceSquaredPointSegment | Query::DistancePointSegment => {
                &["p", "segment.start", "segment.end"]
            }
            Query::ClosestPointsSegmentSegment => &["a.start", "a.end", "b.start", "b.end"],
            Query::IntersectsCircleSegment | Query::ContactCircleSegment => {
                &["circle.center", "circle.radius", "segment.start", "segment.end"]
            }
            Query::IntersectsCircleCapsule | Query::ContactCircleCapsule => {
                &["circle.center", "circle.radius", "capsule.start", "capsule.end", "capsule.radius"]
            }
            Query::IntersectsCircleCircle | Query::ContactCircleCircle => {
                &["a.center", "a.radius", "b.center", "b.radius"]
            }
            Query::IntersectsCapsuleCapsule | Query::ContactCapsuleCapsule => {
                &["a.start", "a.end", "a.radius", "b.start", "b.end", "b.radius"]
            }
            Query::SweepCircleSegment => &["circle.center", "circle.radius", "motion", "segment.start", "segment.end"],
            Query::SweepCircleCapsule => {
                &["circle.center", "circle.radius", "motion", "capsule.start", "capsule.end", "capsule.radius"]
            }
            Query::SweepCircleCircle => &["a.center", "a.radius", "a.motion", "b.center", "b.radius", "b.motion"],
            Query::SweepCapsuleCircle => {
                &["capsule.start", "capsule.end", "capsule.radius", "motion", "circle.center", "circle.radius"]
            }
            Query::SweepCapsuleSegment => {
                &["capsule.start", "capsule.end", "capsule.radius", "motion", "segment.start", "segment.end"]
            }
            Query::SweepCapsuleCapsule => {
                &["a.start", "a.end", "a.radius", "a.motion", "b.start", "b.end", "b.radius", "b.motion"]
            }
            Query::SweepSegmentSegment => &["a.start", "a.end", "a.motion", "b.start", "b.end", "b.motion"],
        }
    }

    /// Whether the named input is a scalar (a radius) rather than a point.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_test::golden::stream::Inputs;
    ///
    /// assert!(Inputs::<f32>::is_scalar("capsule.radius"));
    /// assert!(!Inputs::<f32>::is_scalar("motion"));
    /// ```
    #[must_use]
    pub fn is_scalar(name: &str) -> bool {
        name.ends_with("radius")
    }
}

/// Draws scenes for scalar type `S`.
struct Draw<S> {
    rng: SplitMix,
    _type: PhantomData<S>,
}

fn clamp<S: Testable>(v: S) -> S {
    if v > S::MAX_COORD {
        S::MAX_COORD
    } else if v < -S::MAX_COORD {
        -S::MAX_COORD
    } else {
        v
    }
}

fn clamp_point<S: Testable>(p: Vec2<S>) -> Vec2<S> {
    Vec2::new(clamp(p.x), clamp(p.y))
}

fn f64_point<S: Testable>(p: Vec2<S>) -> (f64, f64) {
    (p.x.to_f64(), p.y.to_f64())
}

/// Whether `S` is fixed point: its scenes are placed with integers only.
fn fixed<S: Testable>() -> bool {
    S::RELATIVE == 0.0
}

/// A fixed-point value's raw integer (the value times `2^F`).
fn raw<S: Testable>(v: S) -> i128 {
    let shift = 128 - S::BITS.0;
    // Sign-extends the zero-extended bit pattern.
    ((v.to_raw() << shift) as i128) >> shift
}

/// The fixed-point value whose raw integer is `raw` (within the type's
/// range: the callers' values are at most three times the safe range).
fn from_raw<S: Testable>(raw: i128) -> S {
    S::from_raw(raw as u128)
}

/// `p + (q − p)·k/2^shift` of fixed-point values, rounded down: exact
/// integer arithmetic on the raw values.
fn lerp_raw<S: Testable>(p: S, q: S, k: i32, shift: u32) -> S {
    from_raw(raw(p) + (((raw(q) - raw(p)) * i128::from(k)) >> shift))
}

/// A distance a scene is placed at: in `f64` for floats (as their streams
/// always were), and from geom's own fixed-point queries for fixed point,
/// whose arithmetic is integer on every target.
#[derive(Clone, Copy)]
enum Gap<S> {
    Float(f64),
    Fixed(S),
}

/// A segment between two points anywhere within three times the safe
/// range, its ends clamped into it (for a fixed-point [`Gap`]).
fn clamped_segment<S: Testable>(a: Vec2<S>, b: Vec2<S>) -> Segment<S> {
    Segment::new(clamp_point(a), clamp_point(b)).expect("clamped into the safe range")
}

/// The distance from `p` to the segment `a`–`b`.
fn gap_point_segment<S: Testable>(p: Vec2<S>, a: Vec2<S>, b: Vec2<S>) -> Gap<S> {
    if fixed::<S>() {
        Gap::Fixed(distance_point_segment(clamp_point(p), &clamped_segment(a, b)))
    } else {
        Gap::Float(distance_f64(f64_point(p), f64_point(a), f64_point(b)))
    }
}

/// The distance between fixed-point segments `a0`–`a1` and `b0`–`b1`,
/// their ends clamped into the safe range.
fn fixed_segments_distance<S: Testable>(a0: Vec2<S>, a1: Vec2<S>, b0: Vec2<S>, b1: Vec2<S>) -> S {
    closest_points_segment_segment(&clamped_segment(a0, a1), &clamped_segment(b0, b1)).distance
}

/// The distance between segments `a0`–`a1` and `b0`–`b1`.
fn gap_segments<S: Testable>(a0: Vec2<S>, a1: Vec2<S>, b0: Vec2<S>, b1: Vec2<S>) -> Gap<S> {
    if fixed::<S>() {
        Gap::Fixed(fixed_segments_distance(a0, a1, b0, b1))
    } else {
        Gap::Float(segment_distance_f64(f64_point(a0), f64_point(a1), f64_point(b0), f64_point(b1)))
    }
}

/// The closest approach of core `a0`–`a1` moving by `ma` to core `b0`–`b1`
/// moving by `mb` (see [`path_distance_f64`]).
fn gap_path<S: Testable>(a: &Segment<S>, ma: Vec2<S>, b: &Segment<S>, mb: Vec2<S>) -> Gap<S> {
    let (a0, a1, b0, b1) = (a.start(), a.end(), b.start(), b.end());
    if fixed::<S>() {
        // Within three times the safe range: no overflow.
        let d = ma - mb;
        let paths = [
            fixed_segments_distance(a0, a0 + d, b0, b1),
            fixed_segments_distance(a1, a1 + d, b0, b1),
            fixed_segments_distance(b0, b0 - d, a0, a1),
            fixed_segments_distance(b1, b1 - d, a0, a1),
        ];
        let at_start = fixed_segments_distance(a0, a1, b0, b1);
        Gap::Fixed(paths.into_iter().fold(at_start, |m, v| if v < m { v } else { m }))
    } else {
        let d = (ma.x.to_f64() - mb.x.to_f64(), ma.y.to_f64() - mb.y.to_f64());
        Gap::Float(path_distance_f64(f64_point(a0), f64_point(a1), d, f64_point(b0), f64_point(b1)))
    }
}

/// The distance from the path of `c` moving by `m` to the segment `a`–`b`.
fn gap_sweep<S: Testable>(c: Vec2<S>, m: Vec2<S>, a: Vec2<S>, b: Vec2<S>) -> Gap<S> {
    if fixed::<S>() {
        gap_segments(c, c + m, a, b)
    } else {
        let end = (c.x.to_f64() + m.x.to_f64(), c.y.to_f64() + m.y.to_f64());
        Gap::Float(segment_distance_f64(f64_point(c), end, f64_point(a), f64_point(b)))
    }
}

/// The distance from `p` to the path of `a` moving by `ma − mb`.
fn gap_relative_path<S: Testable>(p: Vec2<S>, a: Vec2<S>, ma: Vec2<S>, mb: Vec2<S>) -> Gap<S> {
    if fixed::<S>() {
        gap_point_segment(p, a, a + ma - mb)
    } else {
        let start = f64_point(a);
        let end = (start.0 + ma.x.to_f64() - mb.x.to_f64(), start.1 + ma.y.to_f64() - mb.y.to_f64());
        Gap::Float(distance_f64(f64_point(p), start, end))
    }
}

/// The distance from `p` to the segment `a`–`b`, in `f64` (for placing
/// scenes near touching; the answers come from geom).
fn distance_f64(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
    length(p.0 - (a.0 + t * dx), p.1 - (a.1 + t * dy))
}

/// `√(x² + y²)`, correctly rounded at each step, unlike `f64::hypot`,
/// which calls the platform's maths library (no overflow here: the scenes
/// are within `2^240`).
fn length(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

/// The closest approach of core `a0`–`a1` moving by `d` to the static core
/// `b0`–`b1`, in `f64`: the least of the distance at the start and the four
/// end-point paths (each end of one core against the other).
fn path_distance_f64(a0: (f64, f64), a1: (f64, f64), d: (f64, f64), b0: (f64, f64), b1: (f64, f64)) -> f64 {
    let ahead = |p: (f64, f64), k: f64| (p.0 + k * d.0, p.1 + k * d.1);
    [
        segment_distance_f64(a0, a1, b0, b1),
        segment_distance_f64(a0, ahead(a0, 1.0), b0, b1),
        segment_distance_f64(a1, ahead(a1, 1.0), b0, b1),
        segment_distance_f64(b0, ahead(b0, -1.0), a0, a1),
        segment_distance_f64(b1, ahead(b1, -1.0), a0, a1),
    ]
    .into_iter()
    .fold(f64::INFINITY, f64::min)
}

/// The distance between segments `a0`–`a1` and `b0`–`b1`, in `f64`: the
/// nearest of the four end-point distances, or zero when they cross.
fn segment_distance_f64(a0: (f64, f64), a1: (f64, f64), b0: (f64, f64), b1: (f64, f64)) -> f64 {
    let cross = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0);
    let (d1, d2) = (cross(a0, a1, b0), cross(a0, a1, b1));
    let (d3, d4) = (cross(b0, b1, a0), cross(b0, b1, a1));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    [distance_f64(a0, b0, b1), distance_f64(a1, b0, b1), distance_f64(b0, a0, a1), distance_f64(b1, a0, a1)]
        .into_iter()
        .fold(f64::INFINITY, f64::min)
}

impl<S: Testable> Draw<S> {
    /// One of the scales scenes are drawn at: 1, 16, 1024 or the whole
    /// safe range.
    fn scale(&mut self) -> f64 {
        let max = S::MAX_COORD.to_f64();
        [1.0, 16.0, 1024.0, max][self.rng.pick(&[1, 1, 1, 1])].min(max)
    }

    /// A value in `[-scale, scale]`: anywhere (with its lowest bits
    /// scrambled, for fixed point), or on a coarse dyadic grid where exact
    /// ties happen.
    fn coord(&mut self, scale: f64) -> S {
        if self.rng.pick(&[3, 1]) == 0 {
            let v = S::from_f64((self.rng.unit() * 2.0 - 1.0) * scale);
            clamp(if S::RELATIVE == 0.0 { v.nudge(self.rng.int(-512, 512)) } else { v })
        } else {
            S::from_f64(f64::from(self.rng.int(-64, 64)) * scale / 64.0)
        }
    }

    fn point(&mut self, scale: f64) -> Vec2<S> {
        Vec2::new(self.coord(scale), self.coord(scale))
    }

    /// A segment: general, zero-length, horizontal or vertical.
    fn segment(&mut self, scale: f64) -> Segment<S> {
        let a = self.point(scale);
        let b = match self.rng.pick(&[6, 1, 1, 1]) {
            0 => self.point(scale),
            1 => a,
            2 => Vec2::new(self.coord(scale), a.y),
            _ => Vec2::new(a.x, self.coord(scale)),
        };
        Segment::new(a, b).expect("generated in range")
    }

    /// A point anywhere, near the segment, on it (at a dyadic parameter,
    /// rounded), or on an end point.
    fn point_near(&mut self, segment: &Segment<S>, scale: f64) -> Vec2<S> {
        let (a, b) = (segment.start(), segment.end());
        // At `k/64` of the way from `a` to `b`.
        let on = |k: i32| {
            let lerp = |p: S, q: S| {
                if fixed::<S>() {
                    lerp_raw(p, q, k, 6)
                } else {
                    S::from_f64(p.to_f64() + (q.to_f64() - p.to_f64()) * (f64::from(k) / 64.0))
                }
            };
            Vec2::new(lerp(a.x, b.x), lerp(a.y, b.y))
        };
        let p = match self.rng.pick(&[3, 2, 1, 1, 1]) {
            0 => self.point(scale),
            1 => {
                let p = on(self.rng.int(0, 64));
                Vec2::new(p.x.nudge(self.rng.int(-8, 8)), p.y.nudge(self.rng.int(-8, 8)))
            }
            2 => on(self.rng.int(0, 64)),
            3 => a,
            _ => b,
        };
        clamp_point(p)
    }

    /// A radius within a few rounding steps of `gap` (mostly), or anywhere
    /// up to twice it.
    fn radius_near(&mut self, gap: Gap<S>, scale: f64) -> S {
        let clamp_radius = |r: S| if r < S::ZERO { S::ZERO } else { clamp(r) };
        let near = self.rng.pick(&[3, 1]) == 0;
        match gap {
            Gap::Float(distance) if near => clamp_radius(S::from_f64(distance).nudge(self.rng.int(-3, 3))),
            Gap::Float(distance) => clamp_radius(S::from_f64(self.rng.unit() * 2.0 * distance.max(scale / 8.0))),
            Gap::Fixed(distance) if near => clamp_radius(distance.nudge(self.rng.int(-3, 3))),
            Gap::Fixed(distance) => {
                // `scale / 8` is a power of two: exact in the type.
                let floor = S::from_f64(scale / 8.0);
                let bound = 2 * raw(if distance > floor { distance } else { floor });
                // 53 random bits times the bound, over 2^53: `unit() · bound`
                // in integers.
                let bits = i128::from(self.rng.next_u64() >> 11);
                clamp_radius(from_raw((bits * bound) >> 53))
            }
        }
    }

    /// Two radii summing exactly to `reach` (within a rounding for floats).
    fn split(&mut self, reach: S) -> (S, S) {
        let k = self.rng.int(0, 8);
        let first = if fixed::<S>() {
            lerp_raw(S::ZERO, reach, k, 3)
        } else {
            S::from_f64(reach.to_f64() * f64::from(k) / 8.0)
        };
        let first = if first > reach { reach } else { first };
        (first, reach - first)
    }

    /// A motion for a body at `c`: anywhere, to a point near `segment`,
    /// along it, or none.
    fn motion(&mut self, c: Vec2<S>, segment: &Segment<S>, scale: f64) -> Vec2<S> {
        let (a, b) = (segment.start(), segment.end());
        let m = match self.rng.pick(&[3, 3, 1, 1]) {
            0 => self.point(scale),
            1 => {
                let target = self.point_near(segment, scale);
                if fixed::<S>() {
                    // Within twice the safe range: no overflow.
                    target - c
                } else {
                    let (target, c) = (f64_point(target), f64_point(c));
                    Vec2::new(S::from_f64(target.0 - c.0), S::from_f64(target.1 - c.1))
                }
            }
            2 => {
                let k = self.rng.int(-4, 4);
                if fixed::<S>() {
                    Vec2::new(lerp_raw(S::ZERO, b.x - a.x, k, 2), lerp_raw(S::ZERO, b.y - a.y, k, 2))
                } else {
                    let f = f64::from(k) / 4.0;
                    let (a, b) = (f64_point(a), f64_point(b));
                    Vec2::new(S::from_f64((b.0 - a.0) * f), S::from_f64((b.1 - a.1) * f))
                }
            }
            _ => Vec2::ZERO,
        };
        clamp_point(m)
    }

    /// A circle near a segment: (centre, radius, segment).
    fn circle_segment(&mut self, scale: f64) -> (Vec2<S>, S, Segment<S>) {
        let s = self.segment(scale);
        let c = self.point_near(&s, scale);
        let gap = gap_point_segment(c, s.start(), s.end());
        (c, self.radius_near(gap, scale), s)
    }

    /// Two cores, `a` heading near `b`, with their motions (`b`'s zero
    /// unless `b_moves`) and the reach of a grazing sweep between them:
    /// `(a, motion_a, b, motion_b, reach)`.
    fn moving_cores(&mut self, scale: f64, b_moves: bool) -> (Segment<S>, Vec2<S>, Segment<S>, Vec2<S>, S) {
        let b = self.segment(scale);
        let a = if self.rng.pick(&[2, 1]) == 0 {
            self.segment(scale)
        } else {
            let p = self.point_near(&b, scale);
            Segment::new(p, self.point(scale)).expect("in range")
        };
        let ma = self.motion(a.start(), &b, scale);
        let mb = if b_moves && self.rng.pick(&[1, 2]) == 1 { self.point(scale / 4.0) } else { Vec2::ZERO };
        let reach = self.radius_near(gap_path(&a, ma, &b, mb), scale);
        (a, ma, b, mb, reach)
    }

    /// The scene of `query`.
    // One short arm per query: a table, clearer whole than split up.
    #[allow(clippy::too_many_lines)]
    fn inputs(&mut self, query: Query) -> Inputs<S> {
        let scale = self.scale();
        let mut i = Inputs::default();
        match query {
            Query::ClosestPointPointSegment | Query::DistanceSquaredPointSegment | Query::DistancePointSegment => {
                let s = self.segment(scale);
                i.push_point("p", self.point_near(&s, scale));
                i.push_point("segment.start", s.start());
                i.push_point("segment.end", s.end());
            }
            Query::ClosestPointsSegmentSegment => {
                let a = self.segment(scale);
                let b = if self.rng.pick(&[1, 1]) == 0 {
                    self.segment(scale)
                } else {
                    let p = self.point_near(&a, scale);
                    Segment::new(p, self.point(scale)).expect("in range")
                };
                for (name, p) in
                    [("a.start", a.start()), ("a.end", a.end()), ("b.start", b.start()), ("b.end", b.end())]
                {
                    i.push_point(name, p);
                }
            }
            Query::IntersectsCircleSegment | Query::ContactCircleSegment => {
                let (c, r, s) = self.circle_segment(scale);
                i.push_point("circle.center", c);
                i.push_num("circle.radius", r);
                i.push_point("segment.start", s.start());
                i.push_point("segment.end", s.end());
            }
            Query::IntersectsCircleCapsule | Query::ContactCircleCapsule => {
                let (c, reach, s) = self.circle_segment(scale);
                let (rc, rs) = self.split(reach);
                i.push_point("circle.center", c);
                i.push_num("circle.radius", rc);
                i.push_point("capsule.start", s.start());
                i.push_point("capsule.end", s.end());
                i.push_num("capsule.radius", rs);
            }
            Query::IntersectsCircleCircle | Query::ContactCircleCircle => {
                let a = self.point(scale);
                let b = if self.rng.pick(&[4, 1]) == 0 { self.point(scale) } else { a };
                let reach = self.radius_near(gap_point_segment(a, b, b), scale);
                let (ra, rb) = self.split(reach);
                i.push_point("a.center", a);
                i.push_num("a.radius", ra);
                i.push_point("b.center", b);
                i.push_num("b.radius", rb);
            }
            Query::IntersectsCapsuleCapsule | Query::ContactCapsuleCapsule => {
                let a = self.segment(scale);
                let b = if self.rng.pick(&[1, 1]) == 0 {
                    self.segment(scale)
                } else {
                    let p = self.point_near(&a, scale);
                    Segment::new(p, self.point(scale)).expect("in range")
                };
                let reach = self.radius_near(gap_segments(a.start(), a.end(), b.start(), b.end()), scale);
                let (ra, rb) = self.split(reach);
                i.push_point("a.start", a.start());
                i.push_point("a.end", a.end());
                i.push_num("a.radius", ra);
                i.push_point("b.start", b.start());
                i.push_point("b.end", b.end());
                i.push_num("b.radius", rb);
            }
            Query::SweepCircleSegment | Query::SweepCircleCapsule | Query::SweepCapsuleCircle => {
                let s = self.segment(scale);
                let c = self.point_near(&s, scale);
                let m = self.motion(c, &s, scale);
                let reach = self.radius_near(gap_sweep(c, m, s.start(), s.end()), scale);
                match query {
                    Query::SweepCircleSegment => {
                        i.push_point("circle.center", c);
                        i.push_num("circle.radius", reach);
                        i.push_point("motion", m);
                        i.push_point("segment.start", s.start());
                        i.push_point("segment.end", s.end());
                    }
                    Query::SweepCircleCapsule => {
                        let (rc, rs) = self.split(reach);
                        i.push_point("circle.center", c);
                        i.push_num("circle.radius", rc);
                        i.push_point("motion", m);
                        i.push_point("capsule.start", s.start());
                        i.push_point("capsule.end", s.end());
                        i.push_num("capsule.radius", rs);
                    }
                    _ => {
                        // The capsule moves against the circle: the same
                        // scene, seen from the other side.
                        let (rc, rs) = self.split(reach);
                        i.push_point("capsule.start", s.start());
                        i.push_point("capsule.end", s.end());
                        i.push_num("capsule.radius", rs);
                        i.push_point("motion", clamp_point(-m));
                        i.push_point("circle.center", c);
                        i.push_num("circle.radius", rc);
                    }
                }
            }
            Query::SweepCircleCircle => {
                let a = self.point(scale);
                let b = self.point(scale);
                let ma = self.motion(a, &Segment::new(b, b).expect("in range"), scale);
                let mb = self.point(scale / 4.0);
                let reach = self.radius_near(gap_relative_path(b, a, ma, mb), scale);
                let (ra, rb) = self.split(reach);
                i.push_point("a.center", a);
                i.push_num("a.radius", ra);
                i.push_point("a.motion", ma);
                i.push_point("b.center", b);
                i.push_num("b.radius", rb);
                i.push_point("b.motion", mb);
            }
            Query::SweepCapsuleSegment => {
                let (a, m, b, _, reach) = self.moving_cores(scale, false);
                i.push_point("capsule.start", a.start());
                i.push_point("capsule.end", a.end());
                i.push_num("capsule.radius", reach);
                i.push_point("motion", m);
                i.push_point("segment.start", b.start());
                i.push_point("segment.end", b.end());
            }
            Query::SweepCapsuleCapsule => {
                let (a, ma, b, mb, reach) = self.moving_cores(scale, true);
                let (ra, rb) = self.split(reach);
                for (name, p) in [("a.start", a.start()), ("a.end", a.end())] {
                    i.push_point(name, p);
                }
                i.push_num("a.radius", ra);
                i.push_point("a.motion", ma);
                for (name, p) in [("b.start", b.start()), ("b.end", b.end())] {
                    i.push_point(name, p);
                }
                i.push_num("b.radius", rb);
                i.push_point("b.motion", mb);
            }
            Query::SweepSegmentSegment => {
                let (a, ma, b, mb, _) = self.moving_cores(scale, true);
                let points = [a.start(), a.end(), ma, b.start(), b.end(), mb];
                for (&name, p) in Inputs::<S>::names(query).iter().zip(points) {
                    i.push_point(name, p);
                }
            }
        }
        i
    }
}

/// The scenes of `query`'s stream for scalar type `S`, from the first.
///
/// # Examples
///
/// ```
/// use geom_test::golden::stream::{Query, cases};
///
/// let first: Vec<_> = cases::<f32>(Query::ContactCircleCircle).take(3).collect();
/// assert_eq!(first, cases::<f32>(Query::ContactCircleCircle).take(3).collect::<Vec<_>>());
/// assert_eq!(first[0].values.len(), 4);
/// ```
pub fn cases<S: Testable>(query: Query) -> impl Iterator<Item = Inputs<S>> {
    let mut draw = Draw::<S> { rng: SplitMix(query.seed()), _type: PhantomData };
    std::iter::repeat_with(move || draw.inputs(query))
}

fn contact<S: Testable>(out: &mut impl Sink<S>, contact: Option<Contact<S>>) {
    match contact {
        None => out.tag("contact", "none"),
        Some(c) => {
            out.tag("contact", "some");
            out.point("point", c.point);
            out.point("normal", c.normal);
            out.num("depth", c.depth);
        }
    }
}

fn sweep<S: Testable>(out: &mut impl Sink<S>, sweep: Sweep<S>) {
    match sweep {
        Sweep::Miss => out.tag("outcome", "miss"),
        Sweep::InContact { contact: c, blocked } => {
            out.tag("outcome", "in_contact");
            out.flag("blocked", blocked);
            out.point("point", c.point);
            out.point("normal", c.normal);
            out.num("depth", c.depth);
        }
        Sweep::Hit(i) => {
            out.tag("outcome", "hit");
            out.num("t", i.t);
            out.point("normal", i.normal);
            out.point("point", i.point);
            out.point("travel_a", i.travel_a);
            out.point("travel_b", i.travel_b);
        }
    }
}

/// Runs `query` on a case and writes every output value to `out`, with
/// the outcome first where there are several.
///
/// # Examples
///
/// ```
/// use geom_test::golden::stream::{Query, Sink, cases, evaluate};
///
/// /// Counts what a case writes.
/// #[derive(Default)]
/// struct Count(usize);
/// impl Sink<f64> for Count {
///     fn num(&mut self, _: &'static str, _: f64) { self.0 += 1 }
///     fn wide(&mut self, _: &'static str, _: f64) { self.0 += 1 }
///     fn flag(&mut self, _: &'static str, _: bool) { self.0 += 1 }
///     fn tag(&mut self, _: &'static str, _: &'static str) { self.0 += 1 }
/// }
///
/// let case = cases::<f64>(Query::ClosestPointPointSegment).next().unwrap();
/// let mut count = Count::default();
/// evaluate(Query::ClosestPointPointSegment, &case, &mut count);
/// assert_eq!(count.0, 4); // point (2), t, feature
/// ```
// One short arm per query: a table, clearer whole than split up.
#[allow(clippy::too_many_lines)]
pub fn evaluate<S: Testable>(query: Query, i: &Inputs<S>, out: &mut impl Sink<S>) {
    let feature = |f: SegmentFeature| match f {
        SegmentFeature::Start => "start",
        SegmentFeature::Interior => "interior",
        SegmentFeature::End => "end",
    };
    match query {
        Query::ClosestPointPointSegment => {
            let c = closest_point_point_segment(i.point("p"), &i.segment("segment.start", "segment.end"));
            out.point("point", c.point);
            out.num("t", c.t);
            out.tag("feature", feature(c.feature));
        }
        Query::ClosestPointsSegmentSegment => {
            let c = closest_points_segment_segment(&i.segment("a.start", "a.end"), &i.segment("b.start", "b.end"));
            out.point("a", c.a);
            out.point("b", c.b);
            out.num("distance", c.distance);
        }
        Query::DistanceSquaredPointSegment => {
            out.wide(
                "distance_squared",
                distance_squared_point_segment(i.point("p"), &i.segment("segment.start", "segment.end")),
            );
        }
        Query::DistancePointSegment => {
            out.num("distance", distance_point_segment(i.point("p"), &i.segment("segment.start", "segment.end")));
        }
        Query::IntersectsCircleSegment => out.flag(
            "intersects",
            intersects_circle_segment(
                &i.circle("circle.center", "circle.radius"),
                &i.segment("segment.start", "segment.end"),
            ),
        ),
        Query::IntersectsCircleCapsule => out.flag(
            "intersects",
            intersects_circle_capsule(
                &i.circle("circle.center", "circle.radius"),
                &i.capsule("capsule.start", "capsule.end", "capsule.radius"),
            ),
        ),
        Query::IntersectsCircleCircle => out.flag(
            "intersects",
            intersects_circle_circle(&i.circle("a.center", "a.radius"), &i.circle("b.center", "b.radius")),
        ),
        Query::IntersectsCapsuleCapsule => out.flag(
            "intersects",
            intersects_capsule_capsule(
                &i.capsule("a.start", "a.end", "a.radius"),
                &i.capsule("b.start", "b.end", "b.radius"),
            ),
        ),
        Query::ContactCircleSegment => contact(
            out,
            contact_circle_segment(
                &i.circle("circle.center", "circle.radius"),
                &i.segment("segment.start", "segment.end"),
            ),
        ),
        Query::ContactCircleCapsule => contact(
            out,
            contact_circle_capsule(
                &i.circle("circle.center", "circle.radius"),
                &i.capsule("capsule.start", "capsule.end", "capsule.radius"),
            ),
        ),
        Query::ContactCircleCircle => {
            contact(out, contact_circle_circle(&i.circle("a.center", "a.radius"), &i.circle("b.center", "b.radius")));
        }
        Query::ContactCapsuleCapsule => contact(
            out,
            contact_capsule_capsule(
                &i.capsule("a.start", "a.end", "a.radius"),
                &i.capsule("b.start", "b.end", "b.radius"),
            ),
        ),
        Query::SweepCircleSegment => sweep(
            out,
            sweep_circle_segment(
                &i.circle("circle.center", "circle.radius"),
                i.point("motion"),
                &i.segment("segment.start", "segment.end"),
            ),
        ),
        Query::SweepCircleCapsule => sweep(
            out,
            sweep_circle_capsule(
                &i.circle("circle.center", "circle.radius"),
                i.point("motion"),
                &i.capsule("capsule.start", "capsule.end", "capsule.radius"),
            ),
        ),
        Query::SweepCircleCircle => sweep(
            out,
            sweep_circle_circle(
                &i.circle("a.center", "a.radius"),
                i.point("a.motion"),
                &i.circle("b.center", "b.radius"),
                i.point("b.motion"),
            ),
        ),
        Query::SweepCapsuleCircle => sweep(
            out,
            sweep_capsule_circle(
                &i.capsule("capsule.start", "capsule.end", "capsule.radius"),
                i.point("motion"),
                &i.circle("circle.center", "circle.radius"),
            ),
        ),
        Query::SweepCapsuleSegment => sweep(
            out,
            sweep_capsule_segment(
                &i.capsule("capsule.start", "capsule.end", "capsule.radius"),
                i.point("motion"),
                &i.segment("segment.start", "segment.end"),
            ),
        ),
        Query::SweepCapsuleCapsule => sweep(
            out,
            sweep_capsule_capsule(
                &i.capsule("a.start", "a.end", "a.radius"),
                i.point("a.motion"),
                &i.capsule("b.start", "b.end", "b.radius"),
                i.point("b.motion"),
            ),
        ),
        Query::SweepSegmentSegment => sweep(
            out,
            sweep_segment_segment(
                &i.segment("a.start", "a.end"),
                i.point("a.motion"),
                &i.segment("b.start", "b.end"),
                i.point("b.motion"),
            ),
        ),
    }
}

/// A [`Sink`] that hashes every output bit, little-endian, with `seahash`:
/// scalars by their bit patterns at their width, yes/no as a byte, tags by
/// their bytes and length.
#[derive(Default)]
pub struct Digest(seahash::SeaHasher);

impl Digest {
    /// The digest so far.
    ///
    /// See [`digest`] for an example.
    #[must_use]
    pub fn finish(&self) -> u64 {
        std::hash::Hasher::finish(&self.0)
    }

    fn bits(&mut self, bits: u128, width: u32) {
        let bytes = bits.to_le_bytes();
        let n = usize::try_from(width / 8).expect("a small width");
        std::hash::Hasher::write(&mut self.0, &bytes[..n]);
    }
}

impl<S: Testable> Sink<S> for Digest {
    fn num(&mut self, _: &'static str, v: S) {
        self.bits(v.to_raw(), S::BITS.0);
    }

    fn wide(&mut self, _: &'static str, v: S::Wide) {
        self.bits(S::wide_to_raw(v), S::BITS.1);
    }

    fn flag(&mut self, _: &'static str, v: bool) {
        std::hash::Hasher::write_u8(&mut self.0, u8::from(v));
    }

    fn tag(&mut self, _: &'static str, v: &'static str) {
        std::hash::Hasher::write_u64(&mut self.0, v.len() as u64);
        std::hash::Hasher::write(&mut self.0, v.as_bytes());
    }
}

/// The digest of the first `cases` answers of `query`'s stream in `S`.
///
/// # Examples
///
/// ```
/// use geom_test::golden::stream::{Query, digest};
///
/// let a = digest::<fixed::types::I16F16>(Query::SweepCircleSegment, 100);
/// assert_eq!(a, digest::<fixed::types::I16F16>(Query::SweepCircleSegment, 100));
/// assert_ne!(a, digest::<fixed::types::I16F16>(Query::SweepCircleSegment, 101));
/// ```
#[must_use]
pub fn digest<S: Testable>(query: Query, cases: usize) -> u64 {
    let mut out = Digest::default();
    for case in self::cases::<S>(query).take(cases) {
        evaluate(query, &case, &mut out);
    }
    out.finish()
}
