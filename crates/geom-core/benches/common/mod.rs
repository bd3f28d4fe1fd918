//! What the benchmarks share: a seeded generator (`f64` literals in every
//! scalar type are `Scalar::from_f64`), and the two query workloads (also read by the peer
//! comparison in `peers/`, so that geom and parry2d answer the very same
//! questions), and the world benchmarks' scenes (`world_scene`, shared with
//! the rapier2d comparison the same way).
#![allow(dead_code, unreachable_pub)]

use geom_core::{Capsule, Circle, Scalar, Segment, Vec2};

pub mod world_scene;

pub use geom_rng::SplitMix;

/// The scenes' draws beyond [`SplitMix`]'s own.
pub trait Draw {
    /// Uniform in `[lo, hi)`, on a 2^-12 grid so every type holds it exactly.
    fn range(&mut self, lo: f64, hi: f64) -> f64;
}

impl Draw for SplitMix {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        ((lo + (hi - lo) * self.unit()) * 4096.0).round() / 4096.0
    }
}

/// How many scenes a workload has.
pub const SCENES: usize = 4096;

/// The two workloads every query is measured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Shapes placed independently in a 1000 × 1000 world: few pairs touch,
    /// so the early outs dominate.
    Uniform,
    /// Every second shape placed beside the first at up to 2.5 times the
    /// touching distance, and moving circles (and capsules) aimed at the
    /// obstacle from a gap of up to 40, going up to 1.7 times as far: about
    /// half the pairs touch or hit.
    Near,
}

impl Workload {
    pub const ALL: [Self; 2] = [Self::Uniform, Self::Near];

    pub fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Near => "near",
        }
    }
}

/// One scene in `f64`: every query's operands. Segments are `[x0, y0, x1,
/// y1]`, circles `[x, y, r]`, capsules `[x0, y0, x1, y1, r]`.
#[derive(Clone, Copy, Debug)]
pub struct Raw {
    pub a: [f64; 3],
    pub b: [f64; 3],
    /// The circle the sweeps move, and its motion over one tick.
    pub mover: [f64; 3],
    pub motion: [f64; 2],
    pub segment: [f64; 4],
    pub capsule: [f64; 5],
    pub other: [f64; 5],
    /// The capsule the capsule (and segment) sweeps move by `motion`: a
    /// blade held across the motion, its core 4 to 24 long centred on the
    /// mover's centre, of radius 1 to 5.
    pub sweeper: [f64; 5],
    /// The obstacle's own motion in the sweeps where both shapes move (up
    /// to 20 each way): the sweeper then moves by `motion + drift`, so that
    /// relative to the obstacle it still moves by `motion`.
    pub drift: [f64; 2],
}

/// The workload's scenes in `f64`, on a 2^-12 grid so that every scalar
/// type holds them exactly; coordinates stay within ±600. The sweepers and
/// drifts come from a generator of their own, so that the other shapes are
/// the same as before they were added.
pub fn raw_scenes(workload: Workload) -> Vec<Raw> {
    let mut rng = SplitMix(0x6765_6f6d ^ workload as u64);
    let mut sweepers = SplitMix(0x0073_7765_6570 ^ workload as u64);
    (0..SCENES)
        .map(|_| {
            let segment = segment(&mut rng);
            let [x0, y0, x1, y1] = segment;
            let capsule = [x0, y0, x1, y1, rng.range(1.0, 5.0)];
            let r = rng.range(2.0, 10.0);
            let raw = match workload {
                Workload::Uniform => {
                    let point = |rng: &mut SplitMix| [rng.range(-500.0, 500.0), rng.range(-500.0, 500.0)];
                    let ([ax, ay], [bx, by]) = (point(&mut rng), point(&mut rng));
                    let middle = point(&mut rng);
                    let other = segment_at(&mut rng, middle);
                    Raw {
                        a: [ax, ay, r],
                        b: [bx, by, rng.range(2.0, 10.0)],
                        mover: [ax, ay, r],
                        motion: [rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)],
                        segment,
                        capsule,
                        other: [other[0], other[1], other[2], other[3], rng.range(1.0, 5.0)],
                        sweeper: [0.0; 5],
                        drift: [0.0; 2],
                    }
                }
                Workload::Near => {
                    // A point of the segment (or a little past an end), and
                    // the circle beside it, up to 2.5 times as far as it
                    // can be while touching the segment (with half the
                    // capsule's radius added).
                    let t = rng.range(-0.1, 1.1);
                    let foot = [x0 + t * (x1 - x0), y0 + t * (y1 - y0)];
                    let gap = (r + capsule[4] / 2.0) * rng.range(0.0, 2.5);
                    let [ax, ay] = beside(&mut rng, foot, gap);
                    let rb = rng.range(2.0, 10.0);
                    let gap = (r + rb) * rng.range(0.0, 2.0);
                    let [bx, by] = beside(&mut rng, [ax, ay], gap);
                    // The mover starts apart from the segment (by up to 40)
                    // beside a point of it, and aims there, going up to
                    // 1.7 times as far as the gap, give or take 1.
                    let t = rng.range(0.0, 1.0);
                    let target = [x0 + t * (x1 - x0), y0 + t * (y1 - y0)];
                    let gap = rng.range(0.5, 40.0);
                    let [mx, my] = beside(&mut rng, target, r + gap);
                    let distance = ((target[0] - mx).powi(2) + (target[1] - my).powi(2)).sqrt();
                    let k = rng.range(0.0, 1.7) * gap / distance;
                    let motion =
                        [(target[0] - mx) * k + rng.range(-1.0, 1.0), (target[1] - my) * k + rng.range(-1.0, 1.0)];
                    // The other capsule's core starts beside the first's
                    // at up to 2.5 times the touching distance and runs
                    // away from it.
                    let ro = rng.range(1.0, 5.0);
                    let gap = (capsule[4] + ro) * rng.range(0.0, 2.5);
                    let [u, w] = direction(&mut rng);
                    let start = [round(foot[0] + gap * u), round(foot[1] + gap * w)];
                    let length = rng.range(10.0, 60.0);
                    let other = [start[0], start[1], round(start[0] + length * u), round(start[1] + length * w)];
                    Raw {
                        a: [ax, ay, r],
                        b: [bx, by, rb],
                        mover: [mx, my, r],
                        motion: [round(motion[0]), round(motion[1])],
                        segment,
                        capsule,
                        other: [other[0], other[1], other[2], other[3], ro],
                        sweeper: [0.0; 5],
                        drift: [0.0; 2],
                    }
                }
            };
            let (sweeper, drift) = sweeper_and_drift(&mut sweepers, raw.mover, raw.motion);
            Raw { sweeper, drift, ..raw }
        })
        .collect()
}

