//! The contact solver: every contact of a tick, between bodies and with
//! colliders, solved together as one system.
//!
//! It is a soft step, as `Box2D` v3's solver is (Erin Catto, `Solver2D`,
//! 2024): a tick is cut into [`substeps`](super::WorldConfig::substeps);
//! in each, gravity adds its share to every velocity, the impulses of the
//! substep before are applied again (warm starting), every contact is
//! solved once with position correction (a soft constraint: a spring of
//! [`contact_hertz`](super::WorldConfig::contact_hertz) damped at
//! [`contact_damping`](super::WorldConfig::contact_damping), pushing at
//! most [`push_speed`](super::WorldConfig::push_speed)), the bodies move
//! by their velocities, and every contact is solved once more without it
//! (the relax pass, which takes back the speed the correction added, and
//! applies friction within its cone). After the substeps, restitution is
//! applied once per contact that was approaching faster than the bounce
//! threshold and pushed. The impulses of the last substep are kept for the
//! next tick (they are part of the world's state). Contacts with colliders
//! are rigid (the continuous motion gives way to nothing either).
//!
//! A contact whose shapes are still apart (a speculative contact) is
//! rigid: it lets them close the gap within a substep, never more, so two
//! bodies moving fast at each other stop where they meet.
//!
//! Bodies never rotate, so a contact has one point and its effective mass
//! along the normal and the tangent alike is `1 / (1/ma + 1/mb)`. Only
//! bodies with contacts are solved; the others fly.
//!
//! Order: contacts between bodies first, by the ids of the pair, then
//! contacts with colliders, by body and collider id, so that a collider
//! has the last word in each pass (a stack on a floor holds).
//!
//! # Arithmetic: one result, two lanes
//!
//! Every product and dot product is rounded once to nearest, and every
//! value held within `±2·MAX_COORD` (see `arith.rs`), in that fixed order:
//! the same bits on every platform. That is the [`Checked`] lane, which
//! saturates and holds at every step. Most ticks never come near those
//! limits: when every velocity, impulse, mass and gap of the tick starts
//! within bounds small enough that no sum or product of a pass can reach
//! them ([`Tame`]), the [`Fast`] lane computes the same formulas without
//! the saturation and the holds, and only checks that every value it keeps
//! from pass to pass stays within those bounds. If one ever leaves them,
//! the tick is solved again from the start in the checked lane. Either
//! way the result is the checked lane's, bit for bit; the fast lane only
//! gets there sooner.

use alloc::vec::Vec;

use super::arith::{hold, max, min, mul, ratio};
use super::{Body, WorldConfig};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// A contact between solver bodies `a` and `b`, or (in the list of
/// collider contacts) of body `a` with a collider moving by `other` per
/// tick.
#[derive(Clone, Copy, Debug)]
pub(super) struct Constraint<S> {
    pub(super) a: u32,
    /// The second body, in the list of body contacts.
    pub(super) b: u32,
    /// The unit normal, from `b` (or the collider) towards `a`.
    pub(super) normal: Vec2<S>,
    /// The normal scaled by each body's inverse mass: the velocity change
    /// of a unit impulse (zero for a collider's side).
    pub(super) push_a: Vec2<S>,
    pub(super) push_b: Vec2<S>,
    /// The separation along the normal at the start of the tick: the gap
    /// (positive) or the overlap (negative).
    pub(super) separation: S,
    /// The separation now: after the bodies' last move, as each relax pass
    /// finds it (the next substep's first pass sees the same positions).
    pub(super) gap: S,
    /// `1 / (1/ma + 1/mb)`.
    pub(super) mass: S,
    /// What the solve works out when it starts.
    pub(super) prepared: Prepared<S>,
    /// The collider's velocity (units per tick), and its speed along the
    /// normal towards the body; zero for a body.
    pub(super) other: Vec2<S>,
    pub(super) closing: S,
    pub(super) friction: S,
    pub(super) restitution: S,
    /// The normal speed at the start of the tick (negative: approaching).
    pub(super) approach: S,
    /// The accumulated impulses of one substep, along the normal and the
    /// tangent; warm-started from the last tick.
    pub(super) normal_impulse: S,
    pub(super) tangent_impulse: S,
    /// Every normal impulse applied during the tick, summed: positive when
    /// the contact pushed.
    pub(super) total: S,
}

