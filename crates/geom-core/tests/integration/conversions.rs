//! Issue 19, "a first program without friction": the public conversions
//! between `f64` and every scalar type, and the `Vec2` operations a game
//! programmer expects (`/`, `lerp`, `abs`, `S * v`, `Display`, …), checked
//! against exact integer arithmetic for the fixed-point types.
#![allow(clippy::unreadable_literal)]

use fixed::types::{I16F16, I24F8, I32F32, I48F16};
use geom_core::{Scalar, Segment, Vec2};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    crate::common::proptest_config(4096, 0x6572_676f)
}

/// `f64` inputs where a conversion is most likely to go wrong: any bit
/// pattern (NaN, infinities, subnormals), values of every magnitude, and
/// the midpoints between neighbouring values of a type with `frac`
/// fractional bits (ties), with their neighbours.
fn awkward_f64(frac: u32) -> BoxedStrategy<f64> {
    let step = (-f64::from(frac)).exp2();
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        (-80_i32..80, any::<f64>()).prop_map(|(e, m)| (m % 2.0) * f64::from(e).exp2()),
        (-(1_i64 << 40)..1 << 40).prop_map(move |k| (k as f64 + 0.5) * step),
        (-(1_i64 << 40)..1 << 40, -2_i32..=2).prop_map(move |(k, d)| {
            let tie = (k as f64 + 0.5) * step;
            let mut v = tie;
            for _ in 0..d.unsigned_abs() {
                v = if d > 0 { v.next_up() } else { v.next_down() };
            }
            v
        }),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-0.0),
    ]
    .boxed()
}

/// `n / d` rounded to the nearest integer, ties to even (`d > 0`).
fn round_div(n: i128, d: i128) -> i128 {
    let (q, r) = (n.div_euclid(d), n.rem_euclid(d));
    match (2 * r).cmp(&d) {
        core::cmp::Ordering::Less => q,
        core::cmp::Ordering::Greater => q + 1,
        core::cmp::Ordering::Equal => q + (q & 1),
    }
}

