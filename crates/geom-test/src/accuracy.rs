//! Measured accuracy against the exact oracle, for `cargo xtask accuracy`.
//!
//! Each measurement draws a fixed, seeded stream of scenes from the
//! [`strategy`] module (the same awkward cases the
//! property tests use) and compares every answer with the oracle.
//!
//! Errors in lengths (points, distances, depths) are counted in rounding
//! steps of the type at the scene's scale — one `2^-F` for fixed point, one
//! `f64`/`f32` epsilon times the largest coordinate for floats — so one
//! number reads the same way for every type. Normal errors are the length
//! of the difference of unit vectors.

use geom_core::{
    Capsule, Circle, Contact, Impact, Segment, SegmentFeature, Sweep, Vec2, closest_point_point_segment,
    closest_points_segment_segment, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_segment, distance_point_segment, distance_squared_point_segment, intersects_capsule_capsule,
    intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment, sweep_capsule_capsule,
    sweep_capsule_circle, sweep_capsule_segment, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
    sweep_segment_segment,
};
use num_traits::{One, Signed, Zero};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::golden::stream::Query;
use crate::oracle::{self, FirstTouch, Q, QVec};
use crate::{Testable, qvec, rational_to_f64, strategy};

/// The seed of the static queries' and the circle sweeps' scene streams.
const SEED: [u8; 32] = *b"geom accuracy: a fixed seed 0001";

/// The seed of the capsule and segment sweeps' scene streams: a stream of
/// their own, so that however many scenes are measured, the first `n` of
/// every query are the same (a test holding the first 250 holds the very
/// scenes a 20 000-scene run began with).
const CAPSULE_SWEEPS_SEED: [u8; 32] = *b"geom accuracy: capsule sweeps 01";

/// A deterministic runner for drawing scenes from `seed`.
fn runner_from(seed: &[u8; 32]) -> TestRunner {
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, seed))
}

/// What one swept query did over a stream of scenes, against the oracle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepAccuracy {
    /// Scenes measured.
    pub cases: usize,
    /// Scenes whose outcome (miss, in contact, hit) differs from the
    /// oracle's.
    pub outcome_disagreements: usize,
    /// Of those, the scenes that are not near-ties: the path's closest
    /// approach, and its start, are more than 16 rounding steps from
    /// touching.
    pub clear_disagreements: usize,
    /// Hits, by both the query and the oracle.
    pub hits: usize,
    /// The largest `t_true − t` over hits (positive: early).
    pub max_early: f64,
    /// The largest `t − t_true` over hits (positive: late).
    pub max_late: f64,
    /// The largest `|t − t_true|` over direct hits: shapes starting more
    /// than 16 rounding steps apart at the scene's scale, and a motion
    /// spanning at least 2^20 of them with at least a tenth of it along the
    /// impact normal. (Near a graze, or for a motion of a few rounding
    /// steps, one step in space is a long way in time; and a start within
    /// rounding of the obstacle is a near-tie, where a float's side of the
    /// obstacle, and so its normal, is not known.)
    pub max_direct_error: f64,
    /// The largest overlap of the shapes moved by their travels, in units of the
    /// type's rounding step at the scene's scale (0 when they never overlap).
    pub max_overlap_steps: f64,
    /// The largest gap between the shapes moved by their travels, in units of the
    /// finest placement the types allows: a rounding step at the scene's
    /// scale plus the distance the motion covers in one step of `t`. (Near a
    /// grazing approach a small gap is a long time early, so the time error
    /// alone says little.)
    pub max_gap_resolutions: f64,
}