/// What the solve works out for a contact when it starts: the soft
/// constraint's coefficients times the contact's mass (see [`Softness`]),
/// and whether its two kicks share their product.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Prepared<S> {
    /// The share of the normal speed, the bias per unit of overlap and the
    /// largest push.
    soft_mass: S,
    soft_bias: S,
    soft_push: S,
    /// Whether `push_a` and `push_b` have the same bits (the two bodies'
    /// inverse masses are equal, as in most piles): a kick of both then
    /// takes its product once, which gives the same bits.
    shared: bool,
}

/// The coefficients of a soft constraint for a substep (`Box2D`'s
/// `b2MakeSoft`): the bias per unit of overlap (per tick) already scaled by
/// the mass scale, the mass scale, and the share of the accumulated
/// impulse that relaxes away.
#[derive(Clone, Copy, Debug)]
pub(super) struct Softness<S> {
    bias_rate: S,
    mass_scale: S,
    impulse_scale: S,
}

impl<S: Scalar> Softness<S> {
    /// For a spring of `hertz` cycles per tick damped at `zeta`, over
    /// substeps of `h` ticks: `bias_rate` at most `1/h`, both scales within
    /// `[0, 1]`.
    fn new(hertz: S, zeta: S, h: S) -> Self {
        let tau = S::from_f64(core::f64::consts::TAU);
        let omega = mul(tau, hertz);
        let h_omega = mul(h, omega);
        let a1 = hold(zeta + zeta) + hold(h_omega);
        let a2 = mul(h_omega, a1);
        let a3 = ratio(S::ONE, hold(S::ONE + hold(a2)));
        let mass_scale = mul(a2, a3);
        // `a1` is positive unless the frequency and the damping are both
        // too small to be told from 0: then nothing is corrected.
        let bias_rate = if a1 > S::ZERO { mul(ratio(omega, a1), mass_scale) } else { S::ZERO };
        Self { bias_rate, mass_scale, impulse_scale: a3 }
    }

    /// A rigid constraint that corrects an overlap at the rate a spring of
    /// `hertz` would: it gives way to nothing, as the continuous motion
    /// against colliders gives way to nothing.
    fn rigid(hertz: S, zeta: S, h: S) -> Self {
        let soft = Self::new(hertz, zeta, h);
        // A mass scale of 0 (a frequency too small to be told from 0 in
        // the type) corrects nothing, as its spring would.
        let bias_rate = if soft.mass_scale > S::ZERO { ratio(soft.bias_rate, soft.mass_scale) } else { S::ZERO };
        Self { bias_rate, mass_scale: S::ONE, impulse_scale: S::ZERO }
    }
}

/// What a tick's solve needs besides the bodies and contacts.
pub(super) struct Settings<S> {
    substeps: u8,
    /// One substep in ticks, and substeps per tick.
    h: S,
    inverse_h: S,
    bodies: Softness<S>,
    colliders: Softness<S>,
    push_speed: S,
    bounce_threshold: S,
    /// The bounds of the fast lane (see [`Tame`]), and whether it may run.
    tame: Tame<S>,
    fast: bool,
}

impl<S: Scalar> Settings<S> {
    pub(super) fn new(config: &WorldConfig<S>, fast: bool) -> Self {
        let inverse_h = S::from_f64(f64::from(config.substeps));
        let h = ratio(S::ONE, inverse_h);
        // Stiffer than a quarter of the substeps a tick, a contact
        // overshoots: the frequency is held there.
        let quarter = mul(inverse_h, S::from_dyadic::<2>(1));
        let hertz = min(config.contact_hertz, quarter);
        Self {
            substeps: config.substeps,
            h,
            inverse_h,
            bodies: Softness::new(hertz, config.contact_damping, h),
            colliders: Softness::rigid(hold(hertz + hertz), config.contact_damping, h),
            push_speed: config.push_speed,
            bounce_threshold: config.bounce_threshold,
            tame: Tame::new(),
            fast,
        }
    }

