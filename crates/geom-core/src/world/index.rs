//! The broad phase: which pairs are worth a narrow-phase query this tick,
//! and which shapes a world query needs to look at.
//!
//! Sort and sweep on x: every body and collider gets a box, the boxes are
//! sorted by their left edge, and a sweep keeps the boxes still open at each
//! left edge; pairs whose boxes also overlap in y are kept. The output is
//! sorted, so it does not depend on the order in which the sweep met the
//! pairs, and the step consumes it in that order.
//!
//! The sorted boxes are then grouped into a tree: runs of neighbouring
//! boxes, each run's box the union of its boxes, halved until a run is a
//! handful of boxes. A body that a collision sends beyond its box during
//! the tick, and the world queries between ticks, look shapes up in it.
//! The boxes hold every shape where it ends the tick (each body's box is
//! grown to its final position after the step), so the tree serves queries
//! until something is added, removed or moved by hand.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::step::abs;
use super::{Body, Collider, Shape};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Aabb<S> {
    pub(crate) min: Vec2<S>,
    pub(crate) max: Vec2<S>,
}

impl<S: Scalar> Aabb<S> {
    /// The box around a centre with a half-size `reach` on both axes.
    pub(crate) fn around(center: Vec2<S>, reach: S) -> Self {
        Self { min: Vec2::new(center.x - reach, center.y - reach), max: Vec2::new(center.x + reach, center.y + reach) }
    }

    /// The box around two points, grown by `reach`.
    pub(crate) fn spanning(a: Vec2<S>, b: Vec2<S>, reach: S) -> Self {
        Self::around(a, reach).union(&Self::around(b, reach))
    }

    /// The smallest box holding both.
    pub(crate) fn union(&self, other: &Self) -> Self {
        let min = |u: S, v: S| if v < u { v } else { u };
        let max = |u: S, v: S| if v > u { v } else { u };
        Self {
            min: Vec2::new(min(self.min.x, other.min.x), min(self.min.y, other.min.y)),
            max: Vec2::new(max(self.max.x, other.max.x), max(self.max.y, other.max.y)),
        }
    }

    /// Whether the boxes overlap or touch.
    pub(crate) fn overlaps(&self, other: &Self) -> bool {
        self.min.x <= other.max.x && other.min.x <= self.max.x && self.overlaps_y(other)
    }

    fn overlaps_y(&self, other: &Self) -> bool {
        self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    /// Whether `other` lies inside this box.
    pub(crate) fn contains(&self, other: &Self) -> bool {
        self.min.x <= other.min.x && self.min.y <= other.min.y && other.max.x <= self.max.x && other.max.y <= self.max.y
    }
}

impl<S: Scalar> Shape<S> {
    /// The shape's bounding box.
    pub(crate) fn aabb(&self) -> Aabb<S> {
        let (min, max) = self.bounds();
        Aabb { min, max }
    }
}

/// The box of a collider over a tick in which it moves by `travel`.
pub(crate) fn collider_box<S: Scalar>(collider: &Collider<S>, travel: Vec2<S>) -> Aabb<S> {
    let at_start = collider.shape.aabb();
    if travel == Vec2::ZERO {
        return at_start;
    }
    let moved = Aabb { min: at_start.min + travel, max: at_start.max + travel };
    at_start.union(&moved)
}

/// The box a body can reach during a tick: every point within
/// `|vx| + |vy|` (at least the distance it travels, unless a moving
/// collider speeds it up: the step then looks further) plus three radii
/// of the shape it collides as (room for the push-out moves after the
/// sweep) of its core.
pub(crate) fn body_box<S: Scalar>(body: &Body<S>) -> Aabb<S> {
    let r = body.solid().radius();
    let v = body.velocity;
    body_reach(body, Vec2::ZERO, abs(v.x) + abs(v.y) + r + r + r)
}

/// The box of a body's shape where it is.
pub(crate) fn circle_box<S: Scalar>(body: &Body<S>) -> Aabb<S> {
    body_reach(body, Vec2::ZERO, body.radius())
}

/// The box around a body's core moving by `motion`, grown by `grow`: its
/// centre's path for a circle, both core ends' paths for a capsule.
pub(crate) fn body_reach<S: Scalar>(body: &Body<S>, motion: Vec2<S>, grow: S) -> Aabb<S> {
    let p = body.position();
    if !body.is_capsule() {
        return Aabb::spanning(p, p + motion, grow);
    }
    let [start, end] = body.core();
    let (a, b) = (p + start, p + end);
    Aabb::spanning(a, a + motion, grow).union(&Aabb::spanning(b, b + motion, grow))
}

/// What a box stands for: a collider or a body, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Entry {
    Collider(u32),
    Body(u32),
}