impl SweepAccuracy {
    /// Records one scene: the query's outcome and the scene in the oracle's
    /// terms (`a` moving relative to `b`: the shapes moved by an impact's
    /// travels are `a` moved by `travel_a − travel_b`).
    fn record<S: Testable>(&mut self, outcome: Sweep<S>, scene: &SweepScene) {
        self.cases += 1;
        let exact =
            oracle::first_touch_cores(&scene.a0, &scene.a1, &scene.relative, &scene.b0, &scene.b1, &scene.reach);
        match (outcome, exact) {
            (Sweep::Miss, FirstTouch::Never) | (Sweep::InContact { .. }, FirstTouch::AtStart) => {}
            (Sweep::Hit(impact), FirstTouch::At(t_true)) => {
                self.hits += 1;
                let t = impact.t.to_f64();
                self.max_early = self.max_early.max(t_true - t);
                self.max_late = self.max_late.max(t - t_true);
                let (mx, my) = scene.relative.to_f64();
                let speed = mx.hypot(my);
                let along_normal = -(mx * impact.normal.x.to_f64() + my * impact.normal.y.to_f64());
                let step = S::tolerance(scene.scale, 1.0);
                let start_gap = oracle::gap(
                    &oracle::dist2_segment_segment(&scene.a0, &scene.a1, &scene.b0, &scene.b1),
                    &scene.reach,
                );
                let clear = start_gap > S::tolerance(scene.scale, 16.0);
                if clear && speed >= step * f64::from(1 << 20) && along_normal >= 0.1 * speed {
                    self.max_direct_error = self.max_direct_error.max((t - t_true).abs());
                }
                let resolution = step + speed * (S::STEP + S::RELATIVE);
                let gap = scene.gap_at(&qvec(impact.travel_a).sub(&qvec(impact.travel_b)));
                self.max_overlap_steps = self.max_overlap_steps.max(-gap / step);
                self.max_gap_resolutions = self.max_gap_resolutions.max(gap / resolution);
            }
            _ => {
                self.outcome_disagreements += 1;
                let closest = oracle::path_dist2_cores(&scene.a0, &scene.a1, &scene.relative, &scene.b0, &scene.b1);
                let at_start = oracle::dist2_segment_segment(&scene.a0, &scene.a1, &scene.b0, &scene.b1);
                let near = |d2: &Q| oracle::gap(d2, &scene.reach).abs() <= S::tolerance(scene.scale, 16.0);
                if !near(&closest) && !near(&at_start) {
                    self.clear_disagreements += 1;
                }
            }
        }
    }
}

/// A swept scene in the oracle's terms: core `a0`–`a1` (a point, for a
/// circle) moving by `relative` against the static core `b0`–`b1`, the two
/// radii summed in `reach`.
struct SweepScene {
    a0: QVec,
    a1: QVec,
    relative: QVec,
    b0: QVec,
    b1: QVec,
    reach: Q,
    scale: f64,
}

impl SweepScene {
    /// Core `a` moving by `ma` against core `b` moving by `mb`.
    fn new<S: Testable>(a: [Vec2<S>; 2], ma: Vec2<S>, b: [Vec2<S>; 2], mb: Vec2<S>, reach: Q) -> Self {
        let scale = scale_of(&[a[0], a[1], ma, b[0], b[1], mb]);
        let (a0, a1, b0, b1) = (qvec(a[0]), qvec(a[1]), qvec(b[0]), qvec(b[1]));
        Self { a0, a1, relative: qvec(ma).sub(&qvec(mb)), b0, b1, reach, scale }
    }

    /// The gap (negative: overlap) with `a` moved by `offset` relative to `b`.
    fn gap_at(&self, offset: &QVec) -> f64 {
        let d2 = oracle::dist2_segment_segment(&self.a0.add(offset), &self.a1.add(offset), &self.b0, &self.b1);
        oracle::gap(&d2, &self.reach)
    }
}

fn scale_of<S: Testable>(points: &[Vec2<S>]) -> f64 {
    points.iter().flat_map(|p| [p.x.to_f64().abs(), p.y.to_f64().abs()]).fold(1.0, f64::max)
}

/// The sweeps measured, in the order of the sweeps in
/// [`Query::ALL`](crate::golden::stream::Query::ALL).
pub const SWEEPS: usize = 7;