    /// One substep, in ticks.
    pub(super) fn h(&self) -> S {
        self.h
    }

    pub(super) fn substeps(&self) -> u8 {
        self.substeps
    }

    /// Whether the fast lane may run and `v` lies within its bounds (see
    /// [`Tame`]).
    pub(super) fn tame(&self, v: Vec2<S>) -> bool {
        self.fast && self.tame.within_vec(v)
    }
}

/// The bounds within which a tick is solved in the fast lane, all relative
/// to `B = MAX_COORD` (a fixed-point type holds `8·B`, the checked lane
/// holds every value within `2·B`):
///
/// - every value kept from pass to pass (a velocity, a motion, an
///   accumulated impulse), every gap and overlap, the colliders' speeds and
///   the push speed within `V = B / 2^16` (for `I32F32`, 4096 units a
///   tick);
/// - every contact's effective mass at most 64, every inverse mass,
///   friction coefficient and mass-scaled bias rate at most `2^15`; the
///   substeps (at most 255) and the soft constraints' coefficients (a bias
///   rate at most the substeps, scales at most 1) are so by construction.
///
/// Then the largest value a pass makes is a speculative contact's impulse:
/// its gap is at most `V + 2.83·V` (its start and the two bodies' motions
/// along the normal), so `64 · (2.83·V + 255 · 3.83·V) < 0.95·B`; an
/// overlap's bias (`64 · 255 · 3.83·V`) is smaller, and every
/// other product is below `B`, and every sum below `2·B`: no saturation or
/// hold of the checked lane can act, so dropping them changes no bit, as
/// long as the kept values stay within `V`, which the fast lane checks.
#[derive(Clone, Copy, Debug)]
struct Tame<S> {
    value: S,
    mass: S,
    factor: S,
}

impl<S: Scalar> Tame<S> {
    fn new() -> Self {
        let k = S::from_dyadic::<8>(1);
        Self {
            value: mul(mul(S::MAX_COORD, k), k),
            // Held at what the type holds: a smaller type's values are
            // smaller, its products too.
            mass: S::from_f64(64.0),
            factor: S::from_f64(32768.0),
        }
    }

    fn within(&self, v: S) -> bool {
        v <= self.value && v >= -self.value
    }

    fn within_vec(&self, v: Vec2<S>) -> bool {
        self.within(v.x) && self.within(v.y)
    }
}

/// The arithmetic of a solve (see the module documentation).
trait Lane<S: Scalar> {
    /// `a·b`, rounded once.
    fn mul(&mut self, a: S, b: S) -> S;
    /// `a·b` for vectors, rounded once.
    fn dot(&mut self, a: Vec2<S>, b: Vec2<S>) -> S;
    fn add(&mut self, a: S, b: S) -> S;
    fn sub(&mut self, a: S, b: S) -> S;
    /// A value kept from pass to pass.
    fn keep(&mut self, v: S) -> S;

    #[inline]
    fn scale(&mut self, v: Vec2<S>, k: S) -> Vec2<S> {
        Vec2::new(self.mul(v.x, k), self.mul(v.y, k))
    }

    #[inline]
    fn add_vec(&mut self, a: Vec2<S>, b: Vec2<S>) -> Vec2<S> {
        Vec2::new(self.add(a.x, b.x), self.add(a.y, b.y))
    }

    #[inline]
    fn sub_vec(&mut self, a: Vec2<S>, b: Vec2<S>) -> Vec2<S> {
        Vec2::new(self.sub(a.x, b.x), self.sub(a.y, b.y))
    }

    #[inline]
    fn keep_vec(&mut self, v: Vec2<S>) -> Vec2<S> {
        Vec2::new(self.keep(v.x), self.keep(v.y))
    }