macro_rules! fixed_suite {
    ($module:ident, $t:ty, $raw:ty) => {
        mod $module {
            use super::*;

            type T = $t;
            const FRAC: u32 = <$t>::FRAC_NBITS;
            const MIN: i128 = <$raw>::MIN as i128;
            const MAX: i128 = <$raw>::MAX as i128;

            fn raw(v: T) -> i128 {
                i128::from(v.to_bits())
            }

            fn of_raw(raw: i128) -> T {
                T::from_bits(raw.clamp(MIN, MAX) as $raw)
            }

            proptest! {
                #![proptest_config(config())]

                /// `from_f64` is `fixed`'s own saturating conversion (the
                /// one the golden streams were made with), but a NaN is
                /// zero rather than a panic; `try_from_f64` is `fixed`'s
                /// checked one.
                #[test]
                fn from_f64_is_fixeds_saturating_conversion_without_the_panic(v in awkward_f64(FRAC)) {
                    let expected = if v.is_nan() { T::ZERO } else { T::saturating_from_num(v) };
                    prop_assert_eq!(T::from_f64(v), expected, "from_f64({:e})", v);
                    prop_assert_eq!(T::try_from_f64(v), T::checked_from_num(v), "try_from_f64({:e})", v);
                    if let Some(x) = T::try_from_f64(v) {
                        prop_assert_eq!(x, T::from_f64(v), "try_from_f64 agrees with from_f64 when it answers");
                    }
                }

                /// Rounding to nearest, ties to even, for every input that
                /// fits: checked against the exact dyadic value of `v`.
                #[test]
                fn from_f64_rounds_to_nearest_ties_to_even(k in -(1_i64 << 50)..1 << 50, shift in 0_u32..8) {
                    // v = k / 2^(FRAC + shift), exactly.
                    let v = k as f64 * (-f64::from(FRAC + shift)).exp2();
                    let expected = round_div(i128::from(k), 1 << shift);
                    if (MIN..=MAX).contains(&expected) {
                        prop_assert_eq!(raw(T::from_f64(v)), expected, "from_f64({:e})", v);
                    } else {
                        prop_assert_eq!(T::try_from_f64(v), None);
                    }
                }

                /// `to_f64` is the value rounded to the nearest `f64` (the
                /// raw integer's own rounding, scaled by a power of two),
                /// and exact whenever the value has at most 53 significant
                /// bits: then it converts back to itself.
                #[test]
                fn to_f64_rounds_to_nearest_and_is_exact_where_it_can_be(bits in any::<$raw>()) {
                    let x = T::from_bits(bits);
                    prop_assert_eq!(x.to_f64(), bits as f64 * (-f64::from(FRAC)).exp2());
                    let magnitude = (bits as i128).unsigned_abs();
                    let significant = 128 - magnitude.leading_zeros() - magnitude.trailing_zeros();
                    if magnitude == 0 || significant <= 53 {
                        prop_assert_eq!(T::from_f64(x.to_f64()), x, "{} survives a trip through f64", x);
                    }
                }

                /// `v / d`: the exact quotient rounded once, saturating,
                /// never a wrap or a panic; `checked_div` says `None`
                /// exactly when it saturated or the divisor is zero.
                #[test]
                fn division_rounds_once_and_saturates(x in any::<$raw>(), y in any::<$raw>(), d in any::<$raw>(), small in any::<bool>()) {
                    let d = if small { d >> (<$raw>::BITS - 12) } else { d };
                    let (v, d) = (Vec2::new(T::from_bits(x), T::from_bits(y)), T::from_bits(d));
                    let quotient = (v / d).to_f64();
                    if d == T::ZERO {
                        prop_assert_eq!(v.checked_div(d), None);
                        let limit = |c: T| if c > T::ZERO { T::MAX } else if c < T::ZERO { T::MIN } else { T::ZERO };
                        prop_assert_eq!(v / d, Vec2::new(limit(v.x), limit(v.y)));
                    } else {
                        let exact = |c: T| {
                            let (n, m) = (raw(c) << FRAC, raw(d));
                            if m < 0 { round_div(-n, -m) } else { round_div(n, m) }
                        };
                        let (qx, qy) = (exact(v.x), exact(v.y));
                        prop_assert_eq!(v / d, Vec2::new(of_raw(qx), of_raw(qy)), "{} / {} (≈ {})", v, d, quotient);
                        let fits = (MIN..=MAX).contains(&qx) && (MIN..=MAX).contains(&qy);
                        prop_assert_eq!(v.checked_div(d).is_some(), fits, "{} / {}", v, d);
                        let mut w = v;
                        w /= d;
                        prop_assert_eq!(w, v / d);
                    }
                }

                /// `lerp` is `a·(1 − t) + b·t` rounded once, saturating.
                #[test]
                fn lerp_rounds_once_and_saturates(a in any::<[$raw; 2]>(), b in any::<[$raw; 2]>(), t in any::<$raw>(), unit in any::<bool>()) {
                    let one = 1_i128 << FRAC;
                    let t = if unit { T::from_bits((i128::from(t).rem_euclid(one + 1)) as $raw) } else { T::from_bits(t) };
                    let (va, vb) = (Vec2::from(a.map(T::from_bits)), Vec2::from(b.map(T::from_bits)));
                    let exact = |p: T, q: T| of_raw(round_div(raw(p) * (one - raw(t)) + raw(q) * raw(t), one));
                    prop_assert_eq!(va.lerp(vb, t), Vec2::new(exact(va.x, vb.x), exact(va.y, vb.y)));
                    prop_assert_eq!(va.lerp(vb, T::ZERO), va);
                    prop_assert_eq!(va.lerp(vb, T::ONE), vb);
                }

                /// `abs`, `min` and `max` component by component, the least
                /// value's magnitude saturating; `S * v` is `v * S`; the
                /// distance is the length of the exact difference.
                #[test]
                fn component_wise_operations(a in any::<[$raw; 2]>(), b in any::<[$raw; 2]>(), k in -64_i8..64) {
                    let (va, vb) = (Vec2::from(a.map(T::from_bits)), Vec2::from(b.map(T::from_bits)));
                    let abs = |c: T| if c == T::MIN { T::MAX } else { c.abs() };
                    prop_assert_eq!(va.abs(), Vec2::new(abs(va.x), abs(va.y)));
                    prop_assert_eq!(va.min(vb), Vec2::new(va.x.min(vb.x), va.y.min(vb.y)));
                    prop_assert_eq!(va.max(vb), Vec2::new(va.x.max(vb.x), va.y.max(vb.y)));
                    let small = va / T::from_num(256);
                    let k = T::from(k);
                    prop_assert_eq!(k * small, small * k);
                    let half = Vec2::new(va.x / 2, va.y / 2);
                    let other = Vec2::new(vb.x / 2, vb.y / 2);
                    prop_assert_eq!(half.distance(other), (half - other).length());
                    prop_assert_eq!(half.distance_squared(other), (half - other).length_squared());
                }
            }

            /// Ties go to the even neighbour, at both ends of the
            /// resolution; out of range saturates; NaN is zero.
            #[test]
            fn edge_cases() {
                let step = T::DELTA.to_f64();
                assert_eq!(raw(T::from_f64(0.5 * step)), 0);
                assert_eq!(raw(T::from_f64(1.5 * step)), 2);
                assert_eq!(raw(T::from_f64(-1.5 * step)), -2);
                assert_eq!(raw(T::from_f64(2.5 * step)), 2);
                assert_eq!(T::from_f64(f64::NAN), T::ZERO);
                assert_eq!(T::from_f64(f64::INFINITY), T::MAX);
                assert_eq!(T::from_f64(-1e300), T::MIN);
                assert_eq!(T::try_from_f64(f64::INFINITY), None);
                assert_eq!(T::try_from_f64(T::MAX.to_f64() * 2.0), None);
                assert_eq!(Vec2::<T>::from_f64(f64::NAN, 1e300), Vec2::new(T::ZERO, T::MAX));
                assert_eq!(Vec2::<T>::try_from_f64(1.0, f64::NAN), None);
                assert_eq!(Vec2::<T>::from_f64(1.5, -2.0).to_string(), "(1.5, -2)");
                assert_eq!(Vec2::new(T::MIN, T::MIN).abs(), Vec2::splat(T::MAX));
            }
        }
    };
}

