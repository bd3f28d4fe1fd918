//! The character controller: a kinematic body moved by what a game wants
//! it to do this tick, as a platformer's player moves.

use alloc::vec::Vec;

use super::aabb::{Aabb, rounding_margin};
use super::arith::{add_held, dot, hold_vec, in_range, manhattan, max, min, mul, ratio, scale};
use super::contact::{Ground, SlopeLimit};
use super::narrow::sweep_shape;
use super::sleep::wake_body;
use super::step::travel;
use super::{Body, BodyId, Id, Shape, World, WorldError, in_safe_range, in_unit_range};
use crate::query::Sweep;
use crate::query::kernel::offset;
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// How a character moves: see [`World::move_character`].
///
/// [`World::move_character`] takes the motion the game wants (its input
/// and its own gravity, in units per tick) and moves the body with the
/// same exact sweeps the world uses, before the tick is stepped:
///
/// 1. **What it stands on at the start**: of the shapes within a few
///    rounding steps below it, the walkable one (its normal's component
///    along [`CharacterConfig::up`] at least
///    [`min_floor_up`](CharacterConfig::min_floor_up)) that points most
///    nearly up. A moving platform's travel (or a body's velocity) is added
///    to the motion: the character rides it, through a reversal too.
/// 2. **Collide and slide**: the body sweeps along the motion to the first
///    shape in its way, then slides along it with what is left, up to
///    [`max_slides`](CharacterConfig::max_slides) times. Colliders move
///    during the tick as the step moves them (the sweep is relative to
///    each, and what is left slides in the frame of what it met, so a
///    platform coming at the character pushes it along); bodies stand
///    where they are. On walkable ground the motion
///    keeps its level part only (so gravity alone never slides the
///    character down a walkable slope): up a slope it follows the slope at
///    its walking pace, down one it goes on level and the snap (5) brings
///    it back onto it. Against a steeper slope or a wall it slides, and a
///    character on the ground never climbs it by sliding (a jump still
///    rises along it).
/// 3. **Steps**: blocked by something steeper while on the ground, it tries
///    the move lifted by [`step_height`](CharacterConfig::step_height): if
///    it can go forward there (by what is left of its motion, and at least
///    its radius, so that its rounded foot lands on the step rather than
///    on its edge) and come down on walkable ground above where it was, it
///    steps up.
/// 4. **Pushing**: a dynamic body in the way blocks the character as a wall
///    does, and gets an impulse along the contact, at most
///    [`push_impulse`](CharacterConfig::push_impulse) per hit.
/// 5. **Snapping**: a character that stood on the ground, was not moving
///    up, and has left it (walking down a slope or off a low ledge) is
///    moved down onto walkable ground within
///    [`snap_distance`](CharacterConfig::snap_distance).
/// 6. **What it stands on at the end**, as in 1, with the colliders where
///    the tick leaves them: this is
///    [`CharacterMove::grounded`](CharacterMove::grounded).
///
/// One-way colliders block the character as they block bodies. Sensors are
/// passed through (the step reports their overlaps). During the step that
/// follows, a collider moving into the character pushes it along, as it
/// pushes any body; one that squeezes it against a body goes on through
/// both (a collider never stops). There is no state beyond the body itself:
/// a world saved, loaded or rolled back moves its characters the same way.
///
/// # Examples
///
/// ```
/// use geom_core::world::CharacterConfig;
/// use geom_core::Vec2;
///
/// let mut config = CharacterConfig::<f32>::new();
/// assert_eq!(config.up, Vec2::new(0.0, 1.0));
/// config.step_height = 0.4;
/// config.min_floor_up = 0.5; // slopes up to 60°
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "S: Scalar + serde::Serialize + serde::de::DeserializeOwned")
)]
#[non_exhaustive]
pub struct CharacterConfig<S> {
    /// Which way is up, of any non-zero length: `(0, 1)` by default.
    pub up: Vec2<S>,
    /// The least component along `up` of a walkable surface's unit normal:
    /// the cosine of the steepest walkable slope, no trigonometry needed.
    /// `181/256` (0.707, 45°) by default; compared exactly.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub min_floor_up: S,
    /// The highest ledge the character steps up onto: `1/4` by default,
    /// zero for none.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub step_height: S,
    /// How far down a character that has just left the ground is moved
    /// onto walkable ground: `1/4` by default, zero for never.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub snap_distance: S,
    /// The largest impulse a hit gives a dynamic body in the way: `1/16`
    /// by default, zero to push nothing.
    #[cfg_attr(feature = "serde", serde(with = "crate::scalar::serde_scalar"))]
    pub push_impulse: S,
    /// How many times a move may slide on after a hit: 4 by default.
    pub max_slides: u8,
}