    /// `v + w·k`, kept.
    #[inline]
    fn kick(&mut self, v: Vec2<S>, w: Vec2<S>, k: S) -> Vec2<S> {
        let change = self.scale(w, k);
        let sum = self.add_vec(v, change);
        self.keep_vec(sum)
    }

    /// Both bodies of contact `c` kicked apart by an impulse `k` along
    /// `(push_a, push_b)` (the normal, or the tangent of each): `va + push_a·k`
    /// and `vb − push_b·k`, kept. When they share it, the two products are one.
    #[inline]
    fn kick_pair(
        &mut self,
        c: &Constraint<S>,
        (va, vb): (Vec2<S>, Vec2<S>),
        (push_a, push_b): (Vec2<S>, Vec2<S>),
        k: S,
    ) -> (Vec2<S>, Vec2<S>) {
        let change_a = self.scale(push_a, k);
        let change_b = if c.prepared.shared { change_a } else { self.scale(push_b, k) };
        let (sum_a, sum_b) = (self.add_vec(va, change_a), self.sub_vec(vb, change_b));
        (self.keep_vec(sum_a), self.keep_vec(sum_b))
    }
}

/// Saturating products, every value held within `±2·MAX_COORD`.
struct Checked;

impl<S: Scalar> Lane<S> for Checked {
    #[inline]
    fn mul(&mut self, a: S, b: S) -> S {
        hold(a.mul_round(b))
    }

    #[inline]
    fn dot(&mut self, a: Vec2<S>, b: Vec2<S>) -> S {
        hold(S::dot_round((a.x, a.y), (b.x, b.y)))
    }

    #[inline]
    fn add(&mut self, a: S, b: S) -> S {
        // Both held (or constants within the safe range): no overflow.
        hold(a + b)
    }

    #[inline]
    fn sub(&mut self, a: S, b: S) -> S {
        hold(a - b)
    }

    #[inline]
    fn keep(&mut self, v: S) -> S {
        hold(v)
    }
}

/// Plain products and sums for a tame tick, with a check that every kept
/// value stays within the bound that makes them the checked lane's.
struct Fast<S> {
    tame: Tame<S>,
    /// Every kept value's mark, merged: whether one left the bound (the
    /// tick is then solved again) is asked once, at the end.
    marks: u64,
}

impl<S: Scalar> Fast<S> {
    /// Whether a kept value left the bound.
    fn left(&self) -> bool {
        S::marks_beyond(self.marks, self.tame.value)
    }
}

impl<S: Scalar> Lane<S> for Fast<S> {
    #[inline]
    fn mul(&mut self, a: S, b: S) -> S {
        a.mul_wrap(b)
    }

    #[inline]
    fn dot(&mut self, a: Vec2<S>, b: Vec2<S>) -> S {
        S::dot_wrap((a.x, a.y), (b.x, b.y))
    }

    #[inline]
    fn add(&mut self, a: S, b: S) -> S {
        a.add_wrap(b)
    }

    #[inline]
    fn sub(&mut self, a: S, b: S) -> S {
        a.sub_wrap(b)
    }

    #[inline]
    fn keep(&mut self, v: S) -> S {
        self.marks = S::merge_marks(self.marks, v.mark(self.tame.value));
        v
    }
}

/// Whether two vectors have the same bits (a float's zero and minus zero
/// differ).
#[inline]
fn same_bits<S: Scalar>(a: Vec2<S>, b: Vec2<S>) -> bool {
    a.x.hash_bits() == b.x.hash_bits() && a.y.hash_bits() == b.y.hash_bits()
}

/// The tangent of a normal (its left perpendicular).
#[inline]
fn tangent<S: Scalar>(n: Vec2<S>) -> Vec2<S> {
    Vec2::new(-n.y, n.x)
}