/// A run of the sorted boxes and the box around them: a leaf when `left`
/// is zero (the root is never a child), else the parent of the nodes at
/// `left` and `right`.
#[derive(Clone, Copy, Debug)]
struct Node<S> {
    aabb: Aabb<S>,
    start: u32,
    end: u32,
    left: u32,
    right: u32,
}

/// Leaves hold at most this many boxes.
const LEAF: usize = 8;

/// The broad phase of one tick, and the tree the world queries use.
#[derive(Debug)]
pub(crate) struct Index<S> {
    /// Whether the boxes still hold every shape where it is: false from a
    /// change by hand until the next step.
    valid: bool,
    /// Every box, sorted by its left edge (then colliders before bodies,
    /// each by index).
    entries: Vec<(Aabb<S>, Entry)>,
    /// Where each body's box is in `entries`.
    body_slots: Vec<u32>,
    /// The tree over `entries`; the root is node 0.
    nodes: Vec<Node<S>>,
    /// The colliders whose boxes meet each body's box, body by body, each
    /// body's ascending: body `i`'s are `colliders[offsets[i]..offsets[i + 1]]`.
    colliders: Vec<u32>,
    offsets: Vec<usize>,
    /// The pairs of bodies (indices `i < j`) whose boxes meet, ascending.
    pub(crate) bodies: Vec<(u32, u32)>,
    /// Scratch: body–collider pairs as found, and the boxes still open.
    found: Vec<(u32, u32)>,
    open: Vec<usize>,
}

impl<S> Default for Index<S> {
    fn default() -> Self {
        Self {
            valid: false,
            entries: Vec::new(),
            body_slots: Vec::new(),
            nodes: Vec::new(),
            colliders: Vec::new(),
            offsets: Vec::new(),
            bodies: Vec::new(),
            found: Vec::new(),
            open: Vec::new(),
        }
    }
}

/// A copy of a world does not copy its broad phase: the copy builds its
/// own at its next step (and answers queries by looking at every shape
/// until then), and a restored world keeps its buffers.
impl<S> Clone for Index<S> {
    fn clone(&self) -> Self {
        Self::default()
    }

    fn clone_from(&mut self, _: &Self) {
        self.invalidate();
    }
}

/// A total order on scalars, as the sort needs whatever the values: the
/// usual one, with NaN (which validated coordinates never are) above
/// everything and equal to itself.
fn cmp<S: Scalar>(a: S, b: S) -> Ordering {
    a.partial_cmp(&b).unwrap_or_else(|| super::is_nan(a).cmp(&super::is_nan(b)))
}

impl<S> Index<S> {
    /// Forgets the boxes: until the next step, queries look at every shape.
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
    }
}

impl<S: Scalar> Index<S> {
    /// Whether the tree holds every shape where it is.
    pub(crate) fn is_valid(&self) -> bool {
        self.valid
    }

    /// Builds the broad phase for a tick: the pairs whose boxes meet, and
    /// the tree over the boxes.
    pub(crate) fn build(
        &mut self,
        body_boxes: impl ExactSizeIterator<Item = Aabb<S>>,
        collider_boxes: impl ExactSizeIterator<Item = Aabb<S>>,
    ) {
        let body_count = body_boxes.len();
        self.entries.clear();
        self.entries.extend(collider_boxes.enumerate().map(|(i, b)| (b, Entry::Collider(i as u32))));
        self.entries.extend(body_boxes.enumerate().map(|(i, b)| (b, Entry::Body(i as u32))));
        self.entries.sort_unstable_by(|(a, ea), (b, eb)| cmp(a.min.x, b.min.x).then(ea.cmp(eb)));
        self.sweep(body_count);
        self.body_slots.clear();
        self.body_slots.resize(body_count, 0);
        for (slot, (_, entry)) in self.entries.iter().enumerate() {
            if let Entry::Body(i) = entry {
                self.body_slots[*i as usize] = slot as u32;
            }
        }
        self.build_tree();
        self.valid = true;
    }

