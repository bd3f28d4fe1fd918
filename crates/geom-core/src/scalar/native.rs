//! Fixed-point products, dot products and quotients from native integers.
//!
//! A product of two fixed-point values with `F` fractional bits is the
//! product of their raw integers, with `2F` fractional bits: exact in the
//! integer twice as wide (`i64` for `FixedI32`, `i128` for `FixedI64`),
//! and rounded back to `F` bits by one shift. A quotient is the dividend's
//! raw value shifted up by `F` bits, divided by the divisor's: exact in the
//! same wide integer, since a raw value and `F` together use at most 55
//! (`FixedI32`) or 111 (`FixedI64`) bits. Every result is the exact value
//! rounded once to nearest, ties to even, and saturating at the type's
//! limits: the same bits as the exact ring's `from_ratio` gives (checked by
//! the tests below), at the cost of a multiplication or a division of
//! machine integers instead of 256-bit ones.

/// Rounding and saturation of the wide integers, for both widths.
macro_rules! native {
    (
        $Narrow:ty,
        $Wide:ty,
        $shift:ident,
        $mul:ident,
        $dot:ident,
        $div:ident,
        $shift_wrap:ident,
        $mul_wrap:ident,
        $flight_wrap:ident
    ) => {
        /// `value / 2^k` (`1 ≤ k < bits`) rounded to nearest, ties to
        /// even, and saturated into the narrow type.
        #[inline]
        pub(crate) fn $shift(value: $Wide, k: u32) -> $Narrow {
            // Adding half less one, plus the quotient's lowest bit, then
            // flooring: a tie goes up exactly when the floor is odd. The
            // sums cannot overflow: `value` is at most a square of the
            // narrow type's extreme (or a sum of two, checked by the
            // caller), far below the wide type's maximum less `2^k`.
            let half = (1 as $Wide) << (k - 1);
            let odd = (value >> k) & 1;
            let q = (value + (half - 1 + odd)) >> k;
            if q > <$Narrow>::MAX as $Wide {
                <$Narrow>::MAX
            } else if q < <$Narrow>::MIN as $Wide {
                <$Narrow>::MIN
            } else {
                q as $Narrow
            }
        }

        /// The rounding shift above without the saturation: the rounded quotient's low
        /// bits, which are the quotient whenever it fits the narrow type
        /// (the caller's bound), and arbitrary bits, never a panic, when it
        /// does not.
        #[inline]
        pub(crate) fn $shift_wrap(value: $Wide, k: u32) -> $Narrow {
            let half = (1 as $Wide) << (k - 1);
            let odd = (value >> k) & 1;
            (value.wrapping_add(half - 1 + odd) >> k) as $Narrow
        }

        /// `a·b / 2^k`, rounded once, for a product known to fit.
        #[inline]
        pub(crate) fn $mul_wrap(a: $Narrow, b: $Narrow, k: u32) -> $Narrow {
            $shift_wrap(<$Wide>::from(a) * <$Wide>::from(b), k)
        }

        /// A value `v` that gains `g` `n` times, each time followed by
        /// its product with `h` (`/ 2^k`, rounded once) added to a sum:
        /// `(v + n·g, Σ_{i=1..n} (v + i·g)·h)`, as `n` steps of
        /// wrapping additions and the product above would make them, for values
        /// known to fit. The products `(v + i·g)·h = v·h + i·(g·h)` are
        /// exact in the wide type, so two products and `n` additions make
        /// them all.
        #[inline]
        pub(crate) fn $flight_wrap(v: $Narrow, g: $Narrow, h: $Narrow, n: u8, k: u32) -> ($Narrow, $Narrow) {
            let step = <$Wide>::from(g) * <$Wide>::from(h);
            let mut product = <$Wide>::from(v) * <$Wide>::from(h);
            let mut sum: $Narrow = 0;
            let mut add = || {
                product = product.wrapping_add(step);
                sum = sum.wrapping_add($shift_wrap(product, k));
            };
            if n == 8 {
                // The default substeps, unrolled.
                (0..8).for_each(|_| add());
            } else {
                (0..n).for_each(|_| add());
            }
            (v.wrapping_add(g.wrapping_mul(<$Narrow>::from(n))), sum)
        }

        /// `a·b / 2^k`, rounded once (see the module documentation).
        #[inline]
        pub(crate) fn $mul(a: $Narrow, b: $Narrow, k: u32) -> $Narrow {
            // |a·b| ≤ 2^(2·bits − 2): exact.
            $shift(<$Wide>::from(a) * <$Wide>::from(b), k)
        }

        /// `(a0·b0 + a1·b1) / 2^k`, rounded once.
        #[inline]
        pub(crate) fn $dot(a: ($Narrow, $Narrow), b: ($Narrow, $Narrow), k: u32) -> $Narrow {
            let (p, q) = (<$Wide>::from(a.0) * <$Wide>::from(b.0), <$Wide>::from(a.1) * <$Wide>::from(b.1));
            // Keep the rounding's additions clear of the wide type's
            // limits: a sum that large is beyond the narrow type's range
            // scaled by 2^k, and saturates anyway.
            let limit = (1 as <$Wide as Unsigned>::U) << (<$Wide>::BITS - 2);
            match p.checked_add(q) {
                Some(sum) if sum.unsigned_abs() < limit => $shift(sum, k),
                Some(sum) if sum < 0 => <$Narrow>::MIN,
                Some(_) => <$Narrow>::MAX,
                // Both of one sign, so the sign of either.
                None if p < 0 => <$Narrow>::MIN,
                None => <$Narrow>::MAX,
            }
        }

        /// `a·2^k / b`, rounded once to nearest (ties to even) and
        /// saturated; a zero `b` saturates by the sign of `a` (zero for a
        /// zero `a`).
        #[inline]
        pub(crate) fn $div(a: $Narrow, b: $Narrow, k: u32) -> $Narrow {
            let num = <$Wide>::from(a) << k;
            let den = <$Wide>::from(b);
            if den == 0 {
                return if a > 0 {
                    <$Narrow>::MAX
                } else if a < 0 {
                    <$Narrow>::MIN
                } else {
                    0
                };
            }
            // Floor division, then the remainder decides: above half a
            // divisor rounds up, exactly half rounds to the even quotient.
            let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
            let (q, r) = (num.div_euclid(den), num.rem_euclid(den));
            let twice = r << 1;
            let q = if twice > den || (twice == den && q & 1 == 1) { q + 1 } else { q };
            if q > <$Narrow>::MAX as $Wide {
                <$Narrow>::MAX
            } else if q < <$Narrow>::MIN as $Wide {
                <$Narrow>::MIN
            } else {
                q as $Narrow
            }
        }
    };
}

