//! Strips and columns for the broad phase's sweeps, so that a tick costs
//! the same per body however many bodies there are.
//!
//! A sweep along x alone checks each box against every box whose left edge
//! lies within it, however far away in y: in a world twice as tall, twice
//! as many. And sorting the boxes by their left edges costs more per box
//! the more boxes there are. So the plane is cut into columns along x and
//! strips along y, each one to two times as wide (high) as a body's box
//! on average. Each box is put, by counting, in the order of the column of
//! its left edge, then into every strip it reaches, keeping that order;
//! each strip is swept on its own, along the columns. Two boxes that
//! overlap share the strip where the higher of their bottom edges lies, and
//! the pair is kept there only, so it is found exactly once; a box is
//! checked against the few boxes near it.
//!
//! Which column or strip a coordinate falls in is decided by a map that
//! never decreases (a point further right is never in a column further
//! left), and that is all the sweeps rely on: the pairs they find are the
//! pairs whose boxes overlap, compared in the scalar type itself, whatever
//! the columns and strips are. The map works on the values' bits as
//! integers, so it needs no division of scalars and no conversion: the raw
//! value of a fixed-point number, and for floats the bits of the
//! coordinate's distance from the lowest box edge lifted into one binade
//! (where the bits of positive floats grow evenly with the value).

use alloc::vec::Vec;

use super::aabb::Aabb;
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// How the coordinates along one axis map to columns (or strips): column
/// `(key(v) − base) >> shift`, held in `0..=last`.
#[derive(Clone, Copy, Debug)]
struct Axis<S> {
    /// The lowest box edge the layout was made for.
    origin: S,
    /// For floats, a power of two at least the extent of those boxes,
    /// added to each distance from `origin`: the sums lie in `[lift,
    /// 2·lift]`, where a float's bits grow evenly with its value.
    lift: S,
    base: u64,
    shift: u32,
    last: u32,
}

impl<S: Scalar> Axis<S> {
    /// The axis for boxes whose edges along it are `edges` (low, high):
    /// columns one to two times their mean size (measured on a sample of
    /// them), and no more columns than boxes.
    fn new(edges: impl ExactSizeIterator<Item = (S, S)> + Clone) -> Self {
        let mut axis = Self { origin: S::ZERO, lift: S::ONE, base: 0, shift: 0, last: 0 };
        let count = edges.len();
        let mut all = edges.clone();
        let Some((mut origin, mut end)) = all.next() else {
            return axis;
        };
        for (low, high) in all {
            if low < origin {
                origin = low;
            }
            if high > end {
                end = high;
            }
        }
        axis.origin = origin;
        if S::FORMAT.float {
            // At most some 250 doublings for an extent in the safe range;
            // a NaN (never: coordinates are validated) stops it.
            let extent = end - origin;
            while axis.lift < extent {
                axis.lift = axis.lift + axis.lift;
            }
        }
        axis.base = axis.key(origin);
        let span = axis.key(end).saturating_sub(axis.base);
        // The mean size of up to 64 boxes spread over the list.
        let step = count.div_ceil(SAMPLE).max(1);
        let (mut sizes, mut sampled) = (0_u128, 0_u128);
        for (low, high) in edges.step_by(step) {
            sizes += u128::from(axis.key(high).saturating_sub(axis.key(low)));
            sampled += 1;
        }
        let mean = u64::try_from(sizes / sampled.max(1)).unwrap_or(u64::MAX);
        // Columns a power of two wide, from the mean size up to twice it,
        // and wide enough that there are at most as many as boxes.
        let least = span / count as u64 + 1;
        let width = if mean > least { mean } else { least };
        axis.shift = u64::BITS - width.leading_zeros();
        axis.last = u32::try_from(span.checked_shr(axis.shift).unwrap_or(0)).unwrap_or(u32::MAX);
        axis
    }

    /// An integer that never decreases as `v` grows (for floats, from
    /// `origin` on).
    fn key(&self, v: S) -> u64 {
        if S::FORMAT.float {
            // Positive: its bits grow with it.
            ((v - self.origin) + self.lift).hash_bits()
        } else {
            // The raw value, sign-extended, with its sign bit flipped.
            v.hash_bits() ^ (1 << 63)
        }
    }

    /// The column `v` falls in.
    fn column(&self, v: S) -> u32 {
        // At or below the origin (and a NaN, which coordinates never are):
        // the first column.
        if S::FORMAT.float && v.partial_cmp(&self.origin) != Some(core::cmp::Ordering::Greater) {
            return 0;
        }
        let c = self.key(v).saturating_sub(self.base).checked_shr(self.shift).unwrap_or(0);
        if c > u64::from(self.last) { self.last } else { c as u32 }
    }
}