/// The normal impulse of one pass over one contact whose separation is now
/// `s` and whose normal speed is `vn`: the change to apply (and the
/// accumulated impulse updated).
#[inline]
fn normal_impulse<S: Scalar, L: Lane<S>>(
    lane: &mut L,
    c: &mut Constraint<S>,
    (s, vn): (S, S),
    soft: Option<&Softness<S>>,
    settings: &Settings<S>,
) -> S {
    let target = if s > S::ZERO {
        // Apart: close the gap within this substep, no further (rigid).
        let closing = lane.mul(s, settings.inverse_h);
        lane.add(vn, closing)
    } else if let Some(soft) = soft {
        let bias = max(lane.mul(c.prepared.soft_bias, s), S::ZERO - c.prepared.soft_push);
        let scaled = lane.mul(c.prepared.soft_mass, vn);
        let mut change = lane.add(scaled, bias);
        if soft.impulse_scale != S::ZERO {
            let relaxed = lane.mul(soft.impulse_scale, c.normal_impulse);
            change = lane.add(change, relaxed);
        }
        return accumulate(lane, c, change);
    } else {
        vn
    };
    let change = lane.mul(c.mass, target);
    accumulate(lane, c, change)
}

/// Takes `change` off the accumulated normal impulse, which never pulls;
/// returns what was applied.
#[inline]
fn accumulate<S: Scalar, L: Lane<S>>(lane: &mut L, c: &mut Constraint<S>, change: S) -> S {
    let accumulated = max(lane.sub(c.normal_impulse, change), S::ZERO);
    let accumulated = lane.keep(accumulated);
    let applied = lane.sub(accumulated, c.normal_impulse);
    c.normal_impulse = accumulated;
    applied
}

/// Counts a contact's accumulated impulse at the end of a substep (its
/// relax pass) in its total: the sum of every impulse it applied over the
/// tick, warm start included, positive when it pushed.
#[inline]
fn count_push<S: Scalar, L: Lane<S>>(lane: &mut L, c: &mut Constraint<S>) {
    c.total = lane.add(c.total, c.normal_impulse);
}

/// The friction impulse of a relax pass over one contact whose tangential
/// speed is `vt`: the change to apply, with the accumulated impulse kept
/// within `±friction·normal impulse`.
#[inline]
fn friction_impulse<S: Scalar, L: Lane<S>>(lane: &mut L, c: &mut Constraint<S>, vt: S) -> S {
    let limit = lane.mul(c.friction, c.normal_impulse);
    let change = lane.mul(c.mass, vt);
    let free = lane.sub(c.tangent_impulse, change);
    let accumulated = lane.keep(max(min(free, limit), S::ZERO - limit));
    let applied = lane.sub(accumulated, c.tangent_impulse);
    c.tangent_impulse = accumulated;
    applied
}

/// A solver index that is no body's.
const NONE: u32 = u32::MAX;

/// The solver's state for one tick: the bodies that have contacts (a body
/// without one moves as gravity and its velocity take it), and the
/// contacts.
#[derive(Debug)]
pub(super) struct Solver<S> {
    /// Each world body's solver index, or [`NONE`].
    slots: Vec<u32>,
    /// Per solver body: its velocity and motion since the start of the
    /// tick (read together by every pass), inverse mass, and gravity's
    /// share of a substep.
    bodies: Vec<Moving<S>>,
    inverse_mass: Vec<S>,
    gravity: Vec<Vec2<S>>,
    /// Contacts between bodies, in the order they are solved.
    pub(super) pairs: Vec<Constraint<S>>,
    /// Contacts with colliders, in the order they are solved.
    pub(super) fixed: Vec<Constraint<S>>,
    /// The starting velocities and impulses, kept while the fast lane runs.
    start: Start<S>,
    /// Whether the fast lane solved the last tick (for the tests).
    pub(super) fast: bool,
}

/// A solver body's velocity and its motion since the start of the tick.
#[derive(Clone, Copy, Debug)]
struct Moving<S> {
    velocity: Vec2<S>,
    moved: Vec2<S>,
}

