//! The peer benchmark asks parry the questions it asks geom: on both
//! workloads, every parry function the benchmark times (generic query and
//! typed kernel, parry2d and parry2d-f64) gives geom `f64`'s yes/no answer
//! (intersects, contact or none, sweep hit or miss), and the distance geom
//! gives, except on near-ties: scenes whose signed gap to the boundary,
//! computed here in plain `f64`, is within a tolerance relative to the
//! scene's scale (its largest coordinate). The workloads themselves are
//! checked too: the near one touches in a good share of scenes, the uniform
//! one mostly misses.
//!
//! The sweeps are also checked for when they hit: both say whether the
//! shapes touch at the start of the tick (geom `Sweep::InContact`, parry a
//! time of impact of exactly 0), and where both hit later, both times are
//! first touches: the shapes, moved to that time, are apart by no more than
//! the tolerance (in plain `f64`). That the gap, not the time, is compared
//! keeps grazing hits fair, where a tiny gap is a long stretch of time.

#[path = "../../crates/geom-core/benches/common/mod.rs"]
mod common;
#[path = "../benches/parry/mod.rs"]
mod parry;

use std::ops::RangeInclusive;

use common::{Raw, Scene, Workload, raw_scenes, scenes};
use geom_core::{
    Sweep, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    distance_point_segment, intersects_circle_segment, sweep_capsule_capsule, sweep_capsule_segment,
    sweep_circle_segment,
};
use parry::{parry32, parry64};

/// Near-tie tolerances, relative to a scene's scale: parry2d-f64 rounds
/// like geom `f64`; parry2d computes in `f32` (and its shape cast iterates
/// to a tolerance).
const TIE_F64: f64 = 1e-6;
const TIE_F32: f64 = 1e-4;

/// A scene's scale: its largest coordinate or radius (at least 1).
fn scale(raw: &Raw) -> f64 {
    let values = raw
        .a
        .iter()
        .chain(&raw.b)
        .chain(&raw.mover)
        .chain(&raw.motion)
        .chain(&raw.segment)
        .chain(&raw.capsule)
        .chain(&raw.other)
        .chain(&raw.sweeper)
        .chain(&raw.drift);
    values.fold(1.0, |m, v| m.max(v.abs()))
}

