//! The broad phase: which pairs are worth a narrow-phase query this tick,
//! and which shapes a world query needs to look at.
//!
//! Every body and collider gets a box, and the boxes are swept strip by
//! strip (see [`super::strips`]): each box is checked against the boxes
//! near it whose left edges lie within it, and pairs whose boxes overlap
//! are kept. The output is sorted, so it does not depend on the order in
//! which the sweep met the pairs, and the step consumes it in that order.
//!
//! A body's box for the tick holds its shape where it starts and where its
//! velocity and gravity would take it, grown by its speculative margin (see
//! [`super::aabb::tick_box`]): bodies meet colliders, and each other, in
//! those boxes, so a pair that can touch during the tick is a candidate
//! for the narrow phase, and a pile at rest pairs each body with its
//! neighbours only. The pairs are put in order by counting rather than by
//! sorting them all: a tick costs about the same per body however many
//! bodies there are.
//!
//! The boxes, strip by strip and in each by column, are then grouped into
//! a tree: runs of neighbouring boxes, each run's box the union of its
//! boxes, halved until a run is a handful of boxes. A body that a
//! collision sends beyond its box during the tick, and the world queries
//! between ticks, look shapes up in it. The boxes hold every shape where
//! it ends the tick (each body's box is grown to its final position after
//! the step), so the tree serves queries until something is added,
//! removed or moved by hand.

use alloc::vec::Vec;

use super::Body;
use super::aabb::{Aabb, circle_box};
use super::strips::{Layout, Member, Strips};
use crate::scalar::Scalar;

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
    /// Every box, strip by strip, in each by column, colliders first, each
    /// by index (see [`super::strips`]): boxes near each other are near
    /// each other here.
    entries: Vec<(Aabb<S>, Entry)>,
    /// Where each body's box is in `entries`.
    body_slots: Vec<u32>,
    /// The tree over `entries`; the root is node 0.
    nodes: Vec<Node<S>>,
    /// The colliders whose boxes meet each body's box, body by body, each
    /// body's ascending: body `i`'s are `colliders[offsets[i]..offsets[i + 1]]`.
    colliders: Vec<u32>,
    offsets: Vec<usize>,
    /// Each body's and each collider's box for the tick, by index.
    body_boxes: Vec<Aabb<S>>,
    collider_boxes: Vec<Aabb<S>>,
    /// The pairs of bodies (indices `i < j`) whose boxes for the tick meet,
    /// ascending.
    pub(crate) bodies: Vec<(u32, u32)>,
    /// Scratch: pairs as found; the boxes in their strips; each body's
    /// count of pairs, and where its pairs with other bodies start.
    found: Vec<(u32, u32)>,
    collider_strips: Strips<S>,
    body_strips: Strips<S>,
    counts: Vec<usize>,
    pair_offsets: Vec<usize>,
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
            body_boxes: Vec::new(),
            collider_boxes: Vec::new(),
            bodies: Vec::new(),
            found: Vec::new(),
            collider_strips: Strips::default(),
            body_strips: Strips::default(),
            counts: Vec::new(),
            pair_offsets: Vec::new(),
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

/// Puts `pairs` (each first below `keys`) in ascending order into `out`,
/// by counting: grouped by their first (`offsets[k]..offsets[k + 1]` are
/// those of `k`, `offsets` having `keys + 1` entries), each group sorted
/// by its second. Linear in the number of pairs and keys, but for the
/// sorts of the groups, which are short.
fn group(
    pairs: &[(u32, u32)],
    keys: usize,
    counts: &mut Vec<usize>,
    offsets: &mut Vec<usize>,
    out: &mut Vec<(u32, u32)>,
) {
    counts.clear();
    counts.resize(keys, 0);
    for &(k, _) in pairs {
        counts[k as usize] += 1;
    }
    offsets.clear();
    let mut at = 0;
    offsets.push(at);
    for count in counts.iter_mut() {
        // From here on, where the next pair of `k` goes.
        let n = *count;
        *count = at;
        at += n;
        offsets.push(at);
    }
    out.clear();
    out.resize(pairs.len(), (0, 0));
    for &pair in pairs {
        let slot = &mut counts[pair.0 as usize];
        out[*slot] = pair;
        *slot += 1;
    }
    for k in 0..keys {
        out[offsets[k]..offsets[k + 1]].sort_unstable();
    }
}

