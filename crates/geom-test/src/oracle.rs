//! The exact oracle: the same questions as `geom-core`, answered in
//! arbitrary-precision rationals, with no rounding anywhere.
//!
//! Squared distances, closest points and every yes/no answer are exact.
//! Quantities behind a square root (distances, depths, normals) are given as
//! `f64` computed from the exact squared value: one correctly rounded `f64`
//! square root of a correctly rounded quotient, within 1e-15 relative.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use crate::rational_to_f64;

/// An exact rational number.
pub type Q = BigRational;

/// An exact 2D point.
///
/// # Examples
///
/// ```
/// use geom_test::{Q, QVec};
///
/// let v = QVec::new(Q::from_integer(3.into()), Q::from_integer(4.into()));
/// assert_eq!(v.length_squared(), Q::from_integer(25.into()));
/// assert_eq!(v.to_f64(), (3.0, 4.0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QVec {
    /// The horizontal component.
    pub x: Q,
    /// The vertical component.
    pub y: Q,
}

impl QVec {
    /// A point from its components (see [`QVec`] for an example).
    pub fn new(x: Q, y: Q) -> Self {
        Self { x, y }
    }

    /// `self − rhs` (see [`QVec`] for an example).
    pub fn sub(&self, rhs: &Self) -> Self {
        Self::new(&self.x - &rhs.x, &self.y - &rhs.y)
    }

    /// `self + rhs` (see [`QVec`] for an example).
    pub fn add(&self, rhs: &Self) -> Self {
        Self::new(&self.x + &rhs.x, &self.y + &rhs.y)
    }

    /// `self · k` (see [`QVec`] for an example).
    pub fn scale(&self, k: &Q) -> Self {
        Self::new(&self.x * k, &self.y * k)
    }

    /// The dot product (see [`QVec`] for an example).
    pub fn dot(&self, rhs: &Self) -> Q {
        &self.x * &rhs.x + &self.y * &rhs.y
    }

    /// The 2D cross product `x·rhs.y − y·rhs.x` (see [`QVec`] for an
    /// example).
    pub fn cross(&self, rhs: &Self) -> Q {
        &self.x * &rhs.y - &self.y * &rhs.x
    }

    /// The squared length (see [`QVec`] for an example).
    pub fn length_squared(&self) -> Q {
        self.dot(self)
    }

    /// The coordinates as `f64` (see [`QVec`] for an example).
    pub fn to_f64(&self) -> (f64, f64) {
        (rational_to_f64(&self.x), rational_to_f64(&self.y))
    }
}

/// The exact closest point of segment `a`–`b` to `p`, and its parameter.
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// let (q, t) = oracle::closest_point_segment(&p(1, 5), &p(0, 0), &p(4, 0));
/// assert_eq!((q, t), (p(1, 0), Q::new(1.into(), 4.into())));
/// ```
pub fn closest_point_segment(p: &QVec, a: &QVec, b: &QVec) -> (QVec, Q) {
    let d = b.sub(a);
    let len2 = d.length_squared();
    if len2.is_zero() {
        return (a.clone(), Q::zero());
    }
    let t = p.sub(a).dot(&d) / &len2;
    let t = t.clamp(Q::zero(), Q::from_integer(BigInt::from(1)));
    (a.add(&d.scale(&t)), t)
}

/// The exact squared distance from `p` to segment `a`–`b`.
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// assert_eq!(oracle::dist2_point_segment(&p(7, 4), &p(0, 0), &p(4, 0)), Q::from_integer(25.into()));
/// ```
pub fn dist2_point_segment(p: &QVec, a: &QVec, b: &QVec) -> Q {
    let (q, _) = closest_point_segment(p, a, b);
    p.sub(&q).length_squared()
}

/// Whether `p` lies on segment `a`–`b` (`p` collinear and within its box).
fn on_segment(p: &QVec, a: &QVec, b: &QVec) -> bool {
    b.sub(a).cross(&p.sub(a)).is_zero()
        && p.x >= a.x.clone().min(b.x.clone())
        && p.x <= a.x.clone().max(b.x.clone())
        && p.y >= a.y.clone().min(b.y.clone())
        && p.y <= a.y.clone().max(b.y.clone())
}