impl<S: Scalar> CharacterConfig<S> {
    /// The defaults (see each field).
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::CharacterConfig;
    ///
    /// let config = CharacterConfig::<f64>::new();
    /// assert_eq!((config.step_height, config.snap_distance, config.max_slides), (0.25, 0.25, 4));
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self {
            up: Vec2::new(S::ZERO, S::ONE),
            min_floor_up: S::from_dyadic::<8>(90) + S::from_dyadic::<8>(91),
            step_height: S::from_dyadic::<2>(1),
            snap_distance: S::from_dyadic::<2>(1),
            push_impulse: S::from_dyadic::<4>(1),
            max_slides: 4,
        }
    }

    fn validate(&self) -> Result<(), WorldError> {
        let up_ok = self.up != Vec2::ZERO && in_safe_range(self.up);
        let limits_ok = in_unit_range(self.step_height, S::MAX_COORD)
            && in_unit_range(self.snap_distance, S::MAX_COORD)
            && in_unit_range(self.push_impulse, S::MAX_COORD);
        // `-1 ≤ min_floor_up ≤ 1`, written so that a NaN fails.
        let floor_ok = in_unit_range(self.min_floor_up + S::ONE, S::ONE + S::ONE);
        if up_ok && limits_ok && floor_ok { Ok(()) } else { Err(WorldError::Character) }
    }
}

impl<S: Scalar> Default for CharacterConfig<S> {
    fn default() -> Self {
        Self::new()
    }
}

/// What [`World::move_character`] did.
///
/// # Examples
///
/// See [`World::move_character`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CharacterMove<S> {
    /// How far the body moved, riding included: at most the range
    /// (`MAX_COORD`) in each direction, and never beyond its edge (a slide
    /// that riding fast obstacles would take further stops there).
    pub motion: Vec2<S>,
    /// What it stands on after the move (walkable ground within a few
    /// rounding steps below it, where the tick leaves the colliders), with
    /// the normal, the point and that thing's velocity.
    pub ground: Option<Ground<S>>,
    /// Whether it stepped up a ledge.
    pub stepped: bool,
    /// Whether it hit a wall (or a slope too steep to walk) on the way.
    pub wall: bool,
    /// Whether it hit a ceiling (a surface facing down, as steep as
    /// walkable ground faces up) on the way.
    pub ceiling: bool,
}

impl<S> CharacterMove<S> {
    /// Whether it stands on walkable ground after the move.
    ///
    /// # Examples
    ///
    /// See [`World::move_character`].
    #[must_use]
    pub fn grounded(&self) -> bool {
        self.ground.is_some()
    }
}

/// Something in a character's way: a collider (moving by `travel` this
/// tick) or a body.
struct Obstacle<S> {
    id: Id,
    shape: Shape<S>,
    travel: Vec2<S>,
    /// The collider's or body's index in its list.
    index: usize,
}

/// The first shape a cast meets.
#[derive(Clone, Copy)]
struct Hit<S> {
    /// When, as a fraction of the cast's motion.
    t: S,
    normal: Vec2<S>,
    /// How far the character moves to it.
    travel: Vec2<S>,
    /// Which obstacle.
    obstacle: usize,
}

/// Walkable ground under the character: which obstacle, the normal, and
/// the point on its surface.
#[derive(Clone, Copy)]
struct Touching<S> {
    obstacle: usize,
    normal: Vec2<S>,
    point: Vec2<S>,
}