/// Measures every sweep (`sweep_circle_segment`, `sweep_circle_capsule`,
/// `sweep_circle_circle`, `sweep_capsule_circle`, `sweep_capsule_segment`,
/// `sweep_capsule_capsule` and `sweep_segment_segment`) for `S` over
/// `cases` scenes each.
///
/// # Examples
///
/// ```
/// let sweeps = geom_test::accuracy::sweeps::<fixed::types::I16F16>(50);
/// assert_eq!(sweeps[0].cases, 50);
/// let disagreements = sweeps.iter().map(|a| a.outcome_disagreements).sum::<usize>();
/// assert_eq!(disagreements, 0);
/// ```
pub fn sweeps<S: Testable>(cases: usize) -> [SweepAccuracy; SWEEPS] {
    let mut runner = runner_from(&SEED);
    let mut results: [SweepAccuracy; SWEEPS] = Default::default();
    let point = |p: Vec2<S>| [p, p];
    let core = |s: Segment<S>| [s.start(), s.end()];
    let segments = strategy::sweep_circle_segment::<S>();
    let capsules = strategy::sweep_circle_capsule::<S>();
    let pairs = strategy::sweep_circle_circle::<S>();
    for _ in 0..cases {
        let (c, m, s) = segments.new_tree(&mut runner).expect("a scene").current();
        let scene = SweepScene::new(point(c.center()), m, core(s), Vec2::ZERO, c.radius().to_rational());
        results[0].record(sweep_circle_segment(&c, m, &s), &scene);

        let (c, m, k) = capsules.new_tree(&mut runner).expect("a scene").current();
        let reach = c.radius().to_rational() + k.radius().to_rational();
        let scene = SweepScene::new(point(c.center()), m, core(k.segment()), Vec2::ZERO, reach);
        results[1].record(sweep_circle_capsule(&c, m, &k), &scene);
        // The same scene with the capsule moving instead: the circle's
        // motion relative to it is still `m`; the normal points the other
        // way (from the circle to the capsule), and the travels swap.
        let flipped = match sweep_capsule_circle(&k, -m, &c) {
            Sweep::Hit(i) => Sweep::Hit(Impact { normal: -i.normal, travel_a: i.travel_b, travel_b: i.travel_a, ..i }),
            other => other,
        };
        results[3].record(flipped, &scene);

        let (a, ma, b, mb) = pairs.new_tree(&mut runner).expect("a scene").current();
        let reach = a.radius().to_rational() + b.radius().to_rational();
        let scene = SweepScene::new(point(a.center()), ma, point(b.center()), mb, reach);
        results[2].record(sweep_circle_circle(&a, ma, &b, mb), &scene);
    }
    let mut runner = runner_from(&CAPSULE_SWEEPS_SEED);
    let walls = strategy::sweep_capsule_segment::<S>();
    let capsule_pairs = strategy::sweep_capsule_capsule::<S>();
    let segment_pairs = strategy::sweep_segment_segment::<S>();
    for _ in 0..cases {
        let (k, m, s) = walls.new_tree(&mut runner).expect("a scene").current();
        let scene = SweepScene::new(core(k.segment()), m, core(s), Vec2::ZERO, k.radius().to_rational());
        results[4].record(sweep_capsule_segment(&k, m, &s), &scene);

        let (a, ma, b, mb) = capsule_pairs.new_tree(&mut runner).expect("a scene").current();
        let reach = a.radius().to_rational() + b.radius().to_rational();
        let scene = SweepScene::new(core(a.segment()), ma, core(b.segment()), mb, reach);
        results[5].record(sweep_capsule_capsule(&a, ma, &b, mb), &scene);

        let (a, ma, b, mb) = segment_pairs.new_tree(&mut runner).expect("a scene").current();
        let scene = SweepScene::new(core(a), ma, core(b), mb, Q::zero());
        results[6].record(sweep_segment_segment(&a, ma, &b, mb), &scene);
    }
    results
}

/// What one query did over a stream of scenes, against the oracle: the
/// summary `cargo xtask accuracy` prints for every query.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryAccuracy {
    /// Scenes measured.
    pub cases: usize,
    /// Yes/no answers that differ from the oracle's: intersects or not,
    /// contact or not, which feature of a segment is closest, a sweep's
    /// outcome.
    pub disagreements: usize,
    /// Of those, the ones that are not near-ties (more than 16 rounding
    /// steps from the boundary between the answers).
    pub clear_disagreements: usize,
    /// The largest error in a length computed directly (a closest point on
    /// a segment, a distance, a depth), in rounding steps at the scene's
    /// scale; `None` when the query returns none.
    pub max_length_error: Option<f64>,
    /// The largest error in a contact point, in rounding steps at the
    /// scene's scale: `b`'s closest core point plus `b`'s radius along the
    /// exact normal, each rounded once.
    pub max_point_error: Option<f64>,
    /// The largest error in a unit normal, where the direction is defined
    /// by more than rounding (the shapes' cores more than 16 rounding steps
    /// apart); `None` when the query returns none (or, for sweeps, is not
    /// measured).
    pub max_normal_error: Option<f64>,
    /// Normals pointing away from the exact direction (a negative dot
    /// product), at any distance above zero: when the cores are within
    /// rounding of touching, floats may pick the wrong side.
    pub wrong_way_normals: Option<usize>,
    /// The largest error in a time of impact on direct hits (see
    /// [`SweepAccuracy::max_direct_error`]); `None` for static queries.
    pub max_t_error: Option<f64>,
}