/// Whether segments `a0`–`a1` and `b0`–`b1` share a point.
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// assert!(oracle::segments_intersect(&p(0, 0), &p(4, 0), &p(2, 0), &p(2, 3)));
/// assert!(!oracle::segments_intersect(&p(0, 0), &p(4, 0), &p(2, 1), &p(2, 3)));
/// ```
pub fn segments_intersect(a0: &QVec, a1: &QVec, b0: &QVec, b1: &QVec) -> bool {
    let da = a1.sub(a0);
    let db = b1.sub(b0);
    let o1 = da.cross(&b0.sub(a0)).signum();
    let o2 = da.cross(&b1.sub(a0)).signum();
    let o3 = db.cross(&a0.sub(b0)).signum();
    let o4 = db.cross(&a1.sub(b0)).signum();
    let opposite = |u: &Q, v: &Q| (u * v).is_negative();
    (opposite(&o1, &o2) && opposite(&o3, &o4))
        || on_segment(b0, a0, a1)
        || on_segment(b1, a0, a1)
        || on_segment(a0, b0, b1)
        || on_segment(a1, b0, b1)
}

/// A closest pair of points of segments `a0`–`a1` and `b0`–`b1`, and their
/// squared distance: a common point when they meet, else an end point of
/// one and its closest point on the other. (Parallel segments have many
/// closest pairs, all the same vector apart.)
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
/// use num_traits::Zero;
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// let (a, b, d2) = oracle::closest_pair_segment_segment(&p(0, 0), &p(4, 0), &p(2, 1), &p(2, 3));
/// assert_eq!((a, b, d2), (p(2, 0), p(2, 1), Q::from_integer(1.into())));
/// let (a, b, d2) = oracle::closest_pair_segment_segment(&p(0, 0), &p(4, 4), &p(0, 4), &p(4, 0));
/// assert_eq!((a, b, d2), (p(2, 2), p(2, 2), Q::zero()));
/// ```
pub fn closest_pair_segment_segment(a0: &QVec, a1: &QVec, b0: &QVec, b1: &QVec) -> (QVec, QVec, Q) {
    if segments_intersect(a0, a1, b0, b1) {
        let (da, db) = (a1.sub(a0), b1.sub(b0));
        let denominator = da.cross(&db);
        let common = if denominator.is_zero() {
            // Collinear or degenerate: an end point lies on the other.
            [(b0, a0, a1), (b1, a0, a1), (a0, b0, b1), (a1, b0, b1)]
                .into_iter()
                .find(|(p, s0, s1)| on_segment(p, s0, s1))
                .map_or_else(|| a0.clone(), |(p, _, _)| p.clone())
        } else {
            a0.add(&da.scale(&(b0.sub(a0).cross(&db) / denominator)))
        };
        return (common.clone(), common, Q::zero());
    }
    let pairs = [
        (a0.clone(), closest_point_segment(a0, b0, b1).0),
        (a1.clone(), closest_point_segment(a1, b0, b1).0),
        (closest_point_segment(b0, a0, a1).0, b0.clone()),
        (closest_point_segment(b1, a0, a1).0, b1.clone()),
    ];
    pairs
        .into_iter()
        .map(|(a, b)| {
            let d2 = a.sub(&b).length_squared();
            (a, b, d2)
        })
        .min_by(|x, y| x.2.cmp(&y.2))
        .expect("four candidates")
}

/// The exact squared distance between segments `a0`–`a1` and `b0`–`b1`.
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// let d2 = oracle::dist2_segment_segment(&p(0, 0), &p(4, 0), &p(2, 1), &p(2, 3));
/// assert_eq!(d2, Q::from_integer(1.into()));
/// ```
pub fn dist2_segment_segment(a0: &QVec, a1: &QVec, b0: &QVec, b1: &QVec) -> Q {
    if segments_intersect(a0, a1, b0, b1) {
        return Q::zero();
    }
    [
        dist2_point_segment(a0, b0, b1),
        dist2_point_segment(a1, b0, b1),
        dist2_point_segment(b0, a0, a1),
        dist2_point_segment(b1, a0, a1),
    ]
    .into_iter()
    .min()
    .expect("four candidates")
}

