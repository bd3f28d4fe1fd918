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
//! next tick (they are part of the world's state).
//!
//! A contact whose shapes are still apart (a speculative contact) is
//! rigid: it lets them close the gap within a substep, never more, so two
//! bodies moving fast at each other stop where they meet.
//!
//! Bodies never rotate, so a contact has one point and its effective mass
//! along the normal and the tangent alike is `1 / (1/ma + 1/mb)`.
//!
//! Order: contacts between bodies first, by the ids of the pair, then
//! contacts with colliders, by body and collider id, so that a collider
//! has the last word in each pass (a stack on a floor holds). Every
//! product, dot product and quotient is rounded once (see `arith.rs`), in
//! that fixed order: the same bits on every platform.

use alloc::vec::Vec;

use super::WorldConfig;
use super::arith::{add_held, dot, hold, hold_vec, max, min, mul, ratio, scale};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// A body as the solver sees it.
#[derive(Clone, Copy, Debug)]
pub(super) struct SolverBody<S> {
    pub(super) velocity: Vec2<S>,
    /// How far it has moved since the start of the tick.
    pub(super) moved: Vec2<S>,
    pub(super) inverse_mass: S,
    /// Its gravity's share of one substep.
    pub(super) gravity: Vec2<S>,
}

/// A contact between body `a` and body `b`, or (in the list of collider
/// contacts) a collider moving by `other` per tick.
#[derive(Clone, Copy, Debug)]
pub(super) struct Constraint<S> {
    pub(super) a: u32,
    /// The second body, in the list of body contacts.
    pub(super) b: u32,
    /// The unit normal, from `b` (or the collider) towards `a`.
    pub(super) normal: Vec2<S>,
    /// The separation along the normal at the start of the tick: the gap
    /// (positive) or the overlap (negative).
    pub(super) separation: S,
    /// `1 / (1/ma + 1/mb)`.
    pub(super) mass: S,
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
    /// substeps of `h` ticks.
    fn new(hertz: S, zeta: S, h: S) -> Self {
        let tau = S::from_f64(core::f64::consts::TAU);
        let omega = mul(tau, hertz);
        let h_omega = mul(h, omega);
        let a1 = hold(zeta + zeta) + hold(h_omega);
        let a2 = mul(h_omega, a1);
        let a3 = ratio(S::ONE, hold(S::ONE + hold(a2)));
        let mass_scale = mul(a2, a3);
        Self { bias_rate: mul(ratio(omega, a1), mass_scale), mass_scale, impulse_scale: a3 }
    }

    /// A rigid constraint that corrects an overlap at the rate a spring of
    /// `hertz` would: it gives way to nothing, as the continuous motion
    /// against colliders gives way to nothing.
    fn rigid(hertz: S, zeta: S, h: S) -> Self {
        let soft = Self::new(hertz, zeta, h);
        Self { bias_rate: ratio(soft.bias_rate, soft.mass_scale), mass_scale: S::ONE, impulse_scale: S::ZERO }
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
}

impl<S: Scalar> Settings<S> {
    pub(super) fn new(config: &WorldConfig<S>) -> Self {
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
        }
    }

    /// One substep, in ticks.
    pub(super) fn h(&self) -> S {
        self.h
    }