/// The unsigned counterpart of a wide integer, for the overflow guard.
trait Unsigned {
    type U;
}
impl Unsigned for i64 {
    type U = u64;
}
impl Unsigned for i128 {
    type U = u128;
}

native!(i32, i64, shift_round_64, mul_round_32, dot_round_32, div_round_32, shift_wrap_64, mul_wrap_32, flight_wrap_32);
native!(
    i64,
    i128,
    shift_round_128,
    mul_round_64,
    dot_round_64,
    div_round_64,
    shift_wrap_128,
    mul_wrap_64,
    flight_wrap_64
);

/// `(a0·b0 + a1·b1) / 2^k` for `FixedI32` raw values, rounded once, for
/// a sum known to fit.
#[inline]
pub(crate) fn dot_wrap_32(a: (i32, i32), b: (i32, i32), k: u32) -> i32 {
    let (p, q) = (i64::from(a.0) * i64::from(b.0), i64::from(a.1) * i64::from(b.1));
    shift_wrap_64(p.wrapping_add(q), k)
}

/// `(a0·b0 + a1·b1) / 2^k` for `FixedI64` raw values (`1 ≤ k < 64`),
/// rounded once, for a sum known to fit: [`shift_wrap_128`] of the wide
/// sum, worked in its two 64-bit halves. The bits are the same (bits `k`
/// to `k + 63` of the wrapped 128-bit sum, rounded by the same addition),
/// and the solver's loops take about ten instructions fewer a call: the
/// compiler otherwise moves the `i128` halves through vector registers and
/// back.
#[inline]
pub(crate) fn dot_wrap_64(a: (i64, i64), b: (i64, i64), k: u32) -> i64 {
    let (p, q) = (i128::from(a.0) * i128::from(b.0), i128::from(a.1) * i128::from(b.1));
    let (low, carry) = (p as u64).overflowing_add(q as u64);
    let high = ((p >> 64) as u64).wrapping_add((q >> 64) as u64).wrapping_add(u64::from(carry));
    // Half less one, plus the quotient's lowest bit: ties to even.
    let odd = (low >> k) & 1;
    let (low, carry) = low.overflowing_add((1_u64 << (k - 1)) - 1 + odd);
    let high = high.wrapping_add(u64::from(carry));
    ((high << (64 - k)) | (low >> k)) as i64
}