/// Exactly: is the squared distance `dist2` within `radius`?
///
/// # Examples
///
/// ```
/// use geom_test::{Q, oracle};
///
/// let q = |v: i64| Q::from_integer(v.into());
/// assert!(oracle::within(&q(25), &q(5))); // touching counts
/// assert!(!oracle::within(&q(26), &q(5)));
/// ```
pub fn within(dist2: &Q, radius: &Q) -> bool {
    *dist2 <= radius * radius
}

/// The gap `√dist2 − reach` between two shapes (negative: overlap), as an
/// `f64` accurate relative to the gap itself, not to the distances: computed
/// as `(dist2 − reach²) / (√dist2 + reach)` with an exact numerator.
///
/// # Examples
///
/// ```
/// use geom_test::{Q, oracle};
///
/// let q = |v: i64| Q::from_integer(v.into());
/// assert_eq!(oracle::gap(&q(25), &q(3)), 2.0);
/// assert_eq!(oracle::gap(&q(16), &q(5)), -1.0);
/// ```
pub fn gap(dist2: &Q, reach: &Q) -> f64 {
    let numerator = rational_to_f64(&(dist2 - reach * reach));
    let denominator = sqrt_f64(dist2) + rational_to_f64(reach);
    if denominator == 0.0 { 0.0 } else { numerator / denominator }
}

/// `√q` as a rational, rounded down to a multiple of `2^-200`, for `q ≥ 0`:
/// far finer than any scalar type's step, for measuring errors exactly.
///
/// # Examples
///
/// ```
/// use geom_test::{Q, oracle};
/// use num_bigint::BigInt;
///
/// let two = Q::from_integer(BigInt::from(2));
/// let root2 = oracle::sqrt_rational(&two);
/// let error = &root2 * &root2 - &two; // below √2, by less than 2^-200
/// assert!(error <= Q::from_integer(BigInt::from(0)));
/// assert!(error > Q::new(BigInt::from(-1), BigInt::from(1) << 190_u32));
/// ```
pub fn sqrt_rational(q: &Q) -> Q {
    let scale = BigInt::from(1) << 400_u32;
    let scaled: BigInt = (q * Q::from_integer(scale)).floor().to_integer();
    Q::new(scaled.sqrt(), BigInt::from(1) << 200_u32)
}

/// A distance from an exact squared distance, as `f64`.
///
/// # Examples
///
/// ```
/// use geom_test::{Q, oracle};
///
/// assert_eq!(oracle::sqrt_f64(&Q::from_integer(49.into())), 7.0);
/// ```
pub fn sqrt_f64(dist2: &Q) -> f64 {
    if !dist2.is_positive() {
        return 0.0;
    }
    // Scale by an even power of two into [1, 4) first, so that neither the
    // conversion nor the root can underflow or overflow: then both are
    // correctly rounded, and the result is within 1.5 ulp of √dist2.
    let bits = |v: &BigInt| i64::try_from(v.bits()).expect("a reasonable size");
    let half_exponent = (bits(dist2.numer()) - bits(dist2.denom())).div_euclid(2);
    let power = |e: i64| Q::from_integer(BigInt::from(1) << u32::try_from(e.unsigned_abs()).expect("in range"));
    let scaled = if half_exponent >= 0 { dist2 / power(2 * half_exponent) } else { dist2 * power(-2 * half_exponent) };
    let exponent = i32::try_from(half_exponent).expect("in range");
    rational_to_f64(&scaled).sqrt() * 2.0_f64.powi(exponent)
}

/// When a moving point first comes within reach of a segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FirstTouch {
    /// Not during the tick.
    Never,
    /// It is within reach at the start.
    AtStart,
    /// At this time in `(0, 1]`, to `f64` precision.
    At(f64),
}