    /// The sort-and-sweep pass over the sorted entries.
    fn sweep(&mut self, body_count: usize) {
        self.found.clear();
        self.bodies.clear();
        self.open.clear();
        for index in 0..self.entries.len() {
            let (aabb, entry) = self.entries[index];
            let entries = &self.entries;
            self.open.retain(|&o| entries[o].0.max.x >= aabb.min.x);
            for &o in &self.open {
                let (other, other_entry) = &entries[o];
                if !aabb.overlaps_y(other) {
                    continue;
                }
                match (entry, *other_entry) {
                    (Entry::Body(b), Entry::Collider(c)) | (Entry::Collider(c), Entry::Body(b)) => {
                        self.found.push((b, c));
                    }
                    (Entry::Body(a), Entry::Body(b)) => self.bodies.push((a.min(b), a.max(b))),
                    (Entry::Collider(_), Entry::Collider(_)) => {}
                }
            }
            self.open.push(index);
        }
        self.found.sort_unstable();
        self.bodies.sort_unstable();
        // Offsets of each body's run in the sorted list.
        self.offsets.clear();
        let mut at = 0;
        for body in 0..=body_count as u32 {
            while at < self.found.len() && self.found[at].0 < body {
                at += 1;
            }
            self.offsets.push(at);
        }
        self.colliders.clear();
        self.colliders.extend(self.found.iter().map(|&(_, c)| c));
    }

    /// The tree over the sorted entries: halved runs down to leaves of at
    /// most [`LEAF`] boxes.
    fn build_tree(&mut self) {
        self.nodes.clear();
        if self.entries.is_empty() {
            return;
        }
        let root = Node { aabb: self.entries[0].0, start: 0, end: self.entries.len() as u32, left: 0, right: 0 };
        self.nodes.push(root);
        let mut next = 0;
        while next < self.nodes.len() {
            let Node { start, end, .. } = self.nodes[next];
            if (end - start) as usize > LEAF {
                let middle = start + (end - start) / 2;
                let left = self.nodes.len() as u32;
                self.nodes.push(Node { aabb: self.entries[start as usize].0, start, end: middle, left: 0, right: 0 });
                self.nodes.push(Node { aabb: self.entries[middle as usize].0, start: middle, end, left: 0, right: 0 });
                self.nodes[next].left = left;
                self.nodes[next].right = left + 1;
            }
            next += 1;
        }
        self.refit();
    }

    /// Recomputes every node's box from the entries, children first (they
    /// come after their parents).
    fn refit(&mut self) {
        for n in (0..self.nodes.len()).rev() {
            let node = self.nodes[n];
            let aabb = if node.left == 0 {
                let run = &self.entries[node.start as usize..node.end as usize];
                run.iter().skip(1).fold(run[0].0, |acc, (b, _)| acc.union(b))
            } else {
                self.nodes[node.left as usize].aabb.union(&self.nodes[node.right as usize].aabb)
            };
            self.nodes[n].aabb = aabb;
        }
    }

    /// Grows every body's box to hold where the body ended the tick, so
    /// the tree serves the world queries until the next change.
    pub(crate) fn hold_final(&mut self, bodies: &[Body<S>]) {
        if !self.valid || self.body_slots.len() != bodies.len() {
            self.valid = false;
            return;
        }
        let mut grown = false;
        for (body, &slot) in bodies.iter().zip(&self.body_slots) {
            let held = &mut self.entries[slot as usize].0;
            let now = circle_box(body);
            if !held.contains(&now) {
                *held = held.union(&now);
                grown = true;
            }
        }
        if grown {
            self.refit();
        }
    }