/// What a tick starts from, kept while the fast lane runs: the velocities
/// and each contact's warm-start impulses, in the order of `pairs` then
/// `fixed` (a contact's gap starts as its separation and its total at
/// zero: nothing else of it changes during a solve).
#[derive(Debug)]
struct Start<S> {
    velocity: Vec<Vec2<S>>,
    impulses: Vec<(S, S)>,
}

impl<S> Default for Solver<S> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            bodies: Vec::new(),
            inverse_mass: Vec::new(),
            gravity: Vec::new(),
            pairs: Vec::new(),
            fixed: Vec::new(),
            start: Start { velocity: Vec::new(), impulses: Vec::new() },
            fast: false,
        }
    }
}

impl<S: Scalar> Solver<S> {
    /// Empties the solver for a tick of a world of `bodies` bodies.
    pub(super) fn clear(&mut self, bodies: usize) {
        self.slots.clear();
        self.slots.resize(bodies, NONE);
        self.bodies.clear();
        self.inverse_mass.clear();
        self.gravity.clear();
        self.pairs.clear();
        self.fixed.clear();
    }

    /// The solver index of world body `i` (of `bodies`, with `gravity[i]`
    /// its gravity's share of a substep), taken on first use.
    #[inline]
    pub(super) fn slot(&mut self, i: usize, bodies: &[Body<S>], gravity: &[Vec2<S>]) -> u32 {
        let slot = self.slots[i];
        if slot != NONE {
            return slot;
        }
        let slot = self.bodies.len() as u32;
        self.slots[i] = slot;
        let body = &bodies[i];
        self.bodies.push(Moving { velocity: body.velocity, moved: Vec2::ZERO });
        self.inverse_mass.push(body.inverse_mass);
        self.gravity.push(gravity[i]);
        slot
    }

    /// World body `i`'s velocity at the end of the tick and its motion over
    /// it, if it had contacts (else it moved freely).
    pub(super) fn outcome(&self, i: usize) -> Option<(Vec2<S>, Vec2<S>)> {
        let slot = *self.slots.get(i)?;
        // `NONE` is no solver body's index.
        let body = self.bodies.get(slot as usize)?;
        Some((body.velocity, body.moved))
    }

    /// Whether the tick starts within the fast lane's bounds.
    fn tame(&self, settings: &Settings<S>) -> bool {
        let t = &settings.tame;
        let body =
            |(b, (g, w)): (&Moving<S>, (&Vec2<S>, &S))| t.within_vec(b.velocity) && t.within_vec(*g) && *w <= t.factor;
        let contact = |c: &Constraint<S>| {
            c.mass <= t.mass
                && c.prepared.soft_bias <= t.factor
                && c.friction <= t.factor
                && t.within(c.separation)
                && t.within(c.approach)
                && t.within(c.normal_impulse)
                && t.within(c.tangent_impulse)
                && t.within_vec(c.other)
        };
        t.within(settings.push_speed)
            && self.bodies.iter().zip(self.gravity.iter().zip(&self.inverse_mass)).all(body)
            && self.pairs.iter().all(contact)
            && self.fixed.iter().all(contact)
    }

    /// Solves the tick: the substeps, then restitution. Leaves each body's
    /// velocity and motion over the tick, and each contact's impulses.
    pub(super) fn solve(&mut self, settings: &Settings<S>) {
        self.fast = false;
        for (list, soft) in [(&mut self.pairs, &settings.bodies), (&mut self.fixed, &settings.colliders)] {
            for c in list {
                c.prepared.soft_mass = mul(c.mass, soft.mass_scale);
                c.prepared.soft_bias = mul(c.mass, soft.bias_rate);
                c.prepared.soft_push = mul(c.mass, settings.push_speed);
                c.prepared.shared = same_bits(c.push_a, c.push_b);
            }
        }
        if settings.fast && self.tame(settings) {
            self.start.velocity.clear();
            self.start.velocity.extend(self.bodies.iter().map(|b| b.velocity));
            self.start.impulses.clear();
            let contacts = self.pairs.iter().chain(&self.fixed);
            self.start.impulses.extend(contacts.map(|c| (c.normal_impulse, c.tangent_impulse)));
            let mut lane = Fast { tame: settings.tame, marks: 0 };
            self.run(&mut lane, settings);
            self.fast = !lane.left();
            if self.fast {
                return;
            }
            // A kept value left the bounds: again, checked, from the start.
            for (b, &v) in self.bodies.iter_mut().zip(&self.start.velocity) {
                *b = Moving { velocity: v, moved: Vec2::ZERO };
            }
            let contacts = self.pairs.iter_mut().chain(&mut self.fixed);
            for (c, &(normal, tangent)) in contacts.zip(&self.start.impulses) {
                (c.normal_impulse, c.tangent_impulse) = (normal, tangent);
                (c.gap, c.total) = (c.separation, S::ZERO);
            }
        }
        self.run(&mut Checked, settings);
    }

