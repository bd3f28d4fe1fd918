//! The peer benchmark asks parry the questions it asks geom: on both
//! workloads, every parry function the benchmark times (generic query and
//! typed kernel, parry2d and parry2d-f64) gives geom `f64`'s yes/no answer
//! (intersects, contact or none, sweep hit or miss), and the distance geom
//! gives, except on near-ties: scenes whose signed gap to the boundary,
//! computed here in plain `f64`, is within a tolerance relative to the
//! scene's scale (its largest coordinate). The workloads themselves are
//! checked too: the near one touches in a good share of scenes, the uniform
//! one mostly misses.

#[path = "../../crates/geom-core/benches/common/mod.rs"]
mod common;
#[path = "../benches/parry/mod.rs"]
mod parry;

use std::ops::RangeInclusive;

use common::{Raw, Scene, Workload, raw_scenes, scenes};
use geom_core::{
    Sweep, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    distance_point_segment, intersects_circle_segment, sweep_circle_segment,
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
        .chain(&raw.other);
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
}

#[test]
fn uniform_workload_mostly_misses_and_parry_agrees() {
    let scenes = Scenes::new(Workload::Uniform);
    scenes.distances_agree();
    for question in QUESTIONS {
        let yes = scenes.ask(question);
        assert!(yes * 20 <= scenes.raw.len(), "{}: {yes} of the uniform scenes touch", question.name);
    }
}