#[cfg(test)]
mod tests {
    use fixed::types::{I8F24, I16F16, I24F8, I32F32, I48F16};

    use crate::SplitMix;
    use crate::scalar::Scalar;
    use crate::scalar::exact::Rounding;
    use crate::scalar::private::Sealed;

    /// Raw values where rounding and saturation are decided: extremes,
    /// small values, halves, and arbitrary bits of every length.
    fn raw(rng: &mut SplitMix, bits: u32) -> i64 {
        let x = rng.next();
        let max = ((1_i128 << (bits - 1)) - 1) as i64;
        match x % 8 {
            0 => [0, 1, -1, max, -max - 1, max / 2 + 1, -(max / 2) - 1, 3][(x >> 8) as usize % 8],
            1 => ((x >> 3) % 1024) as i64 - 512,
            _ => {
                let length = ((x >> 3) % u64::from(bits)) as u32;
                let v = ((rng.next() >> (64 - bits)) & ((1_u64 << length) - 1).max(1)) as i64;
                if x & (1 << 40) == 0 { v } else { -v }
            }
        }
    }

    /// `flight_wrap` is `n` steps of `v + g` each followed by adding the
    /// rounded product `v·h` to a sum, bit for bit, for every step count
    /// up to 16 (the default 8 is unrolled), for a value and a gain within
    /// 2^-10 of the type's range, so that `v` never wraps (as the solver's
    /// bounds keep it), and any `h` (a product or sum that wraps wraps
    /// alike in both).
    fn flight_matches_its_steps<S: Scalar>(bits: u32, from_bits: impl Fn(i64) -> S) {
        let mut rng = SplitMix(0x666c_6967_6874 ^ u64::from(bits));
        let small = |rng: &mut SplitMix| raw(rng, bits - 10);
        for case in 0..20_000_u32 {
            let (v, g) = (from_bits(small(&mut rng)), from_bits(small(&mut rng)));
            let h = from_bits(raw(&mut rng, bits).rem_euclid(1 << (bits - 8)));
            let n = (case % 17) as u8;
            let (value, sum) = crate::scalar::flight_steps(v, g, h, n);
            let (flown, summed) = v.flight_wrap(g, h, n);
            assert_eq!(
                (flown.hash_bits(), summed.hash_bits()),
                (value.hash_bits(), sum.hash_bits()),
                "{v:?} {g:?} {h:?} {n}"
            );
        }
    }

    #[test]
    fn flight_matches_its_steps_in_every_width() {
        flight_matches_its_steps::<I16F16>(32, |r| I16F16::from_bits(r as i32));
        flight_matches_its_steps::<I24F8>(32, |r| I24F8::from_bits(r as i32));
        flight_matches_its_steps::<I32F32>(64, I32F32::from_bits);
        flight_matches_its_steps::<I48F16>(64, I48F16::from_bits);
    }

    /// The native product, dot product and quotient equal the exact
    /// ring's `from_ratio` of the same exact values, bit for bit, over
    /// values of every size, extremes and ties included (and the product
    /// rounded each way, `mul_rounded`, its `from_ratio_rounded`); and the
    /// wrapping product and dot product equal them wherever they do not
    /// saturate.
    fn agrees_with_the_exact_ring<S: Scalar>(bits: u32, from_bits: impl Fn(i64) -> S) {
        let mut rng = SplitMix(0x6e61_7469_7665 ^ u64::from(bits));
        for _ in 0..200_000 {
            let [a, b, c, d] = [0; 4].map(|_| from_bits(raw(&mut rng, bits)));
            let product = S::from_ratio(a.to_exact() * b.to_exact(), S::EXACT_ONE);
            assert_eq!(a.mul_round(b), product, "{a} · {b}");
            for mode in [Rounding::Nearest, Rounding::Down, Rounding::Up, Rounding::TowardZero] {
                let rounded = S::from_ratio_rounded(a.to_exact() * b.to_exact(), S::EXACT_ONE, mode);
                assert_eq!(a.mul_rounded(b, mode), rounded, "{a} · {b}, {mode:?}");
            }
            let dot = S::from_ratio(a.to_exact() * b.to_exact() + c.to_exact() * d.to_exact(), S::EXACT_ONE);
            assert_eq!(S::dot_round((a, c), (b, d)), dot, "{a}·{b} + {c}·{d}");
            // Unsaturated, the wrapping forms are the same values.
            let saturated = |v: S| v == from_bits(i64::MAX >> (64 - bits)) || v == from_bits(i64::MIN >> (64 - bits));
            if !saturated(product) {
                assert_eq!(a.mul_wrap(b), product, "{a} · {b}");
            }
            if !saturated(dot) {
                assert_eq!(S::dot_wrap((a, c), (b, d)), dot, "{a}·{b} + {c}·{d}");
            }
            if b > S::ZERO {
                let quotient = S::from_ratio(a.to_exact() * S::EXACT_ONE, b.to_exact());
                assert_eq!(a.div_round(b), quotient, "{a} / {b}");
            }
        }
    }