fixed_suite!(i16f16, I16F16, i32);
fixed_suite!(i24f8, I24F8, i32);
fixed_suite!(i32f32, I32F32, i64);
fixed_suite!(i48f16, I48F16, i64);

macro_rules! float_suite {
    ($module:ident, $t:ty) => {
        mod $module {
            use super::*;

            type T = $t;

            proptest! {
                #![proptest_config(config())]

                /// For floats `from_f64` is the `as` cast, `to_f64` exact,
                /// and `try_from_f64` answers exactly when the value is
                /// finite in `T`.
                #[test]
                fn conversions_are_the_casts(v in awkward_f64(24)) {
                    let cast = v as T;
                    prop_assert_eq!(T::from_f64(v).to_bits(), cast.to_bits());
                    prop_assert_eq!(T::try_from_f64(v).map(T::to_bits), cast.is_finite().then(|| cast.to_bits()));
                    if !v.is_nan() {
                        prop_assert_eq!(T::from_f64(cast.to_f64()), cast);
                    }
                }

                /// `/` is the type's own division, component by component.
                #[test]
                fn division_is_the_types_own(x in any::<T>(), y in any::<T>(), d in any::<T>()) {
                    let q = Vec2::new(x, y) / d;
                    prop_assert_eq!((q.x.to_bits(), q.y.to_bits()), ((x / d).to_bits(), (y / d).to_bits()));
                    let finite = (x / d).is_finite() && (y / d).is_finite() && d != 0.0;
                    prop_assert_eq!(Vec2::new(x, y).checked_div(d).is_some(), finite);
                }
            }
        }
    };
}

float_suite!(f32s, f32);
float_suite!(f64s, f64);

/// The friction the issue started from: a fixed-point segment from `f64`
/// literals, printed.
#[test]
fn a_first_program_without_friction() {
    use geom_core::fixed::types::I32F32 as Reexported;

    let floor = Segment::<Reexported>::new(Vec2::from_f64(-10.0, 0.0), Vec2::from_f64(10.0, 0.0)).unwrap();
    assert_eq!(format!("{} to {}", floor.start(), floor.end()), "(-10, 0) to (10, 0)");
    let quarter = I32F32::from_f64(0.25);
    assert_eq!(quarter, I32F32::from_dyadic::<2>(1));
    assert_eq!(2.0 * Vec2::new(1.5_f64, -1.0), Vec2::new(3.0, -2.0));
    assert_eq!(I16F16::from_num(2) * Vec2::<I16F16>::from_f64(0.5, 1.0), Vec2::from_f64(1.0, 2.0));
    assert_eq!(format!("{:.1}", Vec2::new(1.25_f32, -0.0)), "(1.2, -0.0)");
    assert_eq!(Vec2::<f32>::from_f64(0.0, 2.0).normalize_or_zero(), Vec2::Y);
    let (x, y): (f64, f64) = Vec2::<I48F16>::from_f64(3.5, 4.0).to_f64().into();
    assert_eq!((x, y), (3.5, 4.0));
}
