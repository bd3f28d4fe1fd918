//! Measured accuracy against the exact oracle, for `cargo xtask accuracy`.
//!
//! Each measurement draws a fixed, seeded stream of scenes from the
//! [`strategy`] module (the same awkward cases the
//! property tests use) and compares every answer with the oracle.

use geom_core::{Impact, Sweep, Vec2, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::oracle::{self, FirstTouch, Q, QVec};
use crate::{Testable, qvec, strategy};

/// The seed of every measurement's scene stream.
const SEED: [u8; 32] = *b"geom accuracy: a fixed seed 0001";

/// A deterministic runner for drawing scenes.
fn runner() -> TestRunner {
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &SEED))
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
    /// The largest `|t − t_true|` over direct hits: a motion spanning at
    /// least 2^20 rounding steps at the scene's scale, with at least a tenth
    /// of it along the impact normal. (Near a graze, or for a motion of a
    /// few rounding steps, one step in space is a long way in time.)
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
    /// Records one scene: the query's outcome, the scene in the oracle's
    /// terms, and the gap of the shapes moved by an impact's travels.
    fn record<S: Testable>(&mut self, outcome: Sweep<S>, scene: &SweepScene, moved_gap: impl Fn(&Impact<S>) -> f64) {
        self.cases += 1;
        let exact = oracle::first_touch(&scene.start, &scene.relative, &scene.a, &scene.b, &scene.reach);
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
                if speed >= step * f64::from(1 << 20) && along_normal >= 0.1 * speed {
                    self.max_direct_error = self.max_direct_error.max((t - t_true).abs());
                }
                let resolution = step + speed * (S::STEP + S::RELATIVE);
                let gap = moved_gap(&impact);
                self.max_overlap_steps = self.max_overlap_steps.max(-gap / step);
                self.max_gap_resolutions = self.max_gap_resolutions.max(gap / resolution);
            }
            _ => {
                self.outcome_disagreements += 1;
                let end = scene.start.add(&scene.relative);
                let closest = oracle::dist2_segment_segment(&scene.start, &end, &scene.a, &scene.b);
                let at_start = oracle::dist2_point_segment(&scene.start, &scene.a, &scene.b);
                let near = |d2: &Q| oracle::gap(d2, &scene.reach).abs() <= S::tolerance(scene.scale, 16.0);
                if !near(&closest) && !near(&at_start) {
                    self.clear_disagreements += 1;
                }
            }
        }
    }
}

/// A swept scene in the oracle's terms: a point moving from `start` by
/// `relative` against the segment `a`–`b` inflated by `reach`.
struct SweepScene {
    start: QVec,
    relative: QVec,
    a: QVec,
    b: QVec,
    reach: Q,
    scale: f64,
}

impl SweepScene {
    fn new<S: Testable>(start: Vec2<S>, relative: QVec, a: Vec2<S>, b: Vec2<S>, reach: Q, scale: f64) -> Self {
        Self { start: qvec(start), relative, a: qvec(a), b: qvec(b), reach, scale }
    }

    /// The gap of a circle centred at `p` (negative: overlap).
    fn gap_at(&self, p: &QVec) -> f64 {
        oracle::gap(&oracle::dist2_point_segment(p, &self.a, &self.b), &self.reach)
    }
}

fn scale_of<S: Testable>(points: &[Vec2<S>]) -> f64 {
    points.iter().flat_map(|p| [p.x.to_f64().abs(), p.y.to_f64().abs()]).fold(1.0, f64::max)
}

/// Measures `sweep_circle_segment`, `sweep_circle_capsule` and
/// `sweep_circle_circle` for `S` over `cases` scenes each.
///
/// # Examples
///
/// ```
/// let [segment, capsule, circles] = geom_test::accuracy::sweeps::<fixed::types::I16F16>(50);
/// assert_eq!(segment.cases, 50);
/// assert_eq!(segment.outcome_disagreements + capsule.outcome_disagreements + circles.outcome_disagreements, 0);
/// assert!(segment.max_late <= 4.0 * f64::EPSILON);
/// ```
pub fn sweeps<S: Testable>(cases: usize) -> [SweepAccuracy; 3] {
    let mut runner = runner();
    let mut results: [SweepAccuracy; 3] = Default::default();
    let segments = strategy::sweep_circle_segment::<S>();
    let capsules = strategy::sweep_circle_capsule::<S>();
    let pairs = strategy::sweep_circle_circle::<S>();
    for _ in 0..cases {
        let (c, m, s) = segments.new_tree(&mut runner).expect("a scene").current();
        let scale = scale_of(&[c.center(), m, s.start(), s.end()]);
        let scene = SweepScene::new(c.center(), qvec(m), s.start(), s.end(), c.radius().to_rational(), scale);
        let gap = |i: &Impact<S>| scene.gap_at(&qvec(c.center() + i.travel_a));
        results[0].record(sweep_circle_segment(&c, m, &s), &scene, gap);

        let (c, m, k) = capsules.new_tree(&mut runner).expect("a scene").current();
        let (s, reach) = (k.segment(), c.radius().to_rational() + k.radius().to_rational());
        let scale = scale_of(&[c.center(), m, s.start(), s.end()]);
        let scene = SweepScene::new(c.center(), qvec(m), s.start(), s.end(), reach, scale);
        let gap = |i: &Impact<S>| scene.gap_at(&qvec(c.center() + i.travel_a));
        results[1].record(sweep_circle_capsule(&c, m, &k), &scene, gap);

        let (a, ma, b, mb) = pairs.new_tree(&mut runner).expect("a scene").current();
        let reach = a.radius().to_rational() + b.radius().to_rational();
        let scale = scale_of(&[a.center(), b.center(), ma, mb]);
        let relative = qvec(ma).sub(&qvec(mb));
        let scene = SweepScene::new(a.center(), relative, b.center(), b.center(), reach, scale);
        let gap = |i: &Impact<S>| {
            let apart = qvec(a.center() + i.travel_a).sub(&qvec(b.center() + i.travel_b));
            oracle::gap(&apart.length_squared(), &scene.reach)
        };
        results[2].record(sweep_circle_circle(&a, ma, &b, mb), &scene, gap);
    }
    results
}