    fn run<L: Lane<S>>(&mut self, lane: &mut L, settings: &Settings<S>) {
        let h = settings.h;
        // How far into the tick the bodies have moved (the colliders with
        // them).
        let mut elapsed = S::ZERO;
        for _ in 0..settings.substeps {
            for (b, g) in self.bodies.iter_mut().zip(&self.gravity) {
                let sum = lane.add_vec(b.velocity, *g);
                b.velocity = lane.keep_vec(sum);
            }
            self.warm_start(lane);
            self.solve_pairs::<L, false>(lane, Some(&settings.bodies), settings);
            self.solve_fixed::<L, false>(lane, Some(&settings.colliders), settings, elapsed);
            for b in &mut self.bodies {
                let step = lane.scale(b.velocity, h);
                let sum = lane.add_vec(b.moved, step);
                b.moved = lane.keep_vec(sum);
            }
            elapsed = lane.add(elapsed, h);
            self.solve_pairs::<L, true>(lane, None, settings);
            self.solve_fixed::<L, true>(lane, None, settings, elapsed);
        }
        self.restitution(lane, settings.bounce_threshold);
    }

    /// Applies every contact's accumulated impulses again.
    fn warm_start<L: Lane<S>>(&mut self, lane: &mut L) {
        let bodies = &mut self.bodies;
        for c in &mut self.pairs {
            let (n, t) = (c.normal_impulse, c.tangent_impulse);
            if n == S::ZERO && t == S::ZERO {
                continue;
            }
            let (a, b) = (c.a as usize, c.b as usize);
            let mut v = lane.kick_pair(c, (bodies[a].velocity, bodies[b].velocity), (c.push_a, c.push_b), n);
            if t != S::ZERO {
                v = lane.kick_pair(c, v, (tangent(c.push_a), tangent(c.push_b)), t);
            }
            (bodies[a].velocity, bodies[b].velocity) = v;
        }
        for c in &mut self.fixed {
            let (n, t) = (c.normal_impulse, c.tangent_impulse);
            if n == S::ZERO && t == S::ZERO {
                continue;
            }
            let body = &mut bodies[c.a as usize];
            body.velocity = lane.kick(body.velocity, c.push_a, n);
            if t != S::ZERO {
                body.velocity = lane.kick(body.velocity, tangent(c.push_a), t);
            }
        }
    }

    /// One pass over the contacts between bodies: with position correction
    /// (`soft`), or the relax pass with friction, which follows the bodies'
    /// move and finds each contact's gap after it.
    fn solve_pairs<L: Lane<S>, const RELAX: bool>(
        &mut self,
        lane: &mut L,
        soft: Option<&Softness<S>>,
        settings: &Settings<S>,
    ) {
        let bodies = &mut self.bodies;
        for c in &mut self.pairs {
            let (a, b) = (c.a as usize, c.b as usize);
            let (body_a, body_b) = (bodies[a], bodies[b]);
            let (mut va, mut vb) = (body_a.velocity, body_b.velocity);
            if RELAX {
                let apart = lane.sub_vec(body_a.moved, body_b.moved);
                let closer = lane.dot(apart, c.normal);
                c.gap = lane.add(c.separation, closer);
            }
            let s = c.gap;
            let relative = lane.sub_vec(va, vb);
            let vn = lane.dot(relative, c.normal);
            let applied = normal_impulse(lane, c, (s, vn), soft, settings);
            if RELAX {
                count_push(lane, c);
            }
            if applied != S::ZERO {
                (va, vb) = lane.kick_pair(c, (va, vb), (c.push_a, c.push_b), applied);
            }
            if RELAX && c.friction > S::ZERO {
                let relative = lane.sub_vec(va, vb);
                let vt = lane.dot(relative, tangent(c.normal));
                let applied = friction_impulse(lane, c, vt);
                if applied != S::ZERO {
                    (va, vb) = lane.kick_pair(c, (va, vb), (tangent(c.push_a), tangent(c.push_b)), applied);
                }
            }
            bodies[a].velocity = va;
            bodies[b].velocity = vb;
        }
    }