    #[test]
    fn native_products_and_quotients_agree_with_the_exact_ring() {
        agrees_with_the_exact_ring::<I16F16>(32, |b| I16F16::from_bits(b as i32));
        agrees_with_the_exact_ring::<I24F8>(32, |b| I24F8::from_bits(b as i32));
        agrees_with_the_exact_ring::<I8F24>(32, |b| I8F24::from_bits(b as i32));
        agrees_with_the_exact_ring::<I32F32>(64, I32F32::from_bits);
        agrees_with_the_exact_ring::<I48F16>(64, I48F16::from_bits);
    }

    #[test]
    fn ties_go_to_even_and_extremes_saturate() {
        let h = |v: f64| I16F16::from_num(v);
        // 2^-16 · 0.5 = 2^-17, a tie between 0 and 2^-16: to 0, the even one.
        assert_eq!(I16F16::DELTA.mul_round(h(0.5)), 0);
        // 3·2^-16 · 0.5: a tie between 1 and 2 steps: to 2.
        assert_eq!((I16F16::DELTA * 3).mul_round(h(0.5)), I16F16::DELTA * 2);
        assert_eq!(I16F16::MAX.mul_round(I16F16::MAX), I16F16::MAX);
        assert_eq!(I16F16::MIN.mul_round(I16F16::MAX), I16F16::MIN);
        assert_eq!(I32F32::MIN.mul_round(I32F32::MIN), I32F32::MAX);
        assert_eq!(I32F32::dot_round((I32F32::MIN, I32F32::MIN), (I32F32::MIN, I32F32::MIN)), I32F32::MAX);
        assert_eq!(I32F32::ONE.div_round(I32F32::ZERO), I32F32::MAX);
        assert_eq!((-I32F32::ONE).div_round(I32F32::ZERO), I32F32::MIN);
        assert_eq!(I32F32::ZERO.div_round(I32F32::ZERO), 0);
        assert_eq!(I32F32::ONE.div_round(I32F32::from_num(3)), I32F32::from_bits(0x5555_5555));
    }

    /// The property: `frame_narrow` (the centres' difference in the narrow
    /// ring, `contact_circle_circle`'s path) gives the same normal, offset
    /// and distance as `frame` of the same values in the full ring (and
    /// `distance_narrow` the same distance), bit for
    /// bit, for differences of every size (the estimated path below 2^46,
    /// the exact fallback above it, zero) and radii of every size.
    fn narrow_frame_agrees_with_the_exact_ring<S: Scalar>(bits: u32, from_bits: impl Fn(i64) -> S) {
        use crate::scalar::exact::Exact;
        let mut rng = SplitMix(0x0066_7261_6d65 ^ u64::from(bits));
        // Coordinates within the documented range (below 2^(bits - 3) in
        // raw units), and their differences.
        let coordinate = |rng: &mut SplitMix| from_bits(raw(rng, bits) >> 3).to_narrow();
        for _ in 0..100_000 {
            let x = coordinate(&mut rng) - coordinate(&mut rng);
            let y = coordinate(&mut rng) - coordinate(&mut rng);
            let length = from_bits((raw(&mut rng, bits) >> 3).abs());
            let len2 = x * x + y * y;
            let narrow = S::frame_narrow((x, y), len2, None, length);
            let full = <S::Exact as Exact>::from_narrow;
            let exact = S::frame(full(x), full(y), length, Some((full(len2), <S::Exact as Exact>::ONE)), true);
            assert_eq!(S::distance_narrow(len2, None), exact.distance, "√{len2:?}");
            assert_eq!(
                (narrow.normal, narrow.offset, narrow.distance),
                (exact.normal, exact.offset, exact.distance),
                "({x:?}, {y:?}) at {length}"
            );
        }
    }