    pub(super) fn substeps(&self) -> u8 {
        self.substeps
    }
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
fn normal_impulse<S: Scalar>(
    c: &mut Constraint<S>,
    s: S,
    vn: S,
    soft: Option<&Softness<S>>,
    settings: &Settings<S>,
) -> S {
    // Every product held before it is negated or added: a saturated one
    // is the type's extreme, whose negation overflows.
    let change = if s > S::ZERO {
        // Apart: close the gap within this substep, no further (rigid).
        -hold(mul(c.mass, hold(vn + hold(mul(s, settings.inverse_h)))))
    } else if let Some(soft) = soft {
        let bias = max(mul(soft.bias_rate, s), -settings.push_speed);
        let target = hold(hold(mul(soft.mass_scale, vn)) + bias);
        -hold(mul(c.mass, target)) - hold(mul(soft.impulse_scale, c.normal_impulse))
    } else {
        -hold(mul(c.mass, vn))
    };
    let accumulated = max(hold(c.normal_impulse + hold(change)), S::ZERO);
    let applied = accumulated - c.normal_impulse;
    c.normal_impulse = accumulated;
    c.total = hold(c.total + applied);
    applied
}

/// The friction impulse of a relax pass over one contact whose tangential
/// speed is `vt`: the change to apply, with the accumulated impulse kept
/// within `±friction·normal impulse`.
#[inline]
fn friction_impulse<S: Scalar>(c: &mut Constraint<S>, vt: S) -> S {
    let limit = hold(mul(c.friction, c.normal_impulse));
    let accumulated = max(min(hold(c.tangent_impulse - hold(mul(c.mass, vt))), limit), -limit);
    let applied = accumulated - c.tangent_impulse;
    c.tangent_impulse = accumulated;
    applied
}

/// The velocity change of impulse `p` on a body of inverse mass `w`.
#[inline]
fn kick<S: Scalar>(velocity: Vec2<S>, p: Vec2<S>, w: S) -> Vec2<S> {
    if w == S::ZERO { velocity } else { add_held(velocity, scale(p, w)) }
}

/// The solver's state for one tick: its bodies and contacts.
#[derive(Debug)]
pub(super) struct Solver<S> {
    pub(super) bodies: Vec<SolverBody<S>>,
    /// Contacts between bodies, in the order they are solved.
    pub(super) pairs: Vec<Constraint<S>>,
    /// Contacts with colliders, in the order they are solved.
    pub(super) fixed: Vec<Constraint<S>>,
}

impl<S> Default for Solver<S> {
    fn default() -> Self {
        Self { bodies: Vec::new(), pairs: Vec::new(), fixed: Vec::new() }
    }
}

impl<S: Scalar> Solver<S> {
    /// Empties the solver for a new tick.
    pub(super) fn clear(&mut self) {
        self.bodies.clear();
        self.pairs.clear();
        self.fixed.clear();
    }