impl QueryAccuracy {
    fn answer(&mut self, agrees: bool, near_tie: bool) {
        if !agrees {
            self.disagreements += 1;
            if !near_tie {
                self.clear_disagreements += 1;
            }
        }
    }

    fn length(&mut self, error: f64, step: f64) {
        let steps = error / step;
        self.max_length_error = Some(self.max_length_error.map_or(steps, |m| m.max(steps)));
    }

    fn point(&mut self, error: f64, step: f64) {
        let steps = error / step;
        self.max_point_error = Some(self.max_point_error.map_or(steps, |m| m.max(steps)));
    }

    fn normal(&mut self, error: f64) {
        self.max_normal_error = Some(self.max_normal_error.map_or(error, |m| m.max(error)));
    }

    fn normal_side(&mut self, wrong_way: bool) {
        *self.wrong_way_normals.get_or_insert(0) += usize::from(wrong_way);
    }
}

impl From<&SweepAccuracy> for QueryAccuracy {
    fn from(a: &SweepAccuracy) -> Self {
        Self {
            cases: a.cases,
            disagreements: a.outcome_disagreements,
            clear_disagreements: a.clear_disagreements,
            max_length_error: None,
            max_point_error: None,
            max_normal_error: None,
            wrong_way_normals: None,
            max_t_error: Some(a.max_direct_error),
        }
    }
}

/// The distance between a point of `S` and an exact point, as `f64`.
fn off<S: Testable>(p: Vec2<S>, exact: &QVec) -> f64 {
    oracle::sqrt_f64(&qvec(p).sub(exact).length_squared())
}

/// `|a − b|` as `f64`, from exact values (so that a large coordinate's
/// `f64` rounding never passes for an error).
fn error(a: &Q, b: &Q) -> f64 {
    rational_to_f64(&(a - b)).abs()
}

/// The error of a unit normal against the exact direction `d` of length
/// `length` (not zero).
fn normal_error<S: Testable>(n: Vec2<S>, d: &QVec, length: &Q) -> f64 {
    oracle::sqrt_f64(&qvec(n).sub(&d.scale(&length.recip())).length_squared())
}

/// What an exact contact looks like: `a`'s closest point on its core, `b`'s
/// on its core, and the reach (sum of radii) and `b`'s radius.
struct ExactContact {
    on_a: QVec,
    on_b: QVec,
    reach: Q,
    radius_b: Q,
    scale: f64,
    /// Capsule pairs: when the cores touch or cross, geom answers with the
    /// separating axis of least penetration (a convention checked by the
    /// property tests), not along closest points, so only the yes/no
    /// answer is measured then.
    separating_axis_when_crossing: bool,
    /// Whether the closest pair is one of many (parallel cores): any of
    /// them is right, so the point is not measured against `on_b`.
    many_closest_pairs: bool,
}

impl ExactContact {
    fn dist2(&self) -> Q {
        self.on_a.sub(&self.on_b).length_squared()
    }

    /// Compares a contact answer with the exact one.
    fn record<S: Testable>(&self, result: &mut QueryAccuracy, contact: Option<Contact<S>>) {
        let dist2 = self.dist2();
        let touching = oracle::within(&dist2, &self.reach);
        let gap = oracle::gap(&dist2, &self.reach);
        result.answer(contact.is_some() == touching, gap.abs() <= S::tolerance(self.scale, 16.0));
        let Some(c) = contact.filter(|_| touching) else { return };
        if dist2.is_zero() && self.separating_axis_when_crossing {
            return;
        }
        let step = S::tolerance(self.scale, 1.0);
        let distance = oracle::sqrt_rational(&dist2);
        result.length(error(&c.depth.to_rational(), &(&self.reach - &distance)), step);
        if distance.is_zero() {
            return; // The normal is a convention: nothing to measure it by.
        }
        let direction = self.on_a.sub(&self.on_b);
        result.normal_side(qvec(c.normal).dot(&direction).is_negative());
        if rational_to_f64(&distance) > S::tolerance(self.scale, 16.0) {
            result.normal(normal_error(c.normal, &direction, &distance));
            if !self.many_closest_pairs {
                // The point lies on b's surface, along the exact normal.
                let exact = self.on_b.add(&direction.scale(&(&self.radius_b / &distance)));
                result.point(off(c.point, &exact), step);
            }
        }
    }
}

/// The exact feature of a clamped parameter on a segment of squared length
/// `len2`.
fn exact_feature(t: &Q, len2: &Q) -> SegmentFeature {
    if len2.is_zero() || t.is_zero() {
        SegmentFeature::Start
    } else if t.is_one() {
        SegmentFeature::End
    } else {
        SegmentFeature::Interior
    }
}