    /// The property: inside a segment, `frame_narrow` with `cross` (the
    /// perpendicular to the point and its distance from the line, `cross /
    /// √len2`, from the narrow ring: `contact_circle_segment`'s path),
    /// `distance_narrow` (that distance alone) and `lerp_narrow` (the closest point, `s +
    /// d·t/len2`) give the same bits as the full ring's `frame` and
    /// `from_sqrt_ratio` of the squared distance `cross² / len2` and its
    /// `from_ratio` of the point, for segments and points of every size, and on a
    /// half-unit grid, where the closest point falls on ties of the
    /// rounding.
    fn narrow_line_agrees_with_the_exact_ring<S: Scalar>(bits: u32, from_bits: impl Fn(i64) -> S) {
        use crate::scalar::exact::Exact;
        let mut rng = SplitMix(0x6c69_6e65 ^ u64::from(bits));
        let zero = <<S::Exact as Exact>::Narrow as Exact>::ZERO;
        let (full, product) = (<S::Exact as Exact>::from_narrow, <S::Exact as Exact>::product);
        for i in 0..100_000 {
            let coordinate = |rng: &mut SplitMix| {
                if i % 4 == 0 {
                    S::from_f64(f64::from((rng.next() % 33) as u32) * 0.5 - 8.0).to_narrow()
                } else {
                    from_bits(raw(rng, bits) >> 3).to_narrow()
                }
            };
            let [sx, sy, ex, ey, px, py] = [(); 6].map(|()| coordinate(&mut rng));
            let (dx, dy, wx, wy) = (ex - sx, ey - sy, px - sx, py - sy);
            let len2 = dx * dx + dy * dy;
            if len2 == zero {
                continue;
            }
            let cross = dx * wy - dy * wx;
            let along = wx * dx + wy * dy;
            let t = if along < zero {
                zero
            } else if along > len2 {
                len2
            } else {
                along
            };
            let length = from_bits((raw(&mut rng, bits) >> 3).abs());
            let (x, y) = if cross < zero { (dy, zero - dx) } else { (zero - dy, dx) };
            let line = S::frame_narrow((x, y), len2, Some(cross), length);
            let exact = S::frame(full(x), full(y), length, Some((product(cross, cross), full(len2))), true);
            assert_eq!(
                (line.normal, line.offset, line.distance),
                (exact.normal, exact.offset, exact.distance),
                "({x:?}, {y:?}), cross {cross:?}, at {length}"
            );
            let distance = S::from_sqrt_ratio(product(cross, cross), full(len2));
            assert_eq!(S::distance_narrow(len2, Some(cross)), distance, "|{cross:?}| / √{len2:?}");
            let lerp = S::lerp_narrow([sx, sy], [dx, dy], t, len2);
            let exact = [(sx, dx), (sy, dy)].map(|(s, d)| S::from_ratio(product(s, len2) + product(d, t), full(len2)));
            assert_eq!(lerp, exact, "({sx:?}, {sy:?}) + ({dx:?}, {dy:?})·{t:?}/{len2:?}");
        }
    }

    #[test]
    fn the_narrow_line_agrees_with_the_exact_ring() {
        narrow_line_agrees_with_the_exact_ring::<I16F16>(32, |b| I16F16::from_bits(b as i32));
        narrow_line_agrees_with_the_exact_ring::<I8F24>(32, |b| I8F24::from_bits(b as i32));
        narrow_line_agrees_with_the_exact_ring::<I32F32>(64, I32F32::from_bits);
        narrow_line_agrees_with_the_exact_ring::<I48F16>(64, I48F16::from_bits);
    }

    #[test]
    fn the_narrow_frame_agrees_with_the_exact_ring() {
        narrow_frame_agrees_with_the_exact_ring::<I16F16>(32, |b| I16F16::from_bits(b as i32));
        narrow_frame_agrees_with_the_exact_ring::<I8F24>(32, |b| I8F24::from_bits(b as i32));
        narrow_frame_agrees_with_the_exact_ring::<I32F32>(64, I32F32::from_bits);
        narrow_frame_agrees_with_the_exact_ring::<I48F16>(64, I48F16::from_bits);
    }
}
