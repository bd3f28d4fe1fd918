//! The accuracy the README's tables claim, held to in CI on a smaller
//! stream than `cargo xtask accuracy` runs (the same seeded scenes, the
//! first 1000 per query).

use fixed::types::{I16F16, I32F32, I48F16};
use geom_test::Testable;
use geom_test::accuracy::{QueryAccuracy, all};

const CASES: usize = 1000;

/// Fixed point: every yes/no answer is the oracle's; closest points,
/// distances and depths are the exact value rounded once (within a step
/// per component: at most √2/2 ≈ 0.71 of a step in length); contact points
/// add two such roundings; normals are within a rounding of each
/// component; sweeps are never late.
fn fixed_point_is_exact_up_to_one_rounding<S: Testable>() {
    let (summary, sweeps) = all::<S>(CASES);
    for (query, a) in &summary {
        let QueryAccuracy {
            cases,
            disagreements,
            max_length_error,
            max_point_error,
            max_normal_error,
            wrong_way_normals,
            ..
        } = a;
        let name = format!("{} {}", S::NAME, query.name());
        assert_eq!(*cases, CASES, "{name}");
        assert_eq!(*disagreements, 0, "{name}: a yes/no answer differs from the oracle");
        assert!(max_length_error.is_none_or(|e| e <= 0.75), "{name}: length error {max_length_error:?} steps");
        assert!(max_point_error.is_none_or(|e| e <= 1.5), "{name}: point error {max_point_error:?} steps");
        assert!(max_normal_error.is_none_or(|e| e <= 1.5 * S::STEP), "{name}: normal error {max_normal_error:?}");
        assert!(wrong_way_normals.is_none_or(|n| n == 0), "{name}: a normal points the wrong way");
    }
    for s in &sweeps {
        assert_eq!(s.max_late, 0.0, "{}: a sweep is late", S::NAME);
        assert!(s.max_overlap_steps == 0.0, "{}: moved shapes overlap", S::NAME);
    }
}

/// Floats: yes/no answers differ from the oracle only on near-ties, and
/// lengths are within a few rounding steps of the scene's scale.
fn floats_differ_only_on_near_ties<S: Testable>() {
    let (summary, sweeps) = all::<S>(CASES);
    for (query, a) in &summary {
        let name = format!("{} {}", S::NAME, query.name());
        assert_eq!(a.clear_disagreements, 0, "{name}: a disagreement beyond a near-tie");
        assert!(a.max_length_error.is_none_or(|e| e <= 8.0), "{name}: length error {:?} steps", a.max_length_error);
        assert!(a.max_point_error.is_none_or(|e| e <= 8.0), "{name}: point error {:?} steps", a.max_point_error);
    }
    for s in &sweeps {
        assert_eq!(s.clear_disagreements, 0, "{}: a sweep outcome beyond a near-tie", S::NAME);
        assert!(s.max_gap_resolutions <= 4.0, "{}: moved shapes {} resolutions apart", S::NAME, s.max_gap_resolutions);
    }
}

#[test]
fn i16f16_is_exact_up_to_one_rounding() {
    fixed_point_is_exact_up_to_one_rounding::<I16F16>();
}

#[test]
fn i32f32_is_exact_up_to_one_rounding() {
    fixed_point_is_exact_up_to_one_rounding::<I32F32>();
}

#[test]
fn i48f16_is_exact_up_to_one_rounding() {
    fixed_point_is_exact_up_to_one_rounding::<I48F16>();
}

#[test]
fn f32_differs_only_on_near_ties() {
    floats_differ_only_on_near_ties::<f32>();
}

#[test]
fn f64_differs_only_on_near_ties() {
    floats_differ_only_on_near_ties::<f64>();
}