/// The overlapping pairs in a strip (`s`) between boxes of two kinds, `a`
/// and `b`, where the box of kind `a` comes first in the strip's order:
/// each box of `a` against the boxes of `b` whose left edges lie in a
/// later column (or the same column, when `b_later`: at the same column,
/// `b` comes after `a`) and no further right than the column of its right
/// edge. Called both ways, with `b_later` for one of them, it finds every
/// overlapping pair once: kept only in the strip where the higher of the
/// two bottom edges lies.
fn sweep_across<S: Scalar>(s: u32, a: &[Member<S>], b: &[Member<S>], b_later: bool, mut pair: impl FnMut(u32, u32)) {
    if a.is_empty() || b.is_empty() {
        return;
    }
    let mut next = 0;
    for here in a {
        // Past the `b` boxes that come before this one.
        while next < b.len() && {
            let left = b[next].place.left;
            left < here.place.left || (!b_later && left == here.place.left)
        } {
            next += 1;
        }
        for there in &b[next..] {
            if there.place.left > here.place.right {
                break;
            }
            if here.place.low.max(there.place.low) == s && here.aabb.overlaps(&there.aabb) {
                pair(here.index, there.index);
            }
        }
    }
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

    /// Builds the broad phase for a tick: the body–collider pairs and the
    /// pairs of bodies whose boxes meet, and the tree over the boxes.
    pub(crate) fn build(
        &mut self,
        body_boxes: impl ExactSizeIterator<Item = Aabb<S>>,
        collider_boxes: impl ExactSizeIterator<Item = Aabb<S>>,
    ) {
        self.body_boxes.clear();
        self.body_boxes.extend(body_boxes);
        self.collider_boxes.clear();
        self.collider_boxes.extend(collider_boxes);
        // Sized for the bodies, the many (for the colliders when there are
        // no bodies: for the tree).
        let sized = if self.body_boxes.is_empty() { &self.collider_boxes } else { &self.body_boxes };
        let layout = Layout::new(sized);
        self.collider_strips.fill(&self.collider_boxes, &layout);
        self.body_strips.fill(&self.body_boxes, &layout);
        self.sweep(&layout);
        self.order_entries(&layout);
        self.body_slots.clear();
        self.body_slots.resize(self.body_boxes.len(), 0);
        for (slot, (_, entry)) in self.entries.iter().enumerate() {
            if let Entry::Body(i) = entry {
                self.body_slots[*i as usize] = slot as u32;
            }
        }
        self.sweep_bodies(&layout);
        self.build_tree();
        self.valid = true;
    }

    /// The pairs of bodies whose boxes meet, strip by strip, into
    /// `bodies` (`i < j`, ascending).
    fn sweep_bodies(&mut self, layout: &Layout<S>) {
        self.found.clear();
        for s in 0..layout.strips() {
            let members = self.body_strips.strip(s);
            let s = s as u32;
            for (k, here) in members.iter().enumerate() {
                for there in &members[k + 1..] {
                    if there.place.left > here.place.right {
                        break;
                    }
                    if here.place.low.max(there.place.low) == s && here.aabb.overlaps(&there.aabb) {
                        let (i, j) = (here.index, there.index);
                        self.found.push((i.min(j), i.max(j)));
                    }
                }
            }
        }
        group(&self.found, self.body_boxes.len(), &mut self.counts, &mut self.pair_offsets, &mut self.bodies);
    }

    /// The body–collider pairs whose boxes meet, strip by strip.
    fn sweep(&mut self, layout: &Layout<S>) {
        self.found.clear();
        if !self.collider_boxes.is_empty() {
            for s in 0..layout.strips() {
                let (colliders, bodies) = (self.collider_strips.strip(s), self.body_strips.strip(s));
                let s = s as u32;
                // At the same column, a collider comes first.
                sweep_across(s, bodies, colliders, false, |b, c| self.found.push((b, c)));
                sweep_across(s, colliders, bodies, true, |c, b| self.found.push((b, c)));
            }
        }
        // In order in `bodies` (free until the pairs of bodies are found).
        group(&self.found, self.body_boxes.len(), &mut self.counts, &mut self.offsets, &mut self.bodies);
        self.colliders.clear();
        self.colliders.extend(self.bodies.iter().map(|&(_, c)| c));
        self.bodies.clear();
    }

    /// Every box into `entries`, once each, in the strip of its bottom
    /// edge: strip by strip, in each by column, colliders first.
    fn order_entries(&mut self, layout: &Layout<S>) {
        self.entries.clear();
        for s in 0..layout.strips() {
            let own = |m: &&Member<S>| m.place.low as usize == s;
            let mut colliders = self.collider_strips.strip(s).iter().filter(own).peekable();
            for body in self.body_strips.strip(s).iter().filter(own) {
                while let Some(c) = colliders.next_if(|c| c.place.left <= body.place.left) {
                    self.entries.push((c.aabb, Entry::Collider(c.index)));
                }
                self.entries.push((body.aabb, Entry::Body(body.index)));
            }
            for c in colliders {
                self.entries.push((c.aabb, Entry::Collider(c.index)));
            }
        }
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
        self.body_boxes[i]
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
    use crate::vec2::Vec2;
    use crate::world::{BodyDef, BodyId};

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

    use crate::SplitMix as Rng;

    impl Rng {
        /// Uniform in `[lo, hi)`, on a grid of 1/8 half the time (so that
        /// many boxes touch exactly).
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            let v = lo + (hi - lo) * ((self.next() >> 11) as f64 / (1_u64 << 53) as f64);
            if self.next().is_multiple_of(2) { (v * 8.0).round() / 8.0 } else { v }
        }
    }

    /// Boxes of every kind in a world `half` units around the origin:
    /// small and large, flat and thin, a few spanning it all, some of them
    /// points.
    fn random_boxes<S: Scalar>(rng: &mut Rng, n: usize, half: f64) -> Vec<Aabb<S>> {
        (0..n)
            .map(|i| {
                let (x, y) = (rng.range(-half, half), rng.range(-half, half));
                let (w, h) = match i % 7 {
                    0 => (rng.range(0.0, 2.0 * half), rng.range(0.0, 1.0)),
                    1 => (rng.range(0.0, 1.0), rng.range(0.0, 2.0 * half)),
                    2 => (0.0, 0.0),
                    3 => (rng.range(0.0, half / 4.0), rng.range(0.0, half / 4.0)),
                    _ => (rng.range(0.0, 3.0), rng.range(0.0, 3.0)),
                };
                let v = Vec2::<S>::from_f64;
                Aabb { min: v(x, y), max: v(x + w, y + h) }
            })
            .collect()
    }

    fn sweep_finds_exactly_the_pairs<S: Scalar>() {
        let mut rng = Rng(17);
        let mut index = Index::<S>::default();
        for (bodies, colliders, half) in
            [(40, 3, 30.0), (500, 60, 100.0), (300, 300, 1000.0), (200, 0, 10.0), (0, 50, 10.0), (1000, 10, 40.0)]
        {
            let bodies = random_boxes::<S>(&mut rng, bodies, half);
            let colliders = random_boxes::<S>(&mut rng, colliders, half);
            index.build(bodies.iter().copied(), colliders.iter().copied());
            for (i, a) in bodies.iter().enumerate() {
                let expected: Vec<u32> =
                    colliders.iter().enumerate().filter(|(_, c)| a.overlaps(c)).map(|(j, _)| j as u32).collect();
                assert_eq!(index.colliders_of(i), expected, "colliders of body {i}");
            }
            let mut expected = Vec::new();
            for (i, a) in bodies.iter().enumerate() {
                for (j, b) in bodies.iter().enumerate().skip(i + 1) {
                    if a.overlaps(b) {
                        expected.push((i as u32, j as u32));
                    }
                }
            }
            assert_eq!(index.bodies, expected, "{} bodies", bodies.len());
            // Every box in the tree once.
            let mut entries: Vec<Entry> = index.entries.iter().map(|&(_, e)| e).collect();
            entries.sort_unstable();
            let all: Vec<Entry> = (0..colliders.len() as u32)
                .map(Entry::Collider)
                .chain((0..bodies.len() as u32).map(Entry::Body))
                .collect();
            assert_eq!(entries, all);
        }
    }

    /// Brute force agrees with the strips, whatever the boxes: the
    /// body–collider pairs and the pairs of bodies are exactly those whose
    /// boxes meet, ascending.
    #[test]
    fn the_sweep_finds_exactly_the_pairs_whose_boxes_meet() {
        sweep_finds_exactly_the_pairs::<f64>();
        sweep_finds_exactly_the_pairs::<f32>();
        sweep_finds_exactly_the_pairs::<fixed::types::I32F32>();
        sweep_finds_exactly_the_pairs::<fixed::types::I16F16>();
    }

    /// Two bodies in contact always have overlapping boxes, even at rest
    /// (grown by no more than the rounding margin): the step asks for no
    /// contact between bodies whose boxes are apart. Pairs placed a hair
    /// inside, at and a hair outside touching, along every direction, near
    /// the origin and far from it.
    fn contacts_have_meeting_boxes<S: Scalar>(far: f64) {
        use crate::query::{contact_capsule_capsule, contact_circle_circle};
        use crate::world::aabb::{rounding_margin, tick_box};
        let mut rng = Rng(11);
        let v = Vec2::<S>::from_f64;
        let mut touching = 0;
        for k in 0..20_000 {
            let (cx, cy) = (rng.range(-far, far), rng.range(-far, far));
            let (ra, rb) = (rng.range(0.0, 2.0), rng.range(0.0, 2.0));
            let angle = rng.range(0.0, core::f64::consts::TAU);
            let reach = (ra + rb) * (1.0 + [-1e-9, 0.0, 1e-9, -1e-6, 1e-6][k % 5]);
            let (dx, dy) = (libm::cos(angle) * reach, libm::sin(angle) * reach);
            let capsules = k % 2 == 0;
            let core = |r: &mut Rng| {
                if capsules {
                    let (x, y) = (r.range(-1.0, 1.0), r.range(-1.0, 1.0));
                    (v(-x, -y), v(x, y))
                } else {
                    (Vec2::ZERO, Vec2::ZERO)
                }
            };
            let ((a0, a1), (b0, b1)) = (core(&mut rng), core(&mut rng));
            let a = BodyDef::capsule(v(cx, cy), a0, a1, S::from_f64(ra)).validate(BodyId(0)).unwrap();
            let b = BodyDef::capsule(v(cx + dx, cy + dy), b0, b1, S::from_f64(rb)).validate(BodyId(1)).unwrap();
            let contact = if capsules {
                contact_capsule_capsule(&a.capsule(), &b.capsule())
            } else {
                contact_circle_circle(&a.circle, &b.circle)
            };
            if contact.is_some() {
                touching += 1;
                let resting = |body: &Body<S>| tick_box(body, Vec2::ZERO, rounding_margin(body));
                assert!(resting(&a).overlaps(&resting(&b)), "{a:?} {b:?}");
            }
        }
        assert!(touching > 5000, "{touching} in contact");
    }

    #[test]
    fn bodies_in_contact_have_meeting_boxes() {
        contacts_have_meeting_boxes::<f64>(10.0);
        contacts_have_meeting_boxes::<f64>(1.0e12);
        contacts_have_meeting_boxes::<f32>(10.0);
        contacts_have_meeting_boxes::<f32>(1.0e6);
        contacts_have_meeting_boxes::<fixed::types::I32F32>(1000.0);
        contacts_have_meeting_boxes::<fixed::types::I16F16>(1000.0);
    }

    /// In a dense pile at rest a body's box, grown by its speculative
    /// margin, meets its six neighbours only: three pairs per body.
    #[test]
    fn a_dense_pile_pairs_each_body_with_its_neighbours_only() {
        use crate::world::aabb::{speculative_margin, tick_box};
        let mut bodies = Vec::new();
        for row in 0..40 {
            for col in 0..50 {
                let x = f64::from(col) + if row % 2 == 0 { 0.0 } else { 0.5 };
                let def = BodyDef::new(Vec2::new(x, f64::from(row) * 0.866), 0.5);
                bodies.push(def.validate(BodyId(bodies.len() as u32)).unwrap());
            }
        }
        let mut index = Index::default();
        index.build(bodies.iter().map(|b| tick_box(b, Vec2::ZERO, speculative_margin(b, b))), core::iter::empty());
        // Three pairs per body inside the pile (fewer at its edges).
        assert!(index.bodies.len() <= 3 * bodies.len(), "{} pairs", index.bodies.len());
        assert!(index.bodies.len() >= 5700, "{} pairs", index.bodies.len());
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