/// What a move does to the world: where the character ends, and the
/// impulses for the bodies it pushed (by index), with the report.
struct Plan<S> {
    outcome: CharacterMove<S>,
    end: Vec2<S>,
    pushes: Vec<(usize, Vec2<S>)>,
}

/// What a move needs to see of the world.
struct Mover<'a, S: Scalar> {
    world: &'a World<S>,
    body: Body<S>,
    obstacles: Vec<Obstacle<S>>,
    /// How far below the character ground is looked for: two rounding
    /// margins, as close as a body is to touching a one-way collider it is
    /// not inside.
    allowance: S,
    limit: SlopeLimit<S>,
    up: Vec2<S>,
}

impl<S: Scalar> Mover<'_, S> {
    /// Takes as obstacles every collider and body (not sensors, and that
    /// the character's filter matches) near the character at `p`, its box
    /// grown by `reach`, ids ascending.
    fn gather(&mut self, p: Vec2<S>, reach: S) {
        let world = self.world;
        let grow = hold_vec(Vec2::new(reach, reach));
        let (low, high) = self.shape_at(p).bounds();
        let mut ids = Vec::new();
        world.ids_near(
            &Aabb { min: low - grow, max: high + grow },
            self.body.filter.excluding(self.body.id()),
            &mut ids,
        );
        self.obstacles = ids
            .into_iter()
            .filter_map(|id| match id {
                Id::Collider(c) => {
                    let k = world.colliders.binary_search_by_key(&c, super::Collider::id).ok()?;
                    let collider = &world.colliders[k];
                    Some(Obstacle { id, shape: collider.shape, travel: travel(collider), index: k })
                }
                Id::Body(b) => {
                    let k = world.bodies.binary_search_by_key(&b, Body::id).ok()?;
                    Some(Obstacle { id, shape: world.bodies[k].shape(), travel: Vec2::ZERO, index: k })
                }
            })
            .collect();
    }

    /// Collide and slide (with steps and pushes) from `start` by `wanted`,
    /// on the ground at the start or not: where the character ends. Notes
    /// walls, ceilings, a step and pushes in `plan`.
    fn collide_and_slide(
        &self,
        start: Vec2<S>,
        wanted: Vec2<S>,
        mut on_ground: bool,
        config: &CharacterConfig<S>,
        plan: &mut Plan<S>,
    ) -> Vec2<S> {
        let (mut p, mut left, mut time, mut along) = (start, wanted, S::ONE, None);
        for slide_count in 0..=config.max_slides {
            if left == Vec2::ZERO {
                break;
            }
            let Some(hit) = self.cast(p, left, S::ONE - time, time, along) else {
                return add_held(p, left);
            };
            p = add_held(p, hit.travel);
            let into = dot(left, hit.normal);
            let after = scale(left, S::ONE - hit.t);
            time = mul(time, S::ONE - hit.t);
            let o = &self.obstacles[hit.obstacle];
            if let Id::Body(_) = o.id
                && self.world.bodies[o.index].inverse_mass > S::ZERO
                && into < S::ZERO
            {
                // The body's mass times the speed it is pushed at, bounded.
                let wanted = ratio(-into, self.world.bodies[o.index].inverse_mass);
                let j = if wanted < config.push_impulse { wanted } else { config.push_impulse };
                plan.pushes.push((o.index, scale(hit.normal, -j)));
            }
            // What is left slides in the obstacle's frame: a moving
            // collider carries its share of the rest of the tick with it
            // (and pushes the character along).
            let carried = scale(o.travel, time);
            let relative = hold_vec(after - carried);
            let slid = if self.limit.within(self.limit.up(hit.normal)) {
                on_ground = true;
                self.along_floor(relative, hit.normal)
            } else if self.limit.within(self.limit.up(-hit.normal)) {
                plan.outcome.ceiling = true;
                slide(relative, hit.normal)
            } else {
                if on_ground && let Some(stepped) = self.step_up(p, after, S::ONE - time, config.step_height) {
                    plan.outcome.stepped = true;
                    return stepped;
                }
                plan.outcome.wall = true;
                let slid = slide(relative, hit.normal);
                // On the ground, a wall or a steep slope is not climbed by
                // sliding (a jump still goes up along it).
                let rise = dot(slid, self.up);
                if on_ground && rise > S::ZERO && dot(relative, self.up) <= S::ZERO {
                    in_range(slid - scale(self.up, rise))
                } else {
                    slid
                }
            };
            left = add_held(slid, carried);
            along = Some(hit.normal);
            if slide_count == config.max_slides {
                break;
            }
        }
        p
    }

    /// The character's shape with its position at `p`.
    fn shape_at(&self, p: Vec2<S>) -> Shape<S> {
        let mut body = self.body;
        body.place(p);
        body.solid()
    }

    /// Obstacle `k` at time `elapsed` of the tick, and the character's
    /// `motion` relative to it while `span` of the tick passes.
    fn relative(&self, k: usize, motion: Vec2<S>, elapsed: S, span: S) -> (Shape<S>, Vec2<S>) {
        let o = &self.obstacles[k];
        if o.travel == Vec2::ZERO {
            return (o.shape, motion);
        }
        let shape = o.shape.translated(scale(o.travel, elapsed)).unwrap_or(o.shape);
        (shape, hold_vec(motion - scale(o.travel, span)))
    }

    /// Whether obstacle `k` blocks the character meeting it along `normal`
    /// overlapping it by `depth` (a one-way collider may not).
    fn blocks(&self, k: usize, normal: Vec2<S>, depth: S) -> bool {
        match self.obstacles[k].id {
            Id::Collider(_) => self.world.colliders[self.obstacles[k].index].blocks(&self.body, normal, depth),
            Id::Body(_) => true,
        }
    }

    /// The first obstacle the character at `p` meets moving by `motion`
    /// over `span` of the tick from `elapsed` on; ties go to the lowest id.
    /// A contact along `along`, the normal the motion was just turned
    /// square to, does not block it again (the turn's rounding could make
    /// it push a hair into the surface it slides along).
    fn cast(&self, p: Vec2<S>, motion: Vec2<S>, elapsed: S, span: S, along: Option<Vec2<S>>) -> Option<Hit<S>> {
        let shape = self.shape_at(p);
        let mut first: Option<Hit<S>> = None;
        for k in 0..self.obstacles.len() {
            let (other, relative) = self.relative(k, motion, elapsed, span);
            if relative == Vec2::ZERO {
                continue;
            }
            let (t, normal, moved) = match sweep_shape(&shape, relative, &other) {
                Sweep::Miss => continue,
                Sweep::InContact { contact, blocked } => {
                    if !blocked || along == Some(contact.normal) || !self.blocks(k, contact.normal, contact.depth) {
                        continue;
                    }
                    (S::ZERO, contact.normal, Vec2::ZERO)
                }
                Sweep::Hit(hit) => {
                    if dot(relative, hit.normal) >= S::ZERO || !self.blocks(k, hit.normal, S::ZERO) {
                        continue;
                    }
                    (hit.t, hit.normal, hit.travel_a)
                }
            };
            if first.as_ref().is_none_or(|f| t < f.t) {
                // The character's own travel: relative, plus the
                // obstacle's over the same time.
                let shift = scale(self.obstacles[k].travel, mul(t, span));
                first = Some(Hit { t, normal, travel: add_held(moved, shift), obstacle: k });
            }
        }
        first
    }

    /// The walkable ground under the character at `p` (within the
    /// allowance below it) with the obstacles where they are at `elapsed`:
    /// the one whose normal points most nearly up, the first of equals.
    fn ground(&self, p: Vec2<S>, elapsed: S) -> Option<Touching<S>> {
        let shape = self.shape_at(p);
        let probe = scale(self.up, -self.allowance);
        let mut best: Option<(S::Exact, Touching<S>)> = None;
        for k in 0..self.obstacles.len() {
            let (other, _) = self.relative(k, Vec2::ZERO, elapsed, S::ZERO);
            let (normal, point) = match sweep_shape(&shape, probe, &other) {
                Sweep::Miss => continue,
                Sweep::InContact { contact, .. } => {
                    if !self.blocks(k, contact.normal, contact.depth) {
                        continue;
                    }
                    (contact.normal, contact.point)
                }
                Sweep::Hit(hit) => {
                    if !self.blocks(k, hit.normal, S::ZERO) {
                        continue;
                    }
                    (hit.normal, hit.point)
                }
            };
            let u = self.limit.up(normal);
            if self.limit.within(u) && best.as_ref().is_none_or(|(b, _)| u > *b) {
                best = Some((u, Touching { obstacle: k, normal, point }));
            }
        }
        best.map(|(_, found)| found)
    }

    /// Ground found, as a game reads it.
    fn report(&self, t: Touching<S>) -> Ground<S> {
        Ground {
            other: self.obstacles[t.obstacle].id,
            normal: t.normal,
            point: t.point,
            velocity: self.velocity_of(t.obstacle),
        }
    }

    /// How the thing obstacle `k` is moves this tick.
    fn velocity_of(&self, k: usize) -> Vec2<S> {
        let o = &self.obstacles[k];
        match o.id {
            Id::Collider(_) => o.travel,
            Id::Body(_) => self.world.bodies[o.index].velocity,
        }
    }

    /// `motion` with its part along up removed.
    fn level(&self, motion: Vec2<S>) -> Vec2<S> {
        hold_vec(motion - scale(self.up, dot(motion, self.up)))
    }

    /// What is left of `motion` after meeting walkable ground along
    /// `normal`: its level part, the part into the ground dropped. Where
    /// that goes up the slope it is carried along it, so that it keeps its
    /// pace across; where it leaves the ground (down a slope, off a
    /// rounded edge) it goes on level, and the snap brings the character
    /// back down. Moving up and away, it slides as against a wall.
    fn along_floor(&self, motion: Vec2<S>, normal: Vec2<S>) -> Vec2<S> {
        if dot(motion, self.up) > S::ZERO {
            return slide(motion, normal);
        }
        let level = self.level(motion);
        let along = dot(level, normal);
        if along >= S::ZERO {
            return level;
        }
        // `level + up·k` is square to `normal` for `k = −(level·n)/(up·n)`,
        // and `up·n > 0` on walkable ground.
        let rise = ratio(-along, dot(self.up, normal));
        in_range(level + scale(self.up, rise))
    }

    /// The character at `p`, blocked by a wall while on the ground, with
    /// `motion` left: where it ends if it can step up (see the module
    /// documentation), at time `elapsed` of the tick.
    fn step_up(&self, p: Vec2<S>, motion: Vec2<S>, elapsed: S, height: S) -> Option<Vec2<S>> {
        let forward = self.level(motion);
        if height <= S::ZERO || forward == Vec2::ZERO {
            return None;
        }
        // At least the character's radius forward, onto the step: a rounded
        // foot landing on the step's edge would find it too steep.
        let radius = self.body.radius();
        let forward = if manhattan(forward) < radius { offset(forward.to_exact(), radius) } else { forward };
        let lift = scale(self.up, height);
        let lift = self.cast(p, lift, elapsed, S::ZERO, None).map_or(lift, |hit| hit.travel);
        if dot(lift, self.up) <= S::ZERO {
            return None;
        }
        let raised = add_held(p, lift);
        let ahead = self.cast(raised, forward, elapsed, S::ZERO, None).map_or(forward, |hit| hit.travel);
        if ahead == Vec2::ZERO {
            return None;
        }
        let over = add_held(raised, ahead);
        let landing = self.cast(over, -lift, elapsed, S::ZERO, None)?;
        let landed = add_held(over, landing.travel);
        let walkable = self.limit.within(self.limit.up(landing.normal));
        (walkable && dot(hold_vec(landed - p), self.up) > S::ZERO).then_some(landed)
    }
}

