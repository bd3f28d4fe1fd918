//! Replays the library's fuzz targets' committed inputs as ordinary tests
//! (see [`geom_test::fuzz::replay`]; the sandbox's targets are replayed by
//! the unit tests of geom-tui's `fuzz` module, so that these tests build
//! without the sandbox, on any target). Each check function asserts its
//! guarantees, so a regression fails here, naming the file. Then a few
//! thousand seeded pseudo-random inputs per target (a quarter of them in a
//! plain `cargo test`, all with `GEOM_TEST_FULL=1`).

use geom_test::fuzz::replay::{fuzz_dir, replay, seeded_inputs};

/// `full` seeded inputs at full size, a quarter of them otherwise (the
/// first ones: the same seed).
fn sized(full: usize) -> usize {
    if geom_test::full_tests() { full } else { full / 4 }
}

/// How to run these tests again, for the message naming a failing input.
const TEST: &str = "-p geom-test --test integration fuzz_corpus::";

#[test]
fn static_queries_corpus_and_regressions_keep_every_guarantee() {
    let files = replay("static_queries", geom_test::fuzz::static_queries, TEST);
    assert!(files > 0, "the static_queries corpus is missing from {}", fuzz_dir().display());
}

#[test]
fn swept_queries_corpus_and_regressions_keep_every_guarantee() {
    let files = replay("swept_queries", geom_test::fuzz::swept_queries, TEST);
    assert!(files > 0, "the swept_queries corpus is missing from {}", fuzz_dir().display());
}

#[test]
fn world_corpus_and_regressions_keep_every_guarantee() {
    let files = replay("world", geom_test::fuzz::world, TEST);
    assert!(files > 0, "the world corpus is missing from {}", fuzz_dir().display());
}

#[test]
fn seeded_random_inputs_keep_every_static_query_guarantee() {
    for data in seeded_inputs(0x5eed_0001, sized(400)) {
        geom_test::fuzz::static_queries(&data);
    }
}

#[test]
fn seeded_random_inputs_keep_every_sweep_guarantee() {
    for data in seeded_inputs(0x5eed_0002, sized(1000)) {
        geom_test::fuzz::swept_queries(&data);
    }
}

#[test]
fn seeded_random_inputs_keep_every_world_guarantee() {
    for data in seeded_inputs(0x5eed_0003, sized(300)) {
        geom_test::fuzz::world(&data);
    }
}

// Findings of the fuzzers, fixed: each stated as the property it broke,
// on the input found.

/// Two segments whose nearest endpoint relations are both perpendicular
/// feet: `a.start` is √½ step from `b`'s interior, `b.start` about 4e-6 of
/// a step from `a`'s interior. `Dist2::less_than` compares the two rounded
/// to `I32F32` (both round to 0) and keeps the first, so the answer is the
/// farther pair: distance one step instead of 0, and closest points that
/// are not on the true closest pair. With radii, `contact_capsule_capsule`
/// takes its normal from that pair: 45° off.
#[test]
fn closest_points_segment_segment_breaks_a_wide_rounding_tie_exactly() {
    use fixed::types::I16F16;
    use geom_core::{Segment, Vec2, closest_points_segment_segment};

    let v = |x: i32, y: i32| Vec2::new(I16F16::from_bits(x), I16F16::from_bits(y));
    let a = Segment::new(v(-2, 0), v(258_048, -1)).unwrap();
    let b = Segment::new(v(-1, 0), v(-2, 1)).unwrap();
    let c = closest_points_segment_segment(&a, &b);
    // The exact distance is about 6e-11: zero, rounded to I16F16.
    assert_eq!(c.distance, I16F16::ZERO, "{c:?}");
    assert_eq!(c.b, v(-1, 0), "{c:?}");
}

/// The same comparison, on segments that touch: `b.start` lies on `a`
/// (a perpendicular foot at distance 0), but `a.end`'s foot on `b`, at √½
/// step, rounds to 0 in `I64F64` too and comes first: the touching
/// segments are reported one step apart. (Found by the `static_queries`
/// fuzz target.)
#[test]
fn closest_points_segment_segment_reports_touching_segments_at_distance_zero() {
    use fixed::types::I32F32;
    use geom_core::{Segment, Vec2, closest_points_segment_segment};

    let half = I32F32::from_num(14.5);
    let v = |dx: i64, dy: i64| Vec2::new(-half + I32F32::from_bits(dx), -half + I32F32::from_bits(dy));
    let a = Segment::new(v(0, -1), v(0, 1)).unwrap();
    let b = Segment::new(v(0, 0), v(-1, 1)).unwrap();
    let c = closest_points_segment_segment(&a, &b);
    assert_eq!(c.distance, I32F32::ZERO, "{c:?}");
}

/// A slow circle (moving 2 steps) reaching a long segment's side just
/// beside its end: the exact first touch is at t ≈ 0.99901, but
/// `side_time` floors its gap to a whole raw unit (t ≈ 0.5), finds the foot
/// off the core within two steps of that early time, drops the side and
/// answers the end cap's later time, 0.99998: late, against the documented
/// guarantee. (Found by the `swept_queries` fuzz target.)
#[test]
fn sweep_circle_segment_is_never_late_for_a_slow_circle_reaching_a_side() {
    use fixed::types::I16F16;
    use geom_core::{Circle, Segment, Sweep, Vec2, sweep_circle_segment};

    let f = I16F16::from_bits;
    let v = |x: i32, y: i32| Vec2::new(f(x), f(y));
    let circle = Circle::new(v(0, 1), f(1)).unwrap();
    let wall = Segment::new(v(-1, 3), v(0, 256)).unwrap();
    let Sweep::Hit(hit) = sweep_circle_segment(&circle, v(0, 2), &wall) else { panic!("no hit") };
    assert!(hit.t <= I16F16::from_num(0.99901), "{hit:?}");
}

/// An `f64` segment so short that its squared length underflows: reversed,
/// the closest point is right (the end) but `t` is 0, not 1.
#[test]
fn closest_point_feature_end_has_t_one_for_a_segment_whose_square_underflows() {
    use geom_core::{Segment, SegmentFeature, Vec2, closest_point_point_segment};

    let s = Segment::new(
        Vec2::new(2.299_357_446_944_316_5e-7, 1.159_677_299_786_717_7e-296),
        Vec2::new(2.299_357_446_944_316_5e-7, 1.159_677_299_786_717_8e-296),
    )
    .unwrap();
    let c = closest_point_point_segment(Vec2::new(0.0, -99.0), &s.reversed());
    assert_eq!(c.feature, SegmentFeature::End);
    assert_eq!(c.t, 1.0, "{c:?}");
}