/// One scene from a strategy.
fn draw<T: std::fmt::Debug>(runner: &mut TestRunner, strategy: &proptest::strategy::BoxedStrategy<T>) -> T {
    strategy.new_tree(runner).expect("a scene").current()
}

/// Measures every static query (closest points, distances, intersection
/// tests, contacts) for `S` over `cases` scenes each, in the order of
/// [`Query::ALL`](crate::golden::stream::Query::ALL).
///
/// # Examples
///
/// ```
/// let results = geom_test::accuracy::statics::<fixed::types::I16F16>(40);
/// assert_eq!(results.len(), 12);
/// assert!(results.iter().all(|(_, a)| a.cases == 40 && a.disagreements == 0));
/// ```
pub fn statics<S: Testable>(cases: usize) -> Vec<(Query, QueryAccuracy)> {
    let mut runner = runner_from(&SEED);
    let mut r: Vec<(Query, QueryAccuracy)> = Query::ALL[..12].iter().map(|q| (*q, QueryAccuracy::default())).collect();
    let point_segments = strategy::point_segment::<S>();
    let circle_segments = strategy::circle_segment::<S>();
    let circle_capsules = strategy::circle_capsule::<S>();
    let circle_pairs = strategy::circle_circle::<S>();
    let capsule_pairs = strategy::capsule_capsule::<S>();
    for _ in 0..cases {
        for (_, a) in &mut r {
            a.cases += 1;
        }
        // Closest point and distances: one scene for the three queries.
        let (p, s): (Vec2<S>, Segment<S>) = draw(&mut runner, &point_segments);
        let scale = scale_of(&[p, s.start(), s.end()]);
        let step = S::tolerance(scale, 1.0);
        let (a, b) = (qvec(s.start()), qvec(s.end()));
        let (exact, t) = oracle::closest_point_segment(&qvec(p), &a, &b);
        let distance = oracle::sqrt_rational(&qvec(p).sub(&exact).length_squared());
        let c = closest_point_point_segment(p, &s);
        r[0].1.length(off(c.point, &exact), step);
        let len = oracle::sqrt_f64(&b.sub(&a).length_squared());
        let t_f = rational_to_f64(&t);
        let near_end = (t_f * len).abs().min(((1.0 - t_f) * len).abs()) <= S::tolerance(scale, 16.0);
        r[0].1.answer(c.feature == exact_feature(&t, &b.sub(&a).length_squared()), near_end);
        // A squared distance's error, as the error of its root.
        let d2 = S::wide_to_rational(distance_squared_point_segment(p, &s));
        r[2].1.length(error(&oracle::sqrt_rational(&d2), &distance), step);
        r[3].1.length(error(&distance_point_segment(p, &s).to_rational(), &distance), step);

        // Intersection tests and contacts: circle and segment.
        let (circle, s): (Circle<S>, Segment<S>) = draw(&mut runner, &circle_segments);
        let (on_b, _) = oracle::closest_point_segment(&qvec(circle.center()), &qvec(s.start()), &qvec(s.end()));
        let exact = ExactContact {
            on_a: qvec(circle.center()),
            on_b,
            reach: circle.radius().to_rational(),
            radius_b: Q::zero(),
            scale: scale_of(&[circle.center(), s.start(), s.end()]).max(circle.radius().to_f64()),
            separating_axis_when_crossing: false,
            many_closest_pairs: false,
        };
        record_intersects::<S>(&mut r[4].1, intersects_circle_segment(&circle, &s), &exact);
        exact.record(&mut r[8].1, contact_circle_segment(&circle, &s));

        let (circle, k): (Circle<S>, Capsule<S>) = draw(&mut runner, &circle_capsules);
        let core = k.segment();
        let (on_b, _) = oracle::closest_point_segment(&qvec(circle.center()), &qvec(core.start()), &qvec(core.end()));
        let exact = ExactContact {
            on_a: qvec(circle.center()),
            on_b,
            reach: circle.radius().to_rational() + k.radius().to_rational(),
            radius_b: k.radius().to_rational(),
            scale: scale_of(&[circle.center(), core.start(), core.end()])
                .max(circle.radius().to_f64() + k.radius().to_f64()),
            separating_axis_when_crossing: false,
            many_closest_pairs: false,
        };
        record_intersects::<S>(&mut r[5].1, intersects_circle_capsule(&circle, &k), &exact);
        exact.record(&mut r[9].1, contact_circle_capsule(&circle, &k));

        let (ca, cb): (Circle<S>, Circle<S>) = draw(&mut runner, &circle_pairs);
        let exact = ExactContact {
            on_a: qvec(ca.center()),
            on_b: qvec(cb.center()),
            reach: ca.radius().to_rational() + cb.radius().to_rational(),
            radius_b: cb.radius().to_rational(),
            scale: scale_of(&[ca.center(), cb.center()]).max(ca.radius().to_f64() + cb.radius().to_f64()),
            separating_axis_when_crossing: false,
            many_closest_pairs: false,
        };
        record_intersects::<S>(&mut r[6].1, intersects_circle_circle(&ca, &cb), &exact);
        exact.record(&mut r[10].1, contact_circle_circle(&ca, &cb));

        // Capsule pairs: also the segment–segment closest points of their cores.
        let (ka, kb) = draw(&mut runner, &capsule_pairs);
        let [segments, intersects, contacts] = r.get_disjoint_mut([1, 7, 11]).expect("three distinct queries");
        capsule_pair(&ka, &kb, &mut segments.1, &mut intersects.1, &mut contacts.1);
    }
    r
}