/// How many boxes the mean size is measured on.
const SAMPLE: usize = 64;

/// The columns along x and the strips along y of a tick's sweep.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout<S> {
    x: Axis<S>,
    y: Axis<S>,
}

impl<S: Scalar> Layout<S> {
    /// A layout sized for `boxes` (the bodies', the many).
    pub(super) fn new(boxes: &[Aabb<S>]) -> Self {
        Self {
            x: Axis::new(boxes.iter().map(|b| (b.min.x, b.max.x))),
            y: Axis::new(boxes.iter().map(|b| (b.min.y, b.max.y))),
        }
    }

    /// The number of strips.
    pub(super) fn strips(&self) -> usize {
        self.y.last as usize + 1
    }

    fn columns(&self) -> usize {
        self.x.last as usize + 1
    }

    /// The column and strip of a point.
    fn cell(&self, p: Vec2<S>) -> (u32, u32) {
        (self.x.column(p.x), self.y.column(p.y))
    }
}

/// Where a box lies: the columns of its left and right edges, the strips
/// of its bottom and top.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    pub(super) left: u32,
    pub(super) right: u32,
    pub(super) low: u32,
    pub(super) high: u32,
}

/// A box in a strip: the box, where it lies, and its index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Member<S> {
    pub(super) aabb: Aabb<S>,
    pub(super) place: Place,
    pub(super) index: u32,
}

/// Boxes spread over the strips of a layout: for each strip, the boxes
/// that reach into it, by the column of their left edge, then by index,
/// each with what a sweep needs of it (so that a sweep reads its strip in
/// order, not the boxes all over memory).
#[derive(Debug)]
pub(super) struct Strips<S> {
    /// Each box's place, by index.
    places: Vec<Place>,
    /// The boxes by the column of their left edge, then by index.
    order: Vec<u32>,
    /// Strip `s`'s boxes are `members[starts[s]..starts[s + 1]]`.
    starts: Vec<usize>,
    members: Vec<Member<S>>,
    /// Counts, then where the next box of each column or strip goes.
    cursors: Vec<usize>,
}

impl<S> Default for Strips<S> {
    fn default() -> Self {
        Self { places: Vec::new(), order: Vec::new(), starts: Vec::new(), members: Vec::new(), cursors: Vec::new() }
    }
}

impl<S: Scalar> Strips<S> {
    /// Spreads `boxes` over the strips of `layout`.
    pub(super) fn fill(&mut self, boxes: &[Aabb<S>], layout: &Layout<S>) {
        self.places.clear();
        self.places.extend(boxes.iter().map(|b| {
            let ((left, low), (right, high)) = (layout.cell(b.min), layout.cell(b.max));
            Place { left, right, low, high }
        }));
        // By the column of the left edge: counted, then placed in index
        // order.
        let columns = layout.columns();
        self.cursors.clear();
        self.cursors.resize(columns, 0);
        for place in &self.places {
            self.cursors[place.left as usize] += 1;
        }
        let mut at = 0;
        for cursor in &mut self.cursors {
            let n = *cursor;
            *cursor = at;
            at += n;
        }
        self.order.clear();
        self.order.resize(self.places.len(), 0);
        for (i, place) in self.places.iter().enumerate() {
            let cursor = &mut self.cursors[place.left as usize];
            self.order[*cursor] = i as u32;
            *cursor += 1;
        }
        // Then into the strips, in that order.
        let strips = layout.strips();
        self.starts.clear();
        self.starts.resize(strips + 1, 0);
        for place in &self.places {
            for s in place.low..=place.high {
                self.starts[s as usize + 1] += 1;
            }
        }
        for s in 0..strips {
            self.starts[s + 1] += self.starts[s];
        }
        self.cursors.clear();
        self.cursors.extend_from_slice(&self.starts[..strips]);
        self.members.clear();
        let filler = Member { aabb: Aabb { min: Vec2::ZERO, max: Vec2::ZERO }, place: Place::default(), index: 0 };
        self.members.resize(self.starts[strips], filler);
        for &index in &self.order {
            let place = self.places[index as usize];
            let member = Member { aabb: boxes[index as usize], place, index };
            for s in place.low..=place.high {
                let cursor = &mut self.cursors[s as usize];
                self.members[*cursor] = member;
                *cursor += 1;
            }
        }
    }

    /// The boxes that reach into strip `s`, by the column of their left
    /// edge, then by index.
    pub(super) fn strip(&self, s: usize) -> &[Member<S>] {
        &self.members[self.starts[s]..self.starts[s + 1]]
    }
}