/// The exact time at which a point moving from `c` by `d` (over `t ∈ [0,
/// 1]`) first comes within `reach` of segment `a`–`b`. The decision between
/// the three outcomes is exact; the time is the least root among the
/// segment's sides and end caps, each evaluated from exact rationals to
/// `f64` precision.
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// let q = |v: i64| Q::from_integer(v.into());
/// use oracle::FirstTouch;
/// // From (0, 0) by (8, 0) towards a wall at x = 5, radius 1: touches at 4/8.
/// assert_eq!(oracle::first_touch(&p(0, 0), &p(8, 0), &p(5, -3), &p(5, 3), &q(1)), FirstTouch::At(0.5));
/// assert_eq!(oracle::first_touch(&p(0, 0), &p(3, 0), &p(5, -3), &p(5, 3), &q(1)), FirstTouch::Never);
/// assert_eq!(oracle::first_touch(&p(4, 0), &p(3, 0), &p(5, -3), &p(5, 3), &q(1)), FirstTouch::AtStart);
/// ```
pub fn first_touch(c: &QVec, d: &QVec, a: &QVec, b: &QVec, reach: &Q) -> FirstTouch {
    let end = c.add(d);
    if !within(&dist2_segment_segment(c, &end, a, b), reach) {
        return FirstTouch::Never;
    }
    if within(&dist2_point_segment(c, a, b), reach) {
        return FirstTouch::AtStart;
    }
    let reach2 = reach * reach;
    let mut best = f64::INFINITY;
    // The end caps: |w + d·t|² = reach², smaller root, approaching.
    for e in [a, b] {
        let w = c.sub(e);
        let (qa, qb, qc) = (d.length_squared(), w.dot(d), w.length_squared() - &reach2);
        let disc = &qb * &qb - &qa * &qc;
        if qa.is_positive() && qb.is_negative() && !disc.is_negative() {
            let t = rational_to_f64(&qc) / (sqrt_f64(&disc) - rational_to_f64(&qb));
            best = best.min(t);
        }
    }
    // The sides: the line at distance `reach` on the point's side, reached
    // beside the segment.
    let ds = b.sub(a);
    let len2 = ds.length_squared();
    let w = c.sub(a);
    let (cross0, crossd) = (ds.cross(&w), ds.cross(d));
    let (side, rate) = if cross0.is_negative() { (-cross0, -crossd) } else { (cross0, crossd) };
    if len2.is_positive() && rate.is_negative() && side.clone() * &side >= &reach2 * &len2 {
        // (side − reach·|ds|) / −rate, with the difference taken exactly as
        // (side² − reach²·len2) / (side + reach·|ds|).
        let numerator = side.clone() * &side - &reach2 * &len2;
        // Whether the foot is on the segment is decided on a rational time
        // within 2^-200 of the exact one: in f64 the foot's terms can dwarf
        // a short motion's contribution.
        let t = numerator.clone() / ((side + reach * sqrt_rational(&len2)) * -rate);
        let foot = w.dot(&ds) + &t * d.dot(&ds);
        if !foot.is_negative() && foot <= len2 {
            best = best.min(rational_to_f64(&t));
        }
    }
    FirstTouch::At(best.clamp(0.0, 1.0))
}

