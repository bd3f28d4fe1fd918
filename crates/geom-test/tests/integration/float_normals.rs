//! The float shortcut for unit normals, held to its documented bound
//! against the exact rational oracle.
//!
//! Floats compute a unit normal with one square root and a division per
//! component in `f64` (`Sealed::frame`), not correctly rounded: each
//! component is within a relative error of 2^−50 of the exact `c / |v|`
//! before it is rounded to the type. These properties check that bound
//! exactly (squares compared as rationals), so they fail if the shortcut
//! loses accuracy: without its power-of-two scaling, for instance, a
//! subnormal vector's squared length underflows and its normal is far off.

use geom_core::{Circle, Vec2, contact_circle_circle};
use geom_test::Testable;
use geom_test::oracle::Q;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// `2^k` as a rational.
fn pow2(k: i32) -> Q {
    let one = Q::from_integer(BigInt::from(1));
    let two = Q::from_integer(BigInt::from(2));
    (0..k.unsigned_abs()).fold(one.clone(), |acc, _| if k < 0 { acc / &two } else { acc * &two })
}

/// Checks that `n` is the unit vector along `(x, y)` (exact rationals)
/// within a relative error of `epsilon` per component, or an absolute one
/// of `least` (a component too small against the other to be a normal
/// number of the type has only the type's least step), with the sign of
/// the exact component (a zero component exactly `+0`).
fn check_unit(n: (Q, Q, bool, bool), x: &Q, y: &Q, epsilon: &Q, least: &Q) -> Result<(), TestCaseError> {
    let (nx, ny, x_positive_zero, y_positive_zero) = n;
    let len2 = x * x + y * y;
    prop_assert!(len2.is_positive());
    let one = Q::from_integer(BigInt::from(1));
    for (c, n, positive_zero) in [(x, &nx, x_positive_zero), (y, &ny, y_positive_zero)] {
        if c.is_zero() {
            prop_assert!(n.is_zero() && positive_zero, "a zero component gives +0, got {n}");
            continue;
        }
        prop_assert!(c.is_positive() == n.is_positive() || n.is_zero(), "the sign of {} against {}", n, c);
        // |v| = |c|/|(x, y)| is irrational; compare squares, exactly:
        // |n| + least ≥ (1 − ε)·|v| and |n| − least ≤ (1 + ε)·|v|.
        let exact2 = c * c / &len2;
        let (low, high) = (&one - epsilon, &one + epsilon);
        let n = n.abs();
        let above = &n + least;
        prop_assert!(&above * &above >= &exact2 * &low * &low, "{n} is below {c}/|v|");
        if &n > least {
            let below = &n - least;
            prop_assert!(&below * &below <= &exact2 * &high * &high, "{n} is above {c}/|v|");
        }
    }
    Ok(())
}

/// Any finite `f64`, subnormal and huge ones included.
fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::num::f64::NORMAL,
        prop::num::f64::SUBNORMAL,
        prop::num::f64::ZERO,
        (-1000_i32..1000).prop_map(f64::from),
    ]
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        prop::num::f32::NORMAL,
        prop::num::f32::SUBNORMAL,
        prop::num::f32::ZERO,
        (-1000_i16..1000).prop_map(f32::from),
    ]
}

fn unit_of<S: Testable>(n: Vec2<S>, positive_zero: impl Fn(S) -> bool) -> (Q, Q, bool, bool) {
    (n.x.to_rational(), n.y.to_rational(), positive_zero(n.x), positive_zero(n.y))
}

proptest! {
    #![proptest_config(geom_test::config_with_cases(2048))]

    /// An `f64` unit vector of any non-zero finite vector, however short
    /// or long, is within 2^−50 per component of the exact unit vector (or
    /// 2^−1074, `f64`'s least step, for a subnormal component).
    #[test]
    fn f64_normalize_is_within_its_bound_at_any_magnitude(x in any_f64(), y in any_f64()) {
        prop_assume!(x != 0.0 || y != 0.0);
        let n = Vec2::new(x, y).try_normalize().expect("a non-zero vector");
        let positive_zero = |v: f64| v.to_bits() == 0;
        check_unit(unit_of(n, positive_zero), &x.to_rational(), &y.to_rational(), &pow2(-50), &pow2(-1074))?;
    }

    /// An `f32` unit vector is within 2^−50 of the exact one before its
    /// rounding to `f32`, which adds at most 2^−24 (half an ulp, relative;
    /// for a subnormal component, half of `f32`'s least step, 2^−150).
    #[test]
    fn f32_normalize_is_within_its_bound_at_any_magnitude(x in any_f32(), y in any_f32()) {
        prop_assume!(x != 0.0 || y != 0.0);
        let n = Vec2::new(x, y).try_normalize().expect("a non-zero vector");
        let positive_zero = |v: f32| v.to_bits() == 0;
        let epsilon = pow2(-50) + pow2(-24);
        check_unit(unit_of(n, positive_zero), &x.to_rational(), &y.to_rational(), &epsilon, &pow2(-150))?;
    }

    /// The normal of two overlapping `f64` circles is the exact direction
    /// between their centres within the same bound.
    #[test]
    fn f64_contact_normal_is_within_its_bound(
        (ax, ay, bx, by) in (-1.0e6_f64..1.0e6, -1.0e6_f64..1.0e6, -1.0e6_f64..1.0e6, -1.0e6_f64..1.0e6),
    ) {
        prop_assume!(ax != bx || ay != by);
        let a = Circle::new(Vec2::new(ax, ay), 4.0e6).expect("in range");
        let b = Circle::new(Vec2::new(bx, by), 0.0).expect("in range");
        let n = contact_circle_circle(&a, &b).expect("they overlap").normal;
        let (dx, dy) = (ax.to_rational() - bx.to_rational(), ay.to_rational() - by.to_rational());
        check_unit(unit_of(n, |v: f64| v.to_bits() == 0), &dx, &dy, &pow2(-50), &pow2(-1074))?;
    }
}

/// Axis-aligned vectors give exact units in both float types, whatever
/// their length and the sign of their zero.
#[test]
fn axis_aligned_vectors_give_exact_units() {
    for length in [f64::from_bits(1), 1.0e-300, 3.0, 49.0, 1.0e300, f64::MAX] {
        assert_eq!(Vec2::new(0.0, length).try_normalize(), Some(Vec2::new(0.0, 1.0)));
        assert_eq!(Vec2::new(-0.0, -length).try_normalize(), Some(Vec2::new(0.0, -1.0)));
        assert_eq!(Vec2::new(-length, 0.0).try_normalize().map(|n| n.y.to_bits()), Some(0));
    }
    for length in [f32::from_bits(1), 3.0, 49.0, f32::MAX] {
        assert_eq!(Vec2::new(length, -0.0_f32).try_normalize(), Some(Vec2::new(1.0, 0.0)));
    }
}