/// A sweeper across `motion` (across the x axis when there is none) through
/// the centre of `mover`, and a drift.
fn sweeper_and_drift(rng: &mut SplitMix, [x, y, _]: [f64; 3], [mx, my]: [f64; 2]) -> ([f64; 5], [f64; 2]) {
    let length = (mx * mx + my * my).sqrt();
    let [ux, uy] = if length > 0.0 { [-my / length, mx / length] } else { [0.0, 1.0] };
    let (half, r) = (rng.range(2.0, 12.0), rng.range(1.0, 5.0));
    let sweeper = [round(x - half * ux), round(y - half * uy), round(x + half * ux), round(y + half * uy), r];
    (sweeper, [rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)])
}

fn round(v: f64) -> f64 {
    (v * 4096.0).round() / 4096.0
}

/// A segment 10 to 60 long in a random direction from a uniform start.
fn segment(rng: &mut SplitMix) -> [f64; 4] {
    let start = [rng.range(-500.0, 500.0), rng.range(-500.0, 500.0)];
    segment_at(rng, start)
}

/// A segment 10 to 60 long in a random direction, centred on `middle`.
fn segment_at(rng: &mut SplitMix, middle: [f64; 2]) -> [f64; 4] {
    let [ux, uy] = direction(rng);
    let half = rng.range(5.0, 30.0);
    let (dx, dy) = (half * ux, half * uy);
    [round(middle[0] - dx), round(middle[1] - dy), round(middle[0] + dx), round(middle[1] + dy)]
}

/// A point `distance` from `p` in a random direction.
fn beside(rng: &mut SplitMix, p: [f64; 2], distance: f64) -> [f64; 2] {
    let [ux, uy] = direction(rng);
    [round(p[0] + distance * ux), round(p[1] + distance * uy)]
}

/// A unit vector in a uniformly random direction (by rejection: only `+ − ×
/// ÷ √`, the same on every machine).
fn direction(rng: &mut SplitMix) -> [f64; 2] {
    loop {
        let (x, y) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let len2 = x * x + y * y;
        if len2 > 0.01 && len2 <= 1.0 {
            let len = len2.sqrt();
            return [x / len, y / len];
        }
    }
}

/// One scene in a scalar type.
pub struct Scene<S> {
    pub a: Circle<S>,
    pub b: Circle<S>,
    /// The circle the sweeps move by `motion` over one tick (against `b`,
    /// `b` moves by `-motion`).
    pub mover: Circle<S>,
    pub motion: Vec2<S>,
    pub segment: Segment<S>,
    pub capsule: Capsule<S>,
    pub other: Capsule<S>,
    /// The capsule the capsule sweeps move by `motion` against a static
    /// obstacle, or by `sweeper_motion` against one moving by `drift`.
    pub sweeper: Capsule<S>,
    pub drift: Vec2<S>,
    /// `motion + drift`.
    pub sweeper_motion: Vec2<S>,
}

/// The workload's scenes in `S`.
pub fn scenes<S: Scalar>(workload: Workload) -> Vec<Scene<S>> {
    let v = |x: f64, y: f64| Vec2::new(S::from_f64(x), S::from_f64(y));
    let circle = |[x, y, r]: [f64; 3]| Circle::new(v(x, y), S::from_f64(r)).expect("in range");
    let capsule = |[x0, y0, x1, y1, r]: [f64; 5]| Capsule::new(v(x0, y0), v(x1, y1), S::from_f64(r)).expect("in range");
    raw_scenes(workload)
        .into_iter()
        .map(|raw| Scene {
            a: circle(raw.a),
            b: circle(raw.b),
            mover: circle(raw.mover),
            motion: v(raw.motion[0], raw.motion[1]),
            segment: Segment::new(v(raw.segment[0], raw.segment[1]), v(raw.segment[2], raw.segment[3]))
                .expect("in range"),
            capsule: capsule(raw.capsule),
            other: capsule(raw.other),
            sweeper: capsule(raw.sweeper),
            drift: v(raw.drift[0], raw.drift[1]),
            sweeper_motion: v(raw.motion[0] + raw.drift[0], raw.motion[1] + raw.drift[1]),
        })
        .collect()
}
