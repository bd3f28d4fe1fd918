//! The broad phase: which pairs are worth a narrow-phase query this tick.
//!
//! Sort and sweep on x: every body and collider gets a box, the boxes are
//! sorted by their left edge, and a sweep keeps the boxes still open at each
//! left edge; pairs whose boxes also overlap in y are kept. The output is
//! sorted, so it does not depend on the order in which the sweep met the
//! pairs, and the step consumes it in that order.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::{Body, Collider};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// An axis-aligned box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aabb<S> {
    pub(crate) min: Vec2<S>,
    pub(crate) max: Vec2<S>,
}

impl<S: Scalar> Aabb<S> {
    /// The box around a centre with a half-size `reach` on both axes.
    fn around(center: Vec2<S>, reach: S) -> Self {
        Self { min: Vec2::new(center.x - reach, center.y - reach), max: Vec2::new(center.x + reach, center.y + reach) }
    }

    /// The box around two points, grown by `reach`.
    fn spanning(a: Vec2<S>, b: Vec2<S>, reach: S) -> Self {
        let order = |u: S, v: S| if u < v { (u, v) } else { (v, u) };
        let (x0, x1) = order(a.x, b.x);
        let (y0, y1) = order(a.y, b.y);
        Self { min: Vec2::new(x0 - reach, y0 - reach), max: Vec2::new(x1 + reach, y1 + reach) }
    }

    fn overlaps_y(&self, other: &Self) -> bool {
        self.min.y <= other.max.y && other.min.y <= self.max.y
    }
}

/// The box of a static collider.
pub(crate) fn collider_box<S: Scalar>(collider: &Collider<S>) -> Aabb<S> {
    match collider {
        Collider::Segment(s) => Aabb::spanning(s.start(), s.end(), S::ZERO),
        Collider::Capsule(c) => Aabb::spanning(c.segment().start(), c.segment().end(), c.radius()),
        Collider::Circle(c) => Aabb::around(c.center(), c.radius()),
    }
}

/// The box a body can reach during a tick: every point within
/// `|vx| + |vy|` (at least the distance it travels, bounces included, since
/// no collision speeds it up) plus three radii (room for the push-out moves
/// after the sweep) of its centre.
pub(crate) fn body_box<S: Scalar>(body: &Body<S>) -> Aabb<S> {
    let abs = |v: S| if v < S::ZERO { -v } else { v };
    let r = body.radius();
    let v = body.velocity();
    Aabb::around(body.position(), abs(v.x) + abs(v.y) + r + r + r)
}

/// The pairs to examine this tick.
#[derive(Debug, Default)]
pub(crate) struct Pairs {
    /// The colliders whose boxes meet each body's box, body by body, each
    /// body's ascending: body `i`'s are `colliders[offsets[i]..offsets[i + 1]]`.
    colliders: Vec<u32>,
    offsets: Vec<usize>,
    /// The pairs of bodies (indices `i < j`) whose boxes meet, ascending.
    pub(crate) bodies: Vec<(u32, u32)>,
}

impl Pairs {
    /// The indices of the colliders whose boxes meet body `i`'s, ascending.
    pub(crate) fn colliders_of(&self, i: usize) -> &[u32] {
        &self.colliders[self.offsets[i]..self.offsets[i + 1]]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Entry {
    Collider(u32),
    Body(u32),
}

fn cmp<S: Scalar>(a: S, b: S) -> Ordering {
    // Coordinates are validated finite, so there is no unordered pair.
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

/// Finds the pairs of boxes that overlap, by sort and sweep on x.
pub(crate) fn pairs<S: Scalar>(body_boxes: &[Aabb<S>], collider_boxes: &[Aabb<S>]) -> Pairs {
    let mut entries: Vec<(Aabb<S>, Entry)> = collider_boxes
        .iter()
        .enumerate()
        .map(|(i, b)| (*b, Entry::Collider(i as u32)))
        .chain(body_boxes.iter().enumerate().map(|(i, b)| (*b, Entry::Body(i as u32))))
        .collect();
    entries.sort_unstable_by(|(a, ea), (b, eb)| cmp(a.min.x, b.min.x).then(ea.cmp(eb)));
    let mut body_collider: Vec<(u32, u32)> = Vec::new();
    let mut bodies: Vec<(u32, u32)> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for (index, (aabb, entry)) in entries.iter().enumerate() {
        open.retain(|&o| entries[o].0.max.x >= aabb.min.x);
        for &o in &open {
            let (other, other_entry) = &entries[o];
            if !aabb.overlaps_y(other) {
                continue;
            }
            match (*entry, *other_entry) {
                (Entry::Body(b), Entry::Collider(c)) | (Entry::Collider(c), Entry::Body(b)) => {
                    body_collider.push((b, c));
                }
                (Entry::Body(a), Entry::Body(b)) => bodies.push((a.min(b), a.max(b))),
                (Entry::Collider(_), Entry::Collider(_)) => {}
            }
        }
        open.push(index);
    }
    body_collider.sort_unstable();
    bodies.sort_unstable();
    // Offsets of each body's run in the sorted list.
    let mut offsets = Vec::with_capacity(body_boxes.len() + 1);
    let mut at = 0;
    for body in 0..=body_boxes.len() as u32 {
        while at < body_collider.len() && body_collider[at].0 < body {
            at += 1;
        }
        offsets.push(at);
    }
    Pairs { colliders: body_collider.into_iter().map(|(_, c)| c).collect(), offsets, bodies }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(spec: &[(f64, f64, f64, f64)]) -> Vec<Aabb<f64>> {
        spec.iter().map(|&(x0, y0, x1, y1)| Aabb { min: Vec2::new(x0, y0), max: Vec2::new(x1, y1) }).collect()
    }

    #[test]
    fn sort_and_sweep_finds_exactly_the_overlapping_boxes() {
        // Brute force over a grid of boxes must agree with the sweep.
        let mut body_spec = Vec::new();
        for i in 0..12 {
            let x = f64::from(i) * 1.5 - 6.0;
            let y = f64::from((i * 7) % 5) - 2.0;
            body_spec.push((x, y, x + 2.0 + f64::from(i % 3), y + 1.0));
        }
        let bodies = boxes(&body_spec);
        let colliders = boxes(&[(-10.0, -0.5, 10.0, -0.5), (3.0, -3.0, 3.0, 3.0), (20.0, 0.0, 21.0, 1.0)]);
        let found = pairs(&bodies, &colliders);
        let overlap = |a: &Aabb<f64>, b: &Aabb<f64>| {
            a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y
        };
        for (i, a) in bodies.iter().enumerate() {
            let expected: Vec<u32> =
                colliders.iter().enumerate().filter(|(_, c)| overlap(a, c)).map(|(j, _)| j as u32).collect();
            assert_eq!(found.colliders_of(i), expected, "colliders of body {i}");
        }
        let mut expected = Vec::new();
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                if overlap(&bodies[i], &bodies[j]) {
                    expected.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(found.bodies, expected);
    }
}