/// The exact time at which core `a0`–`a1` moving by `d` first comes within
/// `reach` of the static core `b0`–`b1` (a capsule or segment sweep on the
/// relative motion). Within reach at the start is [`FirstTouch::AtStart`].
/// Otherwise, at the first touch an end point of one core is nearest to
/// the other (two segments that do not meet are nearest at an end point,
/// and one that does, first did so there), so it is the earliest of the
/// four end-point sweeps: `a`'s ends moving by `d` against `b`, and `b`'s
/// ends moving by `−d` against `a` (the other core sweeping across an end).
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, FirstTouch, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// let q = |v: i64| Q::from_integer(v.into());
/// // A flat blade at y = 4 from x = 0 to 10 moving down by 8 onto a post
/// // whose top is (5, 0): the post's end reaches the blade's middle at 4/8.
/// let t = oracle::first_touch_cores(&p(0, 4), &p(10, 4), &p(0, -8), &p(5, -3), &p(5, 0), &q(0));
/// assert_eq!(t, FirstTouch::At(0.5));
/// ```
pub fn first_touch_cores(a0: &QVec, a1: &QVec, d: &QVec, b0: &QVec, b1: &QVec, reach: &Q) -> FirstTouch {
    if within(&dist2_segment_segment(a0, a1, b0, b1), reach) {
        return FirstTouch::AtStart;
    }
    let back = QVec::new(-d.x.clone(), -d.y.clone());
    let touches = [
        first_touch(a0, d, b0, b1, reach),
        first_touch(a1, d, b0, b1, reach),
        first_touch(b0, &back, a0, a1, reach),
        first_touch(b1, &back, a0, a1, reach),
    ];
    touches.into_iter().fold(FirstTouch::Never, |first, touch| match (first, touch) {
        (FirstTouch::At(x), FirstTouch::At(y)) => FirstTouch::At(x.min(y)),
        (FirstTouch::Never, other) | (other, FirstTouch::Never) => other,
        // No end point is within reach at the start: the cores are not.
        (FirstTouch::AtStart, _) | (_, FirstTouch::AtStart) => unreachable!("the cores start apart"),
    })
}

/// The exact squared distance of the closest approach of core `a0`–`a1`
/// moving by `d` to the static core `b0`–`b1` over the tick: the least of
/// the distance at the start and the four end-point paths (see
/// [`first_touch_cores`]).
///
/// # Examples
///
/// ```
/// use geom_test::oracle::{self, Q, QVec};
///
/// let p = |x: i64, y: i64| QVec::new(Q::from_integer(x.into()), Q::from_integer(y.into()));
/// // The blade passes 1 above the post's top.
/// let d2 = oracle::path_dist2_cores(&p(0, 4), &p(10, 4), &p(0, -3), &p(5, -3), &p(5, 0));
/// assert_eq!(d2, Q::from_integer(1.into()));
/// ```
pub fn path_dist2_cores(a0: &QVec, a1: &QVec, d: &QVec, b0: &QVec, b1: &QVec) -> Q {
    let back = QVec::new(-d.x.clone(), -d.y.clone());
    [
        dist2_segment_segment(a0, a1, b0, b1),
        dist2_segment_segment(a0, &a0.add(d), b0, b1),
        dist2_segment_segment(a1, &a1.add(d), b0, b1),
        dist2_segment_segment(b0, &b0.add(&back), a0, a1),
        dist2_segment_segment(b1, &b1.add(&back), a0, a1),
    ]
    .into_iter()
    .min()
    .expect("five candidates")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(v: i64) -> Q {
        Q::from_integer(BigInt::from(v))
    }

    fn p(x: i64, y: i64) -> QVec {
        QVec::new(q(x), q(y))
    }

    #[test]
    fn closest_point_clamps_to_the_ends() {
        assert_eq!(closest_point_segment(&p(-3, 1), &p(0, 0), &p(4, 0)), (p(0, 0), q(0)));
        assert_eq!(closest_point_segment(&p(2, 5), &p(0, 0), &p(4, 0)), (p(2, 0), Q::new(1.into(), 2.into())));
        assert_eq!(dist2_point_segment(&p(7, 4), &p(0, 0), &p(4, 0)), q(25));
    }

    #[test]
    fn segment_intersection_covers_touching_and_collinear_cases() {
        assert!(segments_intersect(&p(0, 0), &p(4, 4), &p(0, 4), &p(4, 0)));
        assert!(segments_intersect(&p(0, 0), &p(4, 0), &p(2, 0), &p(2, 3))); // T
        assert!(segments_intersect(&p(0, 0), &p(4, 0), &p(3, 0), &p(6, 0))); // overlap
        assert!(!segments_intersect(&p(0, 0), &p(4, 0), &p(5, 0), &p(6, 0)));
        assert!(!segments_intersect(&p(0, 0), &p(4, 0), &p(2, 1), &p(2, 3)));
        assert_eq!(dist2_segment_segment(&p(0, 0), &p(4, 0), &p(2, 1), &p(2, 3)), q(1));
    }
}