/// Measures one pair of capsules: their cores' closest points, the
/// intersection test and the contact.
fn capsule_pair<S: Testable>(
    ka: &Capsule<S>,
    kb: &Capsule<S>,
    segments: &mut QueryAccuracy,
    intersects: &mut QueryAccuracy,
    contacts: &mut QueryAccuracy,
) {
    let (sa, sb) = (ka.segment(), kb.segment());
    let (on_a, on_b, dist2) =
        oracle::closest_pair_segment_segment(&qvec(sa.start()), &qvec(sa.end()), &qvec(sb.start()), &qvec(sb.end()));
    let scale = scale_of(&[sa.start(), sa.end(), sb.start(), sb.end()]);
    let step = S::tolerance(scale, 1.0);
    let distance = oracle::sqrt_rational(&dist2);
    let pair = closest_points_segment_segment(&sa, &sb);
    let on_segment = |p: Vec2<S>, s: &Segment<S>| {
        oracle::sqrt_f64(&oracle::dist2_point_segment(&qvec(p), &qvec(s.start()), &qvec(s.end())))
    };
    let apart = oracle::sqrt_rational(&qvec(pair.a).sub(&qvec(pair.b)).length_squared());
    let worst = [
        error(&pair.distance.to_rational(), &distance),
        error(&apart, &distance),
        on_segment(pair.a, &sa),
        on_segment(pair.b, &sb),
    ]
    .into_iter()
    .fold(0.0, f64::max);
    segments.length(worst, step);
    let exact = ExactContact {
        on_a,
        on_b,
        reach: ka.radius().to_rational() + kb.radius().to_rational(),
        radius_b: kb.radius().to_rational(),
        scale: scale.max(ka.radius().to_f64() + kb.radius().to_f64()),
        separating_axis_when_crossing: true,
        many_closest_pairs: qvec(sa.end())
            .sub(&qvec(sa.start()))
            .cross(&qvec(sb.end()).sub(&qvec(sb.start())))
            .is_zero(),
    };
    record_intersects::<S>(intersects, intersects_capsule_capsule(ka, kb), &exact);
    exact.record(contacts, contact_capsule_capsule(ka, kb));
}

fn record_intersects<S: Testable>(result: &mut QueryAccuracy, answer: bool, exact: &ExactContact) {
    let dist2 = exact.dist2();
    let near = oracle::gap(&dist2, &exact.reach).abs() <= S::tolerance(exact.scale, 16.0);
    result.answer(answer == oracle::within(&dist2, &exact.reach), near);
}

/// Every query's summary for `S`, statics then sweeps, in the order of
/// [`Query::ALL`](crate::golden::stream::Query::ALL), with the sweeps'
/// details.
///
/// # Examples
///
/// ```
/// let (all, sweeps) = geom_test::accuracy::all::<f32>(20);
/// assert_eq!((all.len(), sweeps.len()), (19, 7));
/// ```
pub fn all<S: Testable>(cases: usize) -> (Vec<(Query, QueryAccuracy)>, [SweepAccuracy; SWEEPS]) {
    let mut results = statics::<S>(cases);
    let sweeps = sweeps::<S>(cases);
    results.extend(Query::ALL[12..].iter().zip(&sweeps).map(|(q, a)| (*q, QueryAccuracy::from(a))));
    (results, sweeps)
}
