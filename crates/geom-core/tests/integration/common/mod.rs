//! What every per-type test suite shares: the `TestScalar` helper trait,
//! shape builders from `f64` literals, and assertions that explain
//! themselves.
#![allow(dead_code, unreachable_pub, clippy::unreadable_literal)]

use core::fmt::Debug;

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::{Capsule, Circle, Contact, Scalar, Segment, Vec2};

/// What the tests need on top of [`Scalar`] (whose `from_f64` and `to_f64`
/// give literals and comparisons): the type's tolerance and its smallest
/// step.
pub trait TestScalar: Scalar + Debug {
    /// Absolute tolerance for results of magnitude ≤ 16: a few rounding
    /// steps of the type.
    const TOL: f64;
    /// Whether the type's yes/no answers are exact (fixed point).
    const EXACT: bool;
    fn wide_f(w: Self::Wide) -> f64;
    /// The nearest value above `self` that the kernels tell apart from it at
    /// the magnitudes these tests use (≤ 32): the next representable value
    /// for fixed-point types and `f32` (whose differences are exact in the
    /// `f64` kernels), and 2^-47, a rounding step at 32, for `f64`.
    fn step_up(self) -> Self;
}

impl TestScalar for f32 {
    const TOL: f64 = 1e-5;
    const EXACT: bool = false;
    fn wide_f(w: f32) -> f64 {
        f64::from(w)
    }
    fn step_up(self) -> Self {
        self.next_up()
    }
}

impl TestScalar for f64 {
    const TOL: f64 = 1e-12;
    const EXACT: bool = false;
    fn wide_f(w: f64) -> f64 {
        w
    }
    fn step_up(self) -> Self {
        if self.abs() > 32.0 { self.next_up() } else { self + 2.0_f64.powi(-47) }
    }
}

macro_rules! test_fixed {
    ($t:ty, $tol:expr) => {
        impl TestScalar for $t {
            const TOL: f64 = $tol;
            const EXACT: bool = true;
            fn wide_f(w: Self::Wide) -> f64 {
                w.to_num()
            }
            fn step_up(self) -> Self {
                self + <$t>::DELTA
            }
        }
    };
}

test_fixed!(I16F16, 4.0 / 65536.0);
test_fixed!(I32F32, 4.0 / 4294967296.0);
test_fixed!(I48F16, 4.0 / 65536.0);

pub fn v<S: TestScalar>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(S::from_f64(x), S::from_f64(y))
}

pub fn seg<S: TestScalar>(ax: f64, ay: f64, bx: f64, by: f64) -> Segment<S> {
    Segment::new(v(ax, ay), v(bx, by)).expect("test segment in range")
}

pub fn circle<S: TestScalar>(x: f64, y: f64, r: f64) -> Circle<S> {
    Circle::new(v(x, y), S::from_f64(r)).expect("test circle in range")
}

pub fn capsule<S: TestScalar>(ax: f64, ay: f64, bx: f64, by: f64, r: f64) -> Capsule<S> {
    Capsule::new(v(ax, ay), v(bx, by), S::from_f64(r)).expect("test capsule in range")
}

#[track_caller]
pub fn assert_near<S: TestScalar>(actual: S, expected: f64, what: &str) {
    let diff = (actual.to_f64() - expected).abs();
    assert!(
        diff <= S::TOL,
        "{what}: got {actual:?} ({}), expected {expected}, off by {diff:e} > {:e}",
        actual.to_f64(),
        S::TOL
    );
}

#[track_caller]
pub fn assert_vec_near<S: TestScalar>(actual: Vec2<S>, x: f64, y: f64, what: &str) {
    assert_near(actual.x, x, &format!("{what}.x"));
    assert_near(actual.y, y, &format!("{what}.y"));
}

#[track_caller]
pub fn assert_contact<S: TestScalar>(c: Option<Contact<S>>, point: (f64, f64), normal: (f64, f64), depth: f64) {
    let c = c.expect("a contact");
    assert_vec_near(c.point, point.0, point.1, "point");
    assert_vec_near(c.normal, normal.0, normal.1, "normal");
    assert_near(c.depth, depth, "depth");
}

/// The property tests' configuration, as `geom_test::config()` has it:
/// `cases` cases with `GEOM_TEST_FULL=1` (as `cargo xtask ci` runs them), an
/// eighth of them (at least 64) otherwise, from a fixed `seed`, so every
/// run checks the same ones; `PROPTEST_CASES` and `PROPTEST_RNG_SEED`
/// override either.
pub fn proptest_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    let mut config = proptest::test_runner::Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        let full = std::env::var_os("GEOM_TEST_FULL").is_some_and(|v| v == "1");
        config.cases = if full { cases } else { (cases / 8).max(64) };
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(seed);
    }
    config
}