    /// The indices of the colliders whose boxes meet body `i`'s, ascending.
    pub(crate) fn colliders_of(&self, i: usize) -> &[u32] {
        &self.colliders[self.offsets[i]..self.offsets[i + 1]]
    }

    /// The box body `i` was given this tick.
    pub(crate) fn body_box(&self, i: usize) -> Aabb<S> {
        self.entries[self.body_slots[i] as usize].0
    }

    /// Walks the tree: into every node whose box `enter` accepts, calling
    /// `leaf` with each box and entry of the leaves reached, in the order
    /// of the sorted boxes.
    pub(crate) fn visit(&self, mut enter: impl FnMut(&Aabb<S>) -> bool, mut leaf: impl FnMut(&Aabb<S>, Entry)) {
        if self.nodes.is_empty() {
            return;
        }
        // Runs are halved down to a leaf, so the tree is at most 61 deep
        // for any number of boxes a `usize` counts, and the walk keeps at
        // most one pending node per level.
        let mut stack = [0_u32; 64];
        let mut pending = 1;
        while pending > 0 {
            pending -= 1;
            let node = &self.nodes[stack[pending] as usize];
            if !enter(&node.aabb) {
                continue;
            }
            if node.left == 0 {
                for (b, e) in &self.entries[node.start as usize..node.end as usize] {
                    leaf(b, *e);
                }
            } else {
                stack[pending] = node.right;
                stack[pending + 1] = node.left;
                pending += 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(spec: &[(f64, f64, f64, f64)]) -> Vec<Aabb<f64>> {
        spec.iter().map(|&(x0, y0, x1, y1)| Aabb { min: Vec2::new(x0, y0), max: Vec2::new(x1, y1) }).collect()
    }

    fn grid() -> (Vec<Aabb<f64>>, Vec<Aabb<f64>>) {
        let mut body_spec = Vec::new();
        for i in 0..40 {
            let x = f64::from(i) * 1.5 - 30.0;
            let y = f64::from((i * 7) % 5) - 2.0;
            body_spec.push((x, y, x + 2.0 + f64::from(i % 3), y + 1.0));
        }
        let colliders = boxes(&[(-10.0, -0.5, 10.0, -0.5), (3.0, -3.0, 3.0, 3.0), (20.0, 0.0, 21.0, 1.0)]);
        (boxes(&body_spec), colliders)
    }

    #[test]
    fn sort_and_sweep_finds_exactly_the_overlapping_boxes() {
        // Brute force over a grid of boxes must agree with the sweep.
        let (bodies, colliders) = grid();
        let mut index = Index::default();
        index.build(bodies.iter().copied(), colliders.iter().copied());
        for (i, a) in bodies.iter().enumerate() {
            let expected: Vec<u32> =
                colliders.iter().enumerate().filter(|(_, c)| a.overlaps(c)).map(|(j, _)| j as u32).collect();
            assert_eq!(index.colliders_of(i), expected, "colliders of body {i}");
        }
        let mut expected = Vec::new();
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                if bodies[i].overlaps(&bodies[j]) {
                    expected.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(index.bodies, expected);
    }

    #[test]
    fn the_tree_finds_exactly_the_boxes_a_query_overlaps() {
        let (bodies, colliders) = grid();
        let mut index = Index::default();
        index.build(bodies.iter().copied(), colliders.iter().copied());
        for query in boxes(&[(-1.0, -1.0, 1.0, 1.0), (-40.0, -5.0, 40.0, 5.0), (100.0, 0.0, 101.0, 1.0)]) {
            let mut found = Vec::new();
            index.visit(
                |b| b.overlaps(&query),
                |b, e| {
                    if b.overlaps(&query) {
                        found.push(e);
                    }
                },
            );
            found.sort_unstable();
            let mut expected: Vec<Entry> = colliders
                .iter()
                .enumerate()
                .filter(|(_, c)| c.overlaps(&query))
                .map(|(i, _)| Entry::Collider(i as u32))
                .chain(
                    bodies.iter().enumerate().filter(|(_, b)| b.overlaps(&query)).map(|(i, _)| Entry::Body(i as u32)),
                )
                .collect();
            expected.sort_unstable();
            assert_eq!(found, expected, "query {query:?}");
        }
    }
}