    /// Solves the tick: the substeps, then restitution. Leaves each body's
    /// velocity and motion over the tick, and each contact's impulses.
    pub(super) fn solve(&mut self, settings: &Settings<S>) {
        let Self { bodies, pairs, fixed } = self;
        let h = settings.h;
        for step in 0..settings.substeps {
            for body in bodies.iter_mut() {
                body.velocity = add_held(body.velocity, body.gravity);
            }
            warm_start(bodies, pairs, fixed);
            // How far the colliders have moved: `step` substeps.
            let elapsed = mul(S::from_f64(f64::from(step)), h);
            solve_pairs(bodies, pairs, Some(&settings.bodies), settings);
            solve_fixed(bodies, fixed, Some(&settings.colliders), settings, elapsed);
            for body in bodies.iter_mut() {
                body.moved = add_held(body.moved, scale(body.velocity, h));
            }
            let elapsed = mul(S::from_f64(f64::from(step) + 1.0), h);
            solve_pairs(bodies, pairs, None, settings);
            solve_fixed(bodies, fixed, None, settings, elapsed);
        }
        restitution(bodies, pairs, fixed, settings.bounce_threshold);
    }
}

/// Applies every contact's accumulated impulses again (and counts them in
/// its total: a contact that carries a load pushes, even when no pass
/// changes its impulse).
fn warm_start<S: Scalar>(bodies: &mut [SolverBody<S>], pairs: &mut [Constraint<S>], fixed: &mut [Constraint<S>]) {
    let impulse = |c: &mut Constraint<S>| {
        c.total = hold(c.total + c.normal_impulse);
        add_held(scale(c.normal, c.normal_impulse), scale(tangent(c.normal), c.tangent_impulse))
    };
    for c in pairs.iter_mut() {
        if c.normal_impulse == S::ZERO && c.tangent_impulse == S::ZERO {
            continue;
        }
        let p = impulse(c);
        let (a, b) = (c.a as usize, c.b as usize);
        bodies[a].velocity = kick(bodies[a].velocity, p, bodies[a].inverse_mass);
        bodies[b].velocity = kick(bodies[b].velocity, -p, bodies[b].inverse_mass);
    }
    for c in fixed.iter_mut() {
        if c.normal_impulse == S::ZERO && c.tangent_impulse == S::ZERO {
            continue;
        }
        let p = impulse(c);
        let a = c.a as usize;
        bodies[a].velocity = kick(bodies[a].velocity, p, bodies[a].inverse_mass);
    }
}

/// One pass over the contacts between bodies: with position correction
/// (`soft`), or the relax pass with friction.
fn solve_pairs<S: Scalar>(
    bodies: &mut [SolverBody<S>],
    pairs: &mut [Constraint<S>],
    soft: Option<&Softness<S>>,
    settings: &Settings<S>,
) {
    for c in pairs.iter_mut() {
        let (a, b) = (c.a as usize, c.b as usize);
        let (ba, bb) = (bodies[a], bodies[b]);
        let s = hold(c.separation + hold(dot(hold_vec(ba.moved - bb.moved), c.normal)));
        let vn = dot(hold_vec(ba.velocity - bb.velocity), c.normal);
        let applied = normal_impulse(c, s, vn, soft, settings);
        let (mut va, mut vb) = (ba.velocity, bb.velocity);
        if applied != S::ZERO {
            let p = scale(c.normal, applied);
            va = kick(va, p, ba.inverse_mass);
            vb = kick(vb, -p, bb.inverse_mass);
        }
        if soft.is_none() && c.friction > S::ZERO {
            let t = tangent(c.normal);
            let applied = friction_impulse(c, dot(hold_vec(va - vb), t));
            if applied != S::ZERO {
                let p = scale(t, applied);
                va = kick(va, p, ba.inverse_mass);
                vb = kick(vb, -p, bb.inverse_mass);
            }
        }
        bodies[a].velocity = va;
        bodies[b].velocity = vb;
    }
}

/// One pass over the contacts with colliders, which have moved by
/// `elapsed` of their travel.
fn solve_fixed<S: Scalar>(
    bodies: &mut [SolverBody<S>],
    fixed: &mut [Constraint<S>],
    soft: Option<&Softness<S>>,
    settings: &Settings<S>,
    elapsed: S,
) {
    for c in fixed.iter_mut() {
        let a = c.a as usize;
        let body = bodies[a];
        let mut s = hold(c.separation + hold(dot(body.moved, c.normal)));
        if c.closing != S::ZERO {
            s = hold(s - hold(mul(elapsed, c.closing)));
        }
        let relative = hold_vec(body.velocity - c.other);
        let applied = normal_impulse(c, s, dot(relative, c.normal), soft, settings);
        let mut v = body.velocity;
        if applied != S::ZERO {
            v = kick(v, scale(c.normal, applied), body.inverse_mass);
        }
        if soft.is_none() && c.friction > S::ZERO {
            let t = tangent(c.normal);
            let applied = friction_impulse(c, dot(hold_vec(v - c.other), t));
            if applied != S::ZERO {
                v = kick(v, scale(t, applied), body.inverse_mass);
            }
        }
        bodies[a].velocity = v;
    }
}

/// Restitution, once per contact after the substeps: a contact that was
/// approaching faster than the threshold at the start of the tick and
/// pushed during it leaves at `restitution` times that speed.
fn restitution<S: Scalar>(
    bodies: &mut [SolverBody<S>],
    pairs: &mut [Constraint<S>],
    fixed: &mut [Constraint<S>],
    threshold: S,
) {
    let bounces = |c: &Constraint<S>| c.restitution > S::ZERO && c.approach < -threshold && c.total > S::ZERO;
    let change = |c: &mut Constraint<S>, vn: S| {
        let target = hold(vn + hold(mul(c.restitution, c.approach)));
        let accumulated = max(hold(c.normal_impulse - hold(mul(c.mass, target))), S::ZERO);
        let applied = accumulated - c.normal_impulse;
        c.normal_impulse = accumulated;
        c.total = hold(c.total + applied);
        applied
    };
    for c in pairs.iter_mut() {
        if !bounces(c) {
            continue;
        }
        let (a, b) = (c.a as usize, c.b as usize);
        let vn = dot(hold_vec(bodies[a].velocity - bodies[b].velocity), c.normal);
        let p = scale(c.normal, change(c, vn));
        bodies[a].velocity = kick(bodies[a].velocity, p, bodies[a].inverse_mass);
        bodies[b].velocity = kick(bodies[b].velocity, -p, bodies[b].inverse_mass);
    }
    for c in fixed.iter_mut() {
        if !bounces(c) {
            continue;
        }
        let a = c.a as usize;
        let vn = dot(hold_vec(bodies[a].velocity - c.other), c.normal);
        let p = scale(c.normal, change(c, vn));
        bodies[a].velocity = kick(bodies[a].velocity, p, bodies[a].inverse_mass);
    }
}