/// `motion` with its part into a surface along `normal` taken off.
fn slide<S: Scalar>(motion: Vec2<S>, normal: Vec2<S>) -> Vec2<S> {
    let into = dot(motion, normal);
    if into < S::ZERO { in_range(motion - scale(normal, into)) } else { motion }
}

impl<S: Scalar> World<S> {
    /// Moves a character: a body of inverse mass zero (nothing pushes it,
    /// and gravity leaves it to the game), by `motion` this tick (the
    /// game's input and its own gravity, in units per tick), sliding along
    /// what it meets, climbing walkable slopes and steps, riding what it
    /// stands on, pushing dynamic bodies and snapping down onto the ground
    /// (see [`CharacterConfig`] for each, and its
    /// settings). Call it before
    /// [`World::step`], after setting the colliders' velocities for the
    /// tick: the character is moved at once, as the step will move the
    /// colliders, and its velocity is set to zero so that the step does
    /// not move it again.
    ///
    /// Exact and never late, as the world's sweeps are: it never ends
    /// inside anything that blocks it. Deterministic, with no state beyond
    /// the body.
    ///
    /// # Errors
    ///
    /// [`WorldError::UnknownBody`]; [`WorldError::Character`] for a body
    /// of non-zero inverse mass or a setting out of its range;
    /// [`WorldError::Velocity`] for a motion outside the safe range. The
    /// world is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, CharacterConfig, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// world.add_collider(Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0))?)?;
    /// world.add_collider(Segment::new(Vec2::new(3.0, 0.0), Vec2::new(3.0, 5.0))?)?; // a wall
    /// let mut def = BodyDef::capsule(Vec2::new(0.0, 0.75), Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 0.25);
    /// def.inverse_mass = 0.0;
    /// let player = world.add_body(def)?;
    /// let config = CharacterConfig::new();
    ///
    /// // Walk right and fall: stopped by the wall, held up by the floor.
    /// let moved = world.move_character(player, Vec2::new(5.0, -0.5), &config)?;
    /// assert!(moved.grounded() && moved.wall);
    /// assert_eq!(world.body(player).unwrap().position(), Vec2::new(2.75, 0.75));
    /// world.step();
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn move_character(
        &mut self,
        id: BodyId,
        motion: Vec2<S>,
        config: &CharacterConfig<S>,
    ) -> Result<CharacterMove<S>, WorldError> {
        let index = self.body_index(id)?;
        config.validate()?;
        if !in_safe_range(motion) {
            return Err(WorldError::Velocity);
        }
        let body = self.bodies[index];
        if body.inverse_mass != S::ZERO {
            return Err(WorldError::Character);
        }
        let Plan { mut outcome, end, pushes } = self.plan_move(&body, motion, config);
        for (k, impulse) in pushes {
            // Bounded and along a unit normal: in range; a body whose
            // velocity it would take out of range keeps its own.
            let change = scale(impulse, self.bodies[k].inverse_mass);
            let velocity = self.bodies[k].velocity + change;
            if in_safe_range(change) && in_safe_range(velocity) {
                wake_body(&mut self.bodies, k);
                self.bodies[k].velocity = velocity;
            }
        }
        wake_body(&mut self.bodies, index);
        let body = &mut self.bodies[index];
        let start = body.position();
        body.place(end);
        body.velocity = Vec2::ZERO;
        // Within the range, as `end` is (placing moves a capsule only
        // towards where it started).
        outcome.motion = hold_vec(body.position() - start);
        self.index.invalidate();
        Ok(outcome)
    }

