//! The world's own arithmetic: products, dot products and quotients each
//! rounded once to nearest from the exact value (from native integers for
//! fixed point: see `scalar/native.rs`), and the holds that keep sums of
//! them inside a fixed-point type's headroom.
//!
//! The fixed-point types hold eight times [`Scalar::MAX_COORD`]. Every
//! value the world keeps (a position, a velocity, an impulse) is held
//! within `±MAX_COORD`, and every intermediate the solver adds is held
//! within `±2·MAX_COORD` first ([`hold`]), so no sum of two of them can
//! overflow; floats are held the same way, so they never reach infinity.

use crate::query::kernel::clamp_to_range;
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// `a·b`, rounded once to nearest (saturating).
#[inline]
pub(super) fn mul<S: Scalar>(a: S, b: S) -> S {
    a.mul_round(b)
}

/// `a·b` for vectors, rounded once to nearest (saturating).
#[inline]
pub(super) fn dot<S: Scalar>(a: Vec2<S>, b: Vec2<S>) -> S {
    S::dot_round((a.x, a.y), (b.x, b.y))
}

/// `v·k`, each component rounded once to nearest (saturating).
#[inline]
pub(super) fn scale<S: Scalar>(v: Vec2<S>, k: S) -> Vec2<S> {
    Vec2::new(v.x.mul_round(k), v.y.mul_round(k))
}

/// `a / b` for `b > 0`, rounded once to nearest (saturating).
#[inline]
pub(super) fn ratio<S: Scalar>(a: S, b: S) -> S {
    a.div_round(b)
}

/// `√(a·b)` for `a, b ≥ 0`, the exact value rounded once: the friction of
/// a contact.
pub(super) fn geometric_mean<S: Scalar>(a: S, b: S) -> S {
    if a <= S::ZERO || b <= S::ZERO {
        // Frictionless, the default: no square root to take.
        return S::ZERO;
    }
    // (deg 1 · deg 1) / deg 0 = deg 2 under the root.
    S::from_sqrt_ratio(a.to_exact() * b.to_exact(), <S::Exact as crate::scalar::Exact>::ONE)
}

/// The size of a value (within the safe range: `-MIN` overflows a
/// fixed-point type).
#[inline]
pub(super) fn abs<S: Scalar>(v: S) -> S {
    if v < S::ZERO { -v } else { v }
}

/// The larger of two values.
#[inline]
pub(super) fn max<S: Scalar>(a: S, b: S) -> S {
    if b > a { b } else { a }
}

/// The smaller of two values.
#[inline]
pub(super) fn min<S: Scalar>(a: S, b: S) -> S {
    if b < a { b } else { a }
}

/// `v` held within `±2·MAX_COORD`: any two held values add without
/// overflowing a fixed-point type (a NaN, which the world never makes,
/// passes through).
#[inline]
pub(super) fn hold<S: Scalar>(v: S) -> S {
    let limit = S::MAX_COORD + S::MAX_COORD;
    if v > limit {
        limit
    } else if v < -limit {
        -limit
    } else {
        v
    }
}

/// Both components [`hold`]'s.
#[inline]
pub(super) fn hold_vec<S: Scalar>(v: Vec2<S>) -> Vec2<S> {
    Vec2::new(hold(v.x), hold(v.y))
}

/// `a + b`, both held first and the sum held again.
#[inline]
pub(super) fn add_held<S: Scalar>(a: Vec2<S>, b: Vec2<S>) -> Vec2<S> {
    hold_vec(hold_vec(a) + hold_vec(b))
}

/// `v` held within the safe range, as every value the world keeps.
#[inline]
pub(super) fn in_range<S: Scalar>(v: Vec2<S>) -> Vec2<S> {
    clamp_to_range(v)
}

/// `|v.x| + |v.y|`, held: an upper bound of the length, without a root.
#[inline]
pub(super) fn manhattan<S: Scalar>(v: Vec2<S>) -> S {
    hold(abs(hold(v.x)) + abs(hold(v.y)))
}
