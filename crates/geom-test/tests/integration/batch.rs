//! The batch intersection tests answer exactly as the single queries do,
//! for every scalar type, on the strategies' awkward scenes (near-touching,
//! zero-length segments, centres on the segment, the edge of the range).

use geom_core::query::batch::{
    LengthMismatch, intersects_circle_capsules, intersects_circle_circles, intersects_circle_segments,
    intersects_circles_capsule, intersects_circles_segment,
};
use geom_core::{
    Capsule, Circle, Segment, intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment,
};
use geom_test::{Testable, strategy};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Checks a batch's answers and hit count against the single query's.
fn same_answers(batch: Result<usize, LengthMismatch>, out: &[bool], single: &[bool]) -> Result<(), TestCaseError> {
    prop_assert_eq!(out, single);
    prop_assert_eq!(batch, Ok(single.iter().filter(|&&hit| hit).count()));
    Ok(())
}

/// One circle against many segments and many circles against one segment:
/// every answer is the single `intersects_circle_segment`'s.
fn circle_segment_batches_match_single_queries<S: Testable>(
    pairs: &[(Circle<S>, Segment<S>)],
) -> Result<(), TestCaseError> {
    let circles: Vec<Circle<S>> = pairs.iter().map(|p| p.0).collect();
    let segments: Vec<Segment<S>> = pairs.iter().map(|p| p.1).collect();
    let mut out = vec![false; pairs.len()];
    for circle in circles.iter().take(4) {
        let single: Vec<bool> = segments.iter().map(|s| intersects_circle_segment(circle, s)).collect();
        same_answers(intersects_circle_segments(circle, &segments, &mut out), &out, &single)?;
    }
    for segment in segments.iter().take(4) {
        let single: Vec<bool> = circles.iter().map(|c| intersects_circle_segment(c, segment)).collect();
        same_answers(intersects_circles_segment(&circles, segment, &mut out), &out, &single)?;
    }
    // The pairs themselves, where the strategy made them near-touching.
    for (circle, segment) in pairs {
        let mut one = [false];
        same_answers(
            intersects_circle_segments(circle, core::slice::from_ref(segment), &mut one),
            &one,
            &[intersects_circle_segment(circle, segment)],
        )?;
    }
    Ok(())
}

/// The same for capsules: every answer is the single
/// `intersects_circle_capsule`'s.
fn circle_capsule_batches_match_single_queries<S: Testable>(
    pairs: &[(Circle<S>, Capsule<S>)],
) -> Result<(), TestCaseError> {
    let circles: Vec<Circle<S>> = pairs.iter().map(|p| p.0).collect();
    let capsules: Vec<Capsule<S>> = pairs.iter().map(|p| p.1).collect();
    let mut out = vec![false; pairs.len()];
    for circle in circles.iter().take(4) {
        let single: Vec<bool> = capsules.iter().map(|k| intersects_circle_capsule(circle, k)).collect();
        same_answers(intersects_circle_capsules(circle, &capsules, &mut out), &out, &single)?;
    }
    for capsule in capsules.iter().take(4) {
        let single: Vec<bool> = circles.iter().map(|c| intersects_circle_capsule(c, capsule)).collect();
        same_answers(intersects_circles_capsule(&circles, capsule, &mut out), &out, &single)?;
    }
    for (circle, capsule) in pairs {
        let mut one = [false];
        same_answers(
            intersects_circle_capsules(circle, core::slice::from_ref(capsule), &mut one),
            &one,
            &[intersects_circle_capsule(circle, capsule)],
        )?;
    }
    Ok(())
}

/// And for circles: every answer is the single `intersects_circle_circle`'s.
fn circle_circle_batches_match_single_queries<S: Testable>(
    pairs: &[(Circle<S>, Circle<S>)],
) -> Result<(), TestCaseError> {
    let others: Vec<Circle<S>> = pairs.iter().map(|p| p.1).collect();
    let mut out = vec![false; pairs.len()];
    for (circle, _) in pairs.iter().take(4) {
        let single: Vec<bool> = others.iter().map(|o| intersects_circle_circle(circle, o)).collect();
        same_answers(intersects_circle_circles(circle, &others, &mut out), &out, &single)?;
    }
    for (a, b) in pairs {
        let mut one = [false];
        same_answers(
            intersects_circle_circles(a, core::slice::from_ref(b), &mut one),
            &one,
            &[intersects_circle_circle(a, b)],
        )?;
    }
    Ok(())
}

/// A buffer of the wrong length is refused and left as it was.
#[test]
fn a_buffer_of_the_wrong_length_is_refused_and_untouched() {
    let circle = Circle::new(geom_core::Vec2::new(0.0_f32, 0.0), 1.0).expect("in range");
    let segments = [Segment::new(geom_core::Vec2::new(-1.0, 0.0), geom_core::Vec2::new(1.0, 0.0)).expect("in range")];
    let mut long = [true, true];
    assert_eq!(
        intersects_circle_segments(&circle, &segments, &mut long),
        Err(LengthMismatch { inputs: 1, outputs: 2 })
    );
    assert_eq!(long, [true, true]);
    let mut empty: [bool; 0] = [];
    assert_eq!(intersects_circle_circles(&circle, &[], &mut empty), Ok(0));
}

macro_rules! batches {
    ($module:ident, $t:ty) => {
        mod $module {
            use super::*;
            type T = $t;

            proptest! {
                #![proptest_config(geom_test::config())]

                #[test]
                fn circle_segment_batches_match_single_queries(pairs in vec(strategy::circle_segment::<T>(), 0..40)) {
                    super::circle_segment_batches_match_single_queries(&pairs)?;
                }

                #[test]
                fn circle_capsule_batches_match_single_queries(pairs in vec(strategy::circle_capsule::<T>(), 0..40)) {
                    super::circle_capsule_batches_match_single_queries(&pairs)?;
                }

                #[test]
                fn circle_circle_batches_match_single_queries(pairs in vec(strategy::circle_circle::<T>(), 0..40)) {
                    super::circle_circle_batches_match_single_queries(&pairs)?;
                }
            }
        }
    };
}

batches!(f32_, f32);
batches!(f64_, f64);
batches!(i16f16, fixed::types::I16F16);
batches!(i32f32, fixed::types::I32F32);
batches!(i48f16, fixed::types::I48F16);