type P = [f64; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// The distance from `p` to the segment `a`–`b`.
fn point_segment(p: P, [a, b]: [P; 2]) -> f64 {
    let (ab, ap) = (sub(b, a), sub(p, a));
    let t = (dot(ab, ap) / dot(ab, ab)).clamp(0.0, 1.0);
    let d = sub(ap, [ab[0] * t, ab[1] * t]);
    dot(d, d).sqrt()
}

/// The distance between two segments: zero if they cross, else the least
/// distance from an endpoint to the other segment.
fn segment_segment(s: [P; 2], t: [P; 2]) -> f64 {
    let side = |seg: [P; 2], p: P| cross(sub(seg[1], seg[0]), sub(p, seg[0]));
    let crosses =
        side(s, t[0]) * side(s, t[1]) <= 0.0 && side(t, s[0]) * side(t, s[1]) <= 0.0 && side(s, t[0]) != side(s, t[1]);
    if crosses {
        return 0.0;
    }
    [point_segment(s[0], t), point_segment(s[1], t), point_segment(t[0], s), point_segment(t[1], s)]
        .into_iter()
        .fold(f64::INFINITY, f64::min)
}

/// The least distance from the segment `other` to the segment `core` as it
/// moves by `motion`: to the parallelogram it sweeps (zero if an end of
/// `other` is inside, else the least distance to one of its four sides).
fn swept_gap(core: [P; 2], motion: P, other: [P; 2]) -> f64 {
    let moved = |p: P| [p[0] + motion[0], p[1] + motion[1]];
    let [a, b] = core;
    let along = sub(b, a);
    let area = cross(along, motion);
    let inside = |p: P| {
        let d = sub(p, a);
        let (u, w) = (cross(d, motion) / area, cross(along, d) / area);
        area != 0.0 && (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&w)
    };
    if inside(other[0]) {
        return 0.0;
    }
    [core, [moved(a), moved(b)], [a, moved(a)], [b, moved(b)]]
        .into_iter()
        .map(|side| segment_segment(side, other))
        .fold(f64::INFINITY, f64::min)
}

fn centre(circle: [f64; 3]) -> P {
    [circle[0], circle[1]]
}

fn core4([x0, y0, x1, y1]: [f64; 4]) -> [P; 2] {
    [[x0, y0], [x1, y1]]
}

fn core5([x0, y0, x1, y1, _]: [f64; 5]) -> [P; 2] {
    [[x0, y0], [x1, y1]]
}

/// One yes/no question asked of geom `f64` and of every parry function the
/// benchmark times for it.
struct Question {
    name: &'static str,
    /// The signed gap to the boundary (negative: overlapping, zero:
    /// touching), in plain `f64`.
    gap: fn(&Raw) -> f64,
    geom: fn(&Scene<f64>) -> bool,
    query32: fn(&parry32::Scene) -> bool,
    kernel32: fn(&parry32::Scene) -> bool,
    query64: fn(&parry64::Scene) -> bool,
    kernel64: fn(&parry64::Scene) -> bool,
}

/// The near workload puts about half the pairs within touching distance.
const HALF: RangeInclusive<f64> = 0.3..=0.7;

const QUESTIONS: &[Question] = &[
    Question {
        name: "intersects_circle_segment",
        gap: |r| point_segment(centre(r.a), core4(r.segment)) - r.a[2],
        geom: |s| intersects_circle_segment(&s.a, &s.segment),
        query32: |s| parry32::intersects_circle_segment_query(s).expect("supported").intersecting,
        kernel32: parry32::intersects_circle_segment_kernel,
        query64: |s| parry64::intersects_circle_segment_query(s).expect("supported").intersecting,
        kernel64: parry64::intersects_circle_segment_kernel,
    },
    Question {
        name: "contact_circle_segment",
        gap: |r| point_segment(centre(r.a), core4(r.segment)) - r.a[2],
        geom: |s| contact_circle_segment(&s.a, &s.segment).is_some(),
        query32: |s| parry32::contact_circle_segment_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::contact_circle_segment_kernel(s).is_some(),
        query64: |s| parry64::contact_circle_segment_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::contact_circle_segment_kernel(s).is_some(),
    },
    Question {
        name: "contact_circle_capsule",
        gap: |r| point_segment(centre(r.a), core5(r.capsule)) - r.a[2] - r.capsule[4],
        geom: |s| contact_circle_capsule(&s.a, &s.capsule).is_some(),
        query32: |s| parry32::contact_circle_capsule_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::contact_circle_capsule_kernel(s).is_some(),
        query64: |s| parry64::contact_circle_capsule_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::contact_circle_capsule_kernel(s).is_some(),
    },
    Question {
        name: "contact_circle_circle",
        gap: |r| {
            let d = sub(centre(r.a), centre(r.b));
            dot(d, d).sqrt() - r.a[2] - r.b[2]
        },
        geom: |s| contact_circle_circle(&s.a, &s.b).is_some(),
        query32: |s| parry32::contact_circle_circle_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::contact_circle_circle_kernel(s).is_some(),
        query64: |s| parry64::contact_circle_circle_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::contact_circle_circle_kernel(s).is_some(),
    },
    Question {
        name: "contact_capsule_capsule",
        gap: |r| segment_segment(core5(r.capsule), core5(r.other)) - r.capsule[4] - r.other[4],
        geom: |s| contact_capsule_capsule(&s.capsule, &s.other).is_some(),
        query32: |s| parry32::contact_capsule_capsule_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::contact_capsule_capsule_kernel(s).is_some(),
        query64: |s| parry64::contact_capsule_capsule_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::contact_capsule_capsule_kernel(s).is_some(),
    },
    Question {
        name: "sweep_circle_segment",
        // The centre's path during the tick against the segment.
        gap: |r| {
            let start = centre(r.mover);
            let path = [start, [start[0] + r.motion[0], start[1] + r.motion[1]]];
            segment_segment(path, core4(r.segment)) - r.mover[2]
        },
        geom: |s| !matches!(sweep_circle_segment(&s.mover, s.motion, &s.segment), Sweep::Miss),
        query32: |s| parry32::sweep_circle_segment_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::sweep_circle_segment_kernel(s).is_some(),
        query64: |s| parry64::sweep_circle_segment_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::sweep_circle_segment_kernel(s).is_some(),
    },
    Question {
        name: "sweep_capsule_segment",
        gap: |r| {
            let Swept { core, motion, other, radii } = capsule_segment(r);
            swept_gap(core, motion, other) - radii
        },
        geom: |s| !matches!(sweep_capsule_segment(&s.sweeper, s.motion, &s.segment), Sweep::Miss),
        query32: |s| parry32::sweep_capsule_segment_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::sweep_capsule_segment_kernel(s).is_some(),
        query64: |s| parry64::sweep_capsule_segment_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::sweep_capsule_segment_kernel(s).is_some(),
    },
    Question {
        name: "sweep_capsule_capsule",
        gap: |r| {
            let Swept { core, motion, other, radii } = capsule_capsule(r);
            swept_gap(core, motion, other) - radii
        },
        geom: |s| !matches!(sweep_capsule_capsule(&s.sweeper, s.sweeper_motion, &s.capsule, s.drift), Sweep::Miss),
        query32: |s| parry32::sweep_capsule_capsule_query(s).expect("supported").is_some(),
        kernel32: |s| parry32::sweep_capsule_capsule_kernel(s).is_some(),
        query64: |s| parry64::sweep_capsule_capsule_query(s).expect("supported").is_some(),
        kernel64: |s| parry64::sweep_capsule_capsule_kernel(s).is_some(),
    },
];

/// A sweep in plain `f64`, relative to the obstacle: the moving core, its
/// motion, the obstacle's core, and the sum of the radii.
struct Swept {
    core: [P; 2],
    motion: P,
    other: [P; 2],
    radii: f64,
}

impl Swept {
    /// The gap between the shapes with the mover moved by `t` of its
    /// motion (negative: overlapping).
    fn gap_at(&self, t: f64) -> f64 {
        let moved = |p: P| [p[0] + t * self.motion[0], p[1] + t * self.motion[1]];
        segment_segment([moved(self.core[0]), moved(self.core[1])], self.other) - self.radii
    }
}

fn circle_segment(r: &Raw) -> Swept {
    let c = centre(r.mover);
    Swept { core: [c, c], motion: r.motion, other: core4(r.segment), radii: r.mover[2] }
}

fn capsule_segment(r: &Raw) -> Swept {
    Swept { core: core5(r.sweeper), motion: r.motion, other: core4(r.segment), radii: r.sweeper[4] }
}

/// Both move: the sweeper by `motion + drift`, the capsule by `drift`, so
/// relative to the capsule the sweeper moves by `motion` (exactly: the
/// scenes' grid is coarse enough).
fn capsule_capsule(r: &Raw) -> Swept {
    Swept { core: core5(r.sweeper), motion: r.motion, other: core5(r.capsule), radii: r.sweeper[4] + r.capsule[4] }
}

/// When a sweep first touches, asked of geom `f64` and of every parry
/// function the benchmark times for it: `None` for a miss, else the time
/// (geom's `InContact` is time 0).
struct Timing {
    name: &'static str,
    motion: fn(&Raw) -> Swept,
    geom: fn(&Scene<f64>) -> Option<f64>,
    query32: fn(&parry32::Scene) -> Option<f64>,
    kernel32: fn(&parry32::Scene) -> Option<f64>,
    query64: fn(&parry64::Scene) -> Option<f64>,
    kernel64: fn(&parry64::Scene) -> Option<f64>,
}

/// geom's time of first touch: 0 for a start in contact (blocked or not:
/// parry, stopping at penetration, gives time 0 either way).
fn geom_time(sweep: Sweep<f64>) -> Option<f64> {
    match sweep {
        Sweep::Miss => None,
        Sweep::InContact { .. } => Some(0.0),
        Sweep::Hit(hit) => Some(hit.t),
    }
}

const TIMINGS: &[Timing] = &[
    Timing {
        name: "sweep_circle_segment",
        motion: circle_segment,
        geom: |s| geom_time(sweep_circle_segment(&s.mover, s.motion, &s.segment)),
        query32: |s| parry32::sweep_circle_segment_query(s).expect("supported").map(|h| f64::from(h.time_of_impact)),
        kernel32: |s| parry32::sweep_circle_segment_kernel(s).map(f64::from),
        query64: |s| parry64::sweep_circle_segment_query(s).expect("supported").map(|h| h.time_of_impact),
        kernel64: parry64::sweep_circle_segment_kernel,
    },
    Timing {
        name: "sweep_capsule_segment",
        motion: capsule_segment,
        geom: |s| geom_time(sweep_capsule_segment(&s.sweeper, s.motion, &s.segment)),
        query32: |s| parry32::sweep_capsule_segment_query(s).expect("supported").map(|h| f64::from(h.time_of_impact)),
        kernel32: |s| parry32::sweep_capsule_segment_kernel(s).map(|h| f64::from(h.time_of_impact)),
        query64: |s| parry64::sweep_capsule_segment_query(s).expect("supported").map(|h| h.time_of_impact),
        kernel64: |s| parry64::sweep_capsule_segment_kernel(s).map(|h| h.time_of_impact),
    },
    Timing {
        name: "sweep_capsule_capsule",
        motion: capsule_capsule,
        geom: |s| geom_time(sweep_capsule_capsule(&s.sweeper, s.sweeper_motion, &s.capsule, s.drift)),
        query32: |s| parry32::sweep_capsule_capsule_query(s).expect("supported").map(|h| f64::from(h.time_of_impact)),
        kernel32: |s| parry32::sweep_capsule_capsule_kernel(s).map(|h| f64::from(h.time_of_impact)),
        query64: |s| parry64::sweep_capsule_capsule_query(s).expect("supported").map(|h| h.time_of_impact),
        kernel64: |s| parry64::sweep_capsule_capsule_kernel(s).map(|h| h.time_of_impact),
    },
];

/// A workload's scenes in every form the benchmark uses.
struct Scenes {
    workload: Workload,
    raw: Vec<Raw>,
    geom: Vec<Scene<f64>>,
    parry32: Vec<parry32::Scene>,
    parry64: Vec<parry64::Scene>,
}

impl Scenes {
    fn new(workload: Workload) -> Self {
        Self {
            workload,
            raw: raw_scenes(workload),
            geom: scenes(workload),
            parry32: parry32::scenes(workload),
            parry64: parry64::scenes(workload),
        }
    }

    /// Checks that one parry flavour agrees with geom except on near-ties
    /// (within `tie` times the scene's scale); returns how many ties
    /// disagreed.
    fn agree<T>(&self, question: &Question, flavour: &str, parry: &[T], answer: fn(&T) -> bool, tie: f64) -> usize {
        let mut ties = 0;
        for (i, ((raw, geom), parry)) in self.raw.iter().zip(&self.geom).zip(parry).enumerate() {
            let (expected, got) = ((question.geom)(geom), answer(parry));
            if expected != got {
                let gap = (question.gap)(raw);
                assert!(
                    gap.abs() <= tie * scale(raw),
                    "{} {:?} scene {i}: geom says {expected}, {flavour} says {got}, gap {gap:e}: {raw:?}",
                    question.name,
                    self.workload,
                );
                ties += 1;
            }
        }
        ties
    }

    /// Asks one question of everyone; returns how many scenes geom says yes
    /// to.
    fn ask(&self, question: &Question) -> usize {
        // geom answers the question the gap describes (so the gap is right).
        for (i, (raw, geom)) in self.raw.iter().zip(&self.geom).enumerate() {
            let (gap, yes) = ((question.gap)(raw), (question.geom)(geom));
            assert!(
                gap.abs() <= TIE_F64 * scale(raw) || (gap <= 0.0) == yes,
                "{} {:?} scene {i}: geom says {yes}, gap {gap:e}",
                question.name,
                self.workload,
            );
        }
        let yes = self.geom.iter().filter(|s| (question.geom)(s)).count();
        let ties = [
            self.agree(question, "parry_query_f32", &self.parry32, question.query32, TIE_F32),
            self.agree(question, "parry_kernel_f32", &self.parry32, question.kernel32, TIE_F32),
            self.agree(question, "parry_query_f64", &self.parry64, question.query64, TIE_F64),
            self.agree(question, "parry_kernel_f64", &self.parry64, question.kernel64, TIE_F64),
        ];
        println!(
            "{:?} {}: geom yes {yes} / {}; near-tie disagreements (query f32, kernel f32, query f64, kernel f64) {ties:?}",
            self.workload,
            question.name,
            self.raw.len(),
        );
        yes
    }

    /// Checks that one parry flavour says what geom says about a sweep's
    /// start (in contact or not), except where the shapes' gap at the start
    /// is within `tie` times the scene's scale, and that where both hit
    /// later, the shapes are within that tolerance of touching at parry's
    /// time. Returns how many starts disagreed on ties, the largest
    /// difference of the two times, and the largest gap at parry's time
    /// relative to the scene's scale.
    fn times_agree<T>(
        &self,
        timing: &Timing,
        flavour: &str,
        parry: &[T],
        answer: fn(&T) -> Option<f64>,
        tie: f64,
    ) -> (usize, f64, f64) {
        let (mut ties, mut worst, mut widest) = (0, 0.0_f64, 0.0_f64);
        for (i, ((raw, geom), parry)) in self.raw.iter().zip(&self.geom).zip(parry).enumerate() {
            let motion = (timing.motion)(raw);
            let tolerance = tie * scale(raw);
            let (Some(expected), Some(got)) = ((timing.geom)(geom), answer(parry)) else { continue };
            if (expected == 0.0) != (got == 0.0) {
                let gap = motion.gap_at(0.0);
                assert!(
                    gap.abs() <= tolerance,
                    "{} {:?} scene {i}: geom's time {expected}, {flavour}'s {got}, gap at the start {gap:e}: {raw:?}",
                    timing.name,
                    self.workload,
                );
                ties += 1;
            } else if got > 0.0 {
                let gap = motion.gap_at(got);
                assert!(
                    gap.abs() <= tolerance,
                    "{} {:?} scene {i}: {flavour}'s time {got} (geom's {expected}) leaves a gap {gap:e}: {raw:?}",
                    timing.name,
                    self.workload,
                );
                worst = worst.max((got - expected).abs());
                widest = widest.max(gap.abs() / scale(raw));
            }
        }
        (ties, worst, widest)
    }

    /// Asks one sweep's timing of everyone.
    fn time(&self, timing: &Timing) {
        // geom's own hits are first touches (so the gap is right).
        for (i, (raw, geom)) in self.raw.iter().zip(&self.geom).enumerate() {
            if let Some(t) = (timing.geom)(geom).filter(|&t| t > 0.0) {
                let gap = (timing.motion)(raw).gap_at(t);
                assert!(
                    gap.abs() <= TIE_F64 * scale(raw),
                    "{} {:?} scene {i}: geom's time {t} leaves a gap {gap:e}",
                    timing.name,
                    self.workload,
                );
            }
        }
        let in_contact = self.geom.iter().filter(|s| (timing.geom)(s) == Some(0.0)).count();
        let results = [
            self.times_agree(timing, "parry_query_f32", &self.parry32, timing.query32, TIE_F32),
            self.times_agree(timing, "parry_kernel_f32", &self.parry32, timing.kernel32, TIE_F32),
            self.times_agree(timing, "parry_query_f64", &self.parry64, timing.query64, TIE_F64),
            self.times_agree(timing, "parry_kernel_f64", &self.parry64, timing.kernel64, TIE_F64),
        ];
        println!(
            "{:?} {}: geom in contact at the start {in_contact} / {}; (start near-tie disagreements, largest time \
             difference, largest relative gap at parry's time) for query f32, kernel f32, query f64, kernel f64: \
             {}",
            self.workload,
            timing.name,
            self.raw.len(),
            results.map(|(ties, time, gap)| format!("({ties}, {time:.1e}, {gap:.1e})")).join(", "),
        );
    }

    /// The distance from `a`'s centre to the segment agrees within the
    /// tolerances.
    fn distances_agree(&self) {
        for (i, (((raw, geom), p32), p64)) in
            self.raw.iter().zip(&self.geom).zip(&self.parry32).zip(&self.parry64).enumerate()
        {
            let expected = distance_point_segment(geom.a.center(), &geom.segment);
            let got: [(&str, f64, f64); 4] = [
                (
                    "parry_query_f32",
                    f64::from(parry32::distance_point_segment_query(p32).expect("supported").distance),
                    TIE_F32,
                ),
                ("parry_kernel_f32", f64::from(parry32::distance_point_segment_kernel(p32)), TIE_F32),
                ("parry_query_f64", parry64::distance_point_segment_query(p64).expect("supported").distance, TIE_F64),
                ("parry_kernel_f64", parry64::distance_point_segment_kernel(p64), TIE_F64),
            ];
            for (flavour, distance, tolerance) in got {
                assert!(
                    (distance - expected).abs() <= tolerance * scale(raw),
                    "distance_point_segment {:?} scene {i}: geom {expected}, {flavour} {distance}",
                    self.workload,
                );
            }
        }
    }
}

#[test]
fn near_workload_touches_in_a_good_share_and_parry_agrees() {
    let scenes = Scenes::new(Workload::Near);
    scenes.distances_agree();
    for question in QUESTIONS {
        let yes = scenes.ask(question);
        let share = yes as f64 / scenes.raw.len() as f64;
        assert!(HALF.contains(&share), "{}: {yes} of the near scenes touch", question.name);
    }
    for timing in TIMINGS {
        scenes.time(timing);
    }
}

#[test]
fn uniform_workload_mostly_misses_and_parry_agrees() {
    let scenes = Scenes::new(Workload::Uniform);
    scenes.distances_agree();
    for question in QUESTIONS {
        let yes = scenes.ask(question);
        assert!(yes * 20 <= scenes.raw.len(), "{}: {yes} of the uniform scenes touch", question.name);
    }
    for timing in TIMINGS {
        scenes.time(timing);
    }
}