    /// What the character `id` stands on before it moves: walkable ground
    /// within a few rounding steps below it, as [`World::move_character`]
    /// finds it when a move begins (and as its
    /// [`CharacterMove::ground`] says after one): for a game to decide,
    /// before it moves, whether a jump may start.
    ///
    /// # Errors
    ///
    /// As [`World::move_character`]'s, for the body and the settings.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_core::world::{BodyDef, CharacterConfig, Id, World, WorldConfig};
    /// use geom_core::{Segment, Vec2};
    ///
    /// let mut world = World::new(WorldConfig::new(Vec2::new(0.0_f64, 0.0)))?;
    /// let floor = world.add_collider(Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0))?)?;
    /// let mut def = BodyDef::new(Vec2::new(0.0, 0.5), 0.5);
    /// def.inverse_mass = 0.0;
    /// let player = world.add_body(def)?;
    /// let ground = world.character_ground(player, &CharacterConfig::new())?.unwrap();
    /// assert_eq!((ground.other, ground.normal), (Id::Collider(floor), Vec2::new(0.0, 1.0)));
    /// # Ok::<(), geom_core::world::WorldError>(())
    /// ```
    pub fn character_ground(&self, id: BodyId, config: &CharacterConfig<S>) -> Result<Option<Ground<S>>, WorldError> {
        let body = &self.bodies[self.body_index(id)?];
        config.validate()?;
        if body.inverse_mass != S::ZERO {
            return Err(WorldError::Character);
        }
        let (mover, ..) = self.mover(body, config);
        Ok(mover.ground(body.position(), S::ZERO).map(|t| mover.report(t)))
    }