    /// One pass over the contacts with colliders, which have moved by
    /// `elapsed` of their travel.
    fn solve_fixed<L: Lane<S>, const RELAX: bool>(
        &mut self,
        lane: &mut L,
        soft: Option<&Softness<S>>,
        settings: &Settings<S>,
        elapsed: S,
    ) {
        for c in &mut self.fixed {
            let body = &mut self.bodies[c.a as usize];
            if RELAX {
                let closer = lane.dot(body.moved, c.normal);
                c.gap = lane.add(c.separation, closer);
                if c.closing != S::ZERO {
                    let came = lane.mul(elapsed, c.closing);
                    c.gap = lane.sub(c.gap, came);
                }
            }
            let s = c.gap;
            let mut v = body.velocity;
            let relative = lane.sub_vec(v, c.other);
            let vn = lane.dot(relative, c.normal);
            let applied = normal_impulse(lane, c, (s, vn), soft, settings);
            if RELAX {
                count_push(lane, c);
            }
            if applied != S::ZERO {
                v = lane.kick(v, c.push_a, applied);
            }
            if RELAX && c.friction > S::ZERO {
                let relative = lane.sub_vec(v, c.other);
                let vt = lane.dot(relative, tangent(c.normal));
                let applied = friction_impulse(lane, c, vt);
                if applied != S::ZERO {
                    v = lane.kick(v, tangent(c.push_a), applied);
                }
            }
            body.velocity = v;
        }
    }

    /// Restitution, once per contact after the substeps: a contact that was
    /// approaching faster than the threshold at the start of the tick and
    /// pushed during it leaves at `restitution` times that speed.
    fn restitution<L: Lane<S>>(&mut self, lane: &mut L, threshold: S) {
        let bounces =
            |c: &Constraint<S>| c.restitution > S::ZERO && c.approach < S::ZERO - threshold && c.total > S::ZERO;
        let change = |lane: &mut L, c: &mut Constraint<S>, vn: S| {
            let rebound = lane.mul(c.restitution, c.approach);
            let target = lane.add(vn, rebound);
            let change = lane.mul(c.mass, target);
            let applied = accumulate(lane, c, change);
            c.total = lane.add(c.total, applied);
            applied
        };
        let bodies = &mut self.bodies;
        for c in &mut self.pairs {
            if !bounces(c) {
                continue;
            }
            let (a, b) = (c.a as usize, c.b as usize);
            let v = (bodies[a].velocity, bodies[b].velocity);
            let relative = lane.sub_vec(v.0, v.1);
            let vn = lane.dot(relative, c.normal);
            let applied = change(lane, c, vn);
            (bodies[a].velocity, bodies[b].velocity) = lane.kick_pair(c, v, (c.push_a, c.push_b), applied);
        }
        for c in &mut self.fixed {
            if !bounces(c) {
                continue;
            }
            let body = &mut bodies[c.a as usize];
            let relative = lane.sub_vec(body.velocity, c.other);
            let vn = lane.dot(relative, c.normal);
            let applied = change(lane, c, vn);
            body.velocity = lane.kick(body.velocity, c.push_a, applied);
        }
    }
}