    /// A mover for `body` with the obstacles near it for a ground probe,
    /// the reach that took, and the fastest collider's travel.
    fn mover(&self, body: &Body<S>, config: &CharacterConfig<S>) -> (Mover<'_, S>, S, S) {
        let margin = rounding_margin(body);
        let mut mover = Mover {
            world: self,
            body: *body,
            obstacles: Vec::new(),
            allowance: margin + margin,
            limit: SlopeLimit::new(config.up, config.min_floor_up),
            up: offset(config.up.to_exact(), S::ONE),
        };
        // Everything the move can reach: the ground first, then its motion
        // with the ride, a step and a snap; and the colliders' travel.
        let fastest =
            self.colliders.iter().map(|c| manhattan(travel(c))).fold(S::ZERO, |a, b| if b > a { b } else { a });
        let base = mover.allowance + mover.allowance + fastest;
        mover.gather(body.position(), base);
        (mover, base, fastest)
    }

    /// The move of `body` (see [`World::move_character`]).
    fn plan_move(&self, body: &Body<S>, motion: Vec2<S>, config: &CharacterConfig<S>) -> Plan<S> {
        let (mut mover, base, fastest) = self.mover(body, config);
        let start = body.position();
        let was = mover.ground(start, S::ZERO);
        let carry = was.map_or(Vec2::ZERO, |w| mover.velocity_of(w.obstacle));
        let wanted = in_range(motion + carry);
        mover.gather(start, base + manhattan(wanted) + config.step_height + config.snap_distance + fastest);

        let mut plan = Plan {
            outcome: CharacterMove { motion: Vec2::ZERO, ground: None, stepped: false, wall: false, ceiling: false },
            end: start,
            pushes: Vec::new(),
        };
        let mut p = within_reach(start, mover.collide_and_slide(start, wanted, was.is_some(), config, &mut plan));
        let mut end = mover.ground(p, S::ONE);
        if end.is_none() && was.is_some() && dot(motion, mover.up) <= S::ZERO && config.snap_distance > S::ZERO {
            let down = scale(mover.up, -config.snap_distance);
            if let Some(hit) = mover.cast(p, down, S::ONE, S::ZERO, None)
                && mover.limit.within(mover.limit.up(hit.normal))
            {
                p = within_reach(start, add_held(p, hit.travel));
                end = mover.ground(p, S::ONE);
            }
        }
        plan.outcome.ground = end.map(|t| mover.report(t));
        plan.end = p;
        plan
    }
}

/// Where a character that started at `start` and slid to `p` ends: `p`,
/// held within the range and within the range's length of `start` in each
/// direction, so that both its place and its move stay in range. Riding
/// moving obstacles can take a slide up to twice the range (the move
/// asked for and the obstacles' travel, each up to the range); a move that
/// long saturates there.
fn within_reach<S: Scalar>(start: Vec2<S>, p: Vec2<S>) -> Vec2<S> {
    let hold = |s: S, v: S| {
        // `s` is in range: `s ± MAX_COORD` is within twice it, no overflow.
        let (low, high) = (max(-S::MAX_COORD, s - S::MAX_COORD), min(S::MAX_COORD, s + S::MAX_COORD));
        max(low, min(high, v))
    };
    Vec2::new(hold(start.x, p.x), hold(start.y, p.y))
}
