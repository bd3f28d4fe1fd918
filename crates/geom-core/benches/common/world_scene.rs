//! The world benchmarks' scenes as plain data in `f64`, so that geom's world
//! (`benches/world.rs`) and rapier2d (`peers/benches/world.rs`) build the
//! very same scene: walls as segments, balls as position, radius, velocity
//! and restitution, and gravity.
//!
//! Units are geom's: lengths in units, velocities in units per tick and
//! gravity in units per tick per tick, one `World::step` per tick. Every
//! number is on a 2^-12 grid, so every scalar type holds it exactly.
//!
//! - [`platforms`]: the box of slanted platforms with `n` balls dropped into
//!   its top half. For `n = 1000` it is exactly the scene `world/<type>`
//!   has always measured (a 400 × 400 box, 196 platforms); for more balls
//!   the box and its grid of platforms grow with `√(n / 1000)`, so that the
//!   density of balls and platforms stays the same (4000: 800 × 800 and 784
//!   platforms; 16000: 1600 × 1600 and 3136 platforms).
//! - [`pile`]: a dense pile of `n` touching balls at rest, on the floor of
//!   the same 400 × 400 box (no platforms), held in a bin 100 wide.
//! - [`jar`]: `n` balls of radius 0.4 to 1.6 (a merge game's fruit) placed
//!   apart on a staggered grid above a jar `width` wide, falling in under
//!   gravity −0.01.
//! - [`square_pile`]: `n` balls of radius 1 on a square grid, touching,
//!   in a bin exactly 100 balls wide, under gravity −0.05.
//! - [`tube`]: `n` balls of radius 0.5 stacked touching in a tube exactly
//!   as wide, under gravity −0.01.
//! - [`stack`]: a ball `ratio` times as heavy resting on another, on a
//!   floor, under gravity −0.01.
//!
//! [`WorldScene::settled`] turns any of them into the same scene measured
//! 1800 ticks in, once it has come to rest. geom builds a scene with
//! sleeping on (its default configuration) or off
//! ([`WorldScene::world_with`]).
#![allow(dead_code, unreachable_pub)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Bencher;
use geom_core::world::{BodyDef, ColliderDef, World, WorldConfig};
use geom_core::{Scalar, Segment, Vec2};

use super::{Draw, SplitMix};

/// A ball: a dynamic circle (unit mass, no friction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    pub position: [f64; 2],
    pub radius: f64,
    /// Units per tick.
    pub velocity: [f64; 2],
    pub restitution: f64,
    /// One over the mass (1 but for [`stack`]'s heavy ball).
    pub inverse_mass: f64,
}

/// A scene: static walls (segments `[x0, y0, x1, y1]`), balls and gravity.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldScene {
    /// The scene's function and its count (`platforms_<n>`, `jar_<n>`,
    /// …), then `_settled` for [`WorldScene::settled`].
    pub name: String,
    /// Units per tick per tick.
    pub gravity: [f64; 2],
    pub walls: Vec<[f64; 4]>,
    pub balls: Vec<Ball>,
    /// How many ticks a benchmark steps the scene before it measures one.
    pub warm_up: u32,
}

fn round(v: f64) -> f64 {
    (v * 4096.0).round() / 4096.0
}

/// The four walls of a box `±half` around the origin.
fn walls(half: f64) -> Vec<[f64; 4]> {
    vec![[-half, -half, half, -half], [half, -half, half, half], [half, half, -half, half], [-half, half, -half, -half]]
}

/// The box of platforms with `n` balls (see the module documentation),
/// stepped 120 ticks before a tick is measured: most balls are then falling
/// onto or bouncing between the platforms, and many are in contact.
pub fn platforms(n: usize) -> WorldScene {
    // 1 for 1000 balls, 2 for 4000, 4 for 16000.
    let scale = (n as f64 / 1000.0).sqrt();
    let half = round(200.0 * scale);
    #[allow(clippy::cast_sign_loss)] // a positive number of rows
    let grid = (14.0 * scale).round() as u32;
    let mut walls = walls(half);
    for row in 0..grid {
        for col in 0..grid {
            let x = -half + 18.0 + f64::from(col) * 26.0 + if row % 2 == 0 { 0.0 } else { 13.0 };
            let y = -half + 20.0 + f64::from(row) * 26.0;
            let tilt = if (row + col) % 2 == 0 { 3.0 } else { -3.0 };
            walls.push([x - 8.0, y + tilt, x + 8.0, y - tilt]);
        }
    }
    let mut rng = SplitMix(0x0077_6f72_6c64);
    let balls = (0..n)
        .map(|_| {
            let position = [rng.range(-half + 10.0, half - 10.0), rng.range(0.0, half - 10.0)];
            let radius = rng.range(0.5, 1.5);
            let velocity = [rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)];
            Ball { position, radius, velocity, restitution: rng.range(0.0, 0.8), inverse_mass: 1.0 }
        })
        .collect();
    WorldScene { name: format!("platforms_{n}"), gravity: [0.0, -0.05], walls, balls, warm_up: 120 }
}

/// Balls per even row of the pile (odd rows hold one fewer).
pub const PILE_COLUMNS: usize = 100;

/// A dense pile of `n` balls at rest, stepped 10 ticks before a tick is
/// measured.
///
/// The balls (radii 0.5 to 0.55, no bounce, at rest) sit on a hexagonal
/// grid of spacing 1 on the floor of a 400 × 400 box, rows of 100 and 99
/// in turn (5000 balls: 51 rows, 44 high), between two walls 100 apart:
/// every ball touches or overlaps (by up to 0.1) its six neighbours, the
/// floor or the bin's walls, and the pile stays a pile instead of spreading
/// over the floor.
pub fn pile(n: usize) -> WorldScene {
    let (half, width) = (200.0, PILE_COLUMNS as f64);
    let row_height = round(3.0_f64.sqrt() / 2.0);
    let rows = (2 * n).div_ceil(2 * PILE_COLUMNS - 1);
    let mut walls = walls(half);
    let top = round(-half + rows as f64 * row_height + 10.0);
    walls.push([-width / 2.0, -half, -width / 2.0, top]);
    walls.push([width / 2.0, -half, width / 2.0, top]);
    let mut rng = SplitMix(0x7069_6c65);
    let mut balls = Vec::with_capacity(n);
    'rows: for row in 0..rows {
        let (count, first) =
            if row % 2 == 0 { (PILE_COLUMNS, -width / 2.0 + 0.5) } else { (PILE_COLUMNS - 1, -width / 2.0 + 1.0) };
        let y = -half + 0.5 + row as f64 * row_height;
        for col in 0..count {
            if balls.len() == n {
                break 'rows;
            }
            let position = [first + col as f64, y];
            balls.push(Ball {
                position,
                radius: rng.range(0.5, 0.55),
                velocity: [0.0; 2],
                restitution: 0.0,
                inverse_mass: 1.0,
            });
        }
    }
    WorldScene { name: format!("pile_{n}"), gravity: [0.0, -0.05], walls, balls, warm_up: 10 }
}

/// A ball at rest, of unit mass and no bounce.
fn resting(position: [f64; 2], radius: f64) -> Ball {
    Ball { position, radius, velocity: [0.0; 2], restitution: 0.0, inverse_mass: 1.0 }
}

/// A jar `width` wide (a floor at 0 and walls twice as tall as the balls
/// need when packed), and `n` balls of radius 0.4 to 1.6 on a staggered
/// grid 3.5 apart starting 2 above the floor, at rest: they fall in and
/// pile up, as a merge game's fruit does. Stepped 120 ticks before a tick
/// is measured, when most are falling and the first are piling up.
pub fn jar(n: usize, width: f64) -> WorldScene {
    let half = width / 2.0;
    let spacing = 3.5;
    #[allow(clippy::cast_sign_loss)] // at least 1
    let columns = ((width - 1.0) / spacing).floor().max(1.0) as usize;
    let rows = n.div_ceil(columns);
    let top = round(4.0 + rows as f64 * spacing);
    let walls = vec![[-half, 0.0, half, 0.0], [-half, 0.0, -half, top], [half, 0.0, half, top]];
    let mut rng = SplitMix(0x006a_6172);
    let balls = (0..n)
        .map(|k| {
            let (row, col) = (k / columns, k % columns);
            let shift = if row % 2 == 0 { 0.0 } else { spacing / 4.0 };
            let x = -half + spacing / 2.0 + 0.5 + col as f64 * spacing + shift;
            let y = 2.0 + row as f64 * spacing;
            resting([round(x), round(y)], rng.range(0.4, 1.6))
        })
        .collect();
    WorldScene { name: format!("jar_{n}"), gravity: [0.0, -0.01], walls, balls, warm_up: 120 }
}

/// `n` balls of radius 1 touching on a square grid (spacing 2) in a bin
/// exactly 100 balls wide, at rest under gravity −0.05: a grid that the
/// load squeezes, and that settles. Stepped 120 ticks before a tick is
/// measured.
pub fn square_pile(n: usize) -> WorldScene {
    let columns = 100;
    let half = columns as f64;
    let rows = n.div_ceil(columns);
    let top = 2.0 * rows as f64 + 10.0;
    let walls = vec![[-half, 0.0, half, 0.0], [-half, 0.0, -half, top], [half, 0.0, half, top]];
    let balls = (0..n)
        .map(|k| {
            let (row, col) = (k / columns, k % columns);
            resting([-half + 1.0 + 2.0 * col as f64, 1.0 + 2.0 * row as f64], 1.0)
        })
        .collect();
    WorldScene { name: format!("square_pile_{n}"), gravity: [0.0, -0.05], walls, balls, warm_up: 120 }
}

/// `n` balls of radius 0.5 stacked touching in a tube 1 wide, on its
/// floor, under gravity −0.01: at rest, the top ball's centre is at
/// `n − 0.5`.
pub fn tube(n: usize) -> WorldScene {
    let top = n as f64 + 5.0;
    let walls = vec![[-0.5, 0.0, 0.5, 0.0], [-0.5, 0.0, -0.5, top], [0.5, 0.0, 0.5, top]];
    let balls = (0..n).map(|k| resting([0.0, 0.5 + k as f64], 0.5)).collect();
    WorldScene { name: format!("tube_{n}"), gravity: [0.0, -0.01], walls, balls, warm_up: 0 }
}

/// A ball of radius 0.5 resting on a floor and another `ratio` times as
/// heavy resting on it, under gravity −0.01: at rest, the top one's
/// centre is at 1.5.
pub fn stack(ratio: f64) -> WorldScene {
    let walls = vec![[-10.0, 0.0, 10.0, 0.0]];
    let heavy = Ball { inverse_mass: 1.0 / ratio, ..resting([0.0, 1.5], 0.5) };
    let balls = vec![resting([0.0, 0.5], 0.5), heavy];
    WorldScene { name: format!("stack_{ratio}"), gravity: [0.0, -0.01], walls, balls, warm_up: 0 }
}

fn vec2<S: Scalar>([x, y]: [f64; 2]) -> Vec2<S> {
    Vec2::new(S::from_f64(x), S::from_f64(y))
}

impl Ball {
    /// The ball as a geom body in `S`.
    pub fn body<S: Scalar>(&self) -> BodyDef<S> {
        let mut def = BodyDef::new(vec2(self.position), S::from_f64(self.radius));
        def.velocity = vec2(self.velocity);
        def.restitution = S::from_f64(self.restitution);
        def.inverse_mass = S::from_f64(self.inverse_mass);
        def
    }
}

/// A wall as a geom collider in `S`.
pub fn collider<S: Scalar>([x0, y0, x1, y1]: [f64; 4]) -> ColliderDef<S> {
    ColliderDef::new(Segment::new(vec2([x0, y0]), vec2([x1, y1])).expect("in range"))
}

impl WorldScene {
    /// The same scene stepped 1800 ticks (30 s at 60 ticks per second)
    /// before a tick is measured, named `<name>_settled`: by then a jar or
    /// a pile has come to rest, and with sleeping on its bodies sleep.
    #[must_use]
    pub fn settled(self) -> Self {
        Self { name: format!("{}_settled", self.name), warm_up: 1800, ..self }
    }

    /// geom's configuration for the scene: its gravity, the rest default.
    pub fn config<S: Scalar>(&self) -> WorldConfig<S> {
        WorldConfig::new(vec2(self.gravity))
    }

    /// The scene as a geom world in `S`, not stepped yet: the walls, then
    /// the balls, in order. With `sleeping` the configuration is
    /// [`config`](Self::config)'s; without, `sleep_ticks` is 0 and every
    /// body stays awake.
    pub fn world_with<S: Scalar>(&self, sleeping: bool) -> World<S> {
        let mut config = self.config();
        if !sleeping {
            config.sleep_ticks = 0;
        }
        self.world_in(config)
    }

    /// The scene as a geom world in `S` under `config`, not stepped yet:
    /// the walls, then the balls, in order.
    pub fn world_in<S: Scalar>(&self, config: WorldConfig<S>) -> World<S> {
        let mut world = World::new(config).expect("valid config");
        for &wall in &self.walls {
            world.add_collider(collider::<S>(wall)).expect("valid collider");
        }
        for ball in &self.balls {
            world.add_body(ball.body()).expect("valid body");
        }
        world
    }

    /// The scene as a geom world in `S` with sleeping on, not stepped yet
    /// (see [`world_with`](Self::world_with)).
    pub fn world<S: Scalar>(&self) -> World<S> {
        self.world_with(true)
    }

    /// The scene as a geom world in `S`, sleeping on or off (see
    /// [`world_with`](Self::world_with)), stepped `warm_up` ticks.
    pub fn warmed_up_with<S: Scalar>(&self, sleeping: bool) -> World<S> {
        let mut world = self.world_with(sleeping);
        for _ in 0..self.warm_up {
            world.step();
        }
        world
    }

    /// The scene as a geom world in `S` with sleeping on, stepped
    /// `warm_up` ticks.
    pub fn warmed_up<S: Scalar>(&self) -> World<S> {
        self.warmed_up_with(true)
    }

    /// The world [`time_ticks`] starts from to time the tick after the
    /// warm-up: [`warmed_up_with`](Self::warmed_up_with) one tick short.
    pub fn before_measured<S: Scalar>(&self, sleeping: bool) -> World<S> {
        Self { warm_up: self.warm_up.saturating_sub(1), ..self.clone() }.warmed_up_with(sleeping)
    }
}

/// Times `tick` (a `step` and whatever a benchmark reads after it) on
/// the world one tick after `before`. Each iteration copies `before`,
/// untimed, into one world kept from iteration to iteration (`clone_from`,
/// as `World::restore` does) and steps it once, untimed, so that what a
/// step keeps from tick to tick without it being state (its buffers, grown
/// as a game's are after its first tick, and the narrow phase's answers
/// for bodies that did not change) is what a game's world has from the
/// tick before. Timing the same tick again and again from one state would
/// find every answer of the last iteration still good, moving bodies'
/// too; a fresh `clone` per iteration would time the buffers being
/// allocated and first touched, every time.
pub fn time_ticks<S: Scalar, R>(b: &mut Bencher<'_>, before: &World<S>, mut tick: impl FnMut(&mut World<S>) -> R) {
    let mut world = before.clone();
    b.iter_custom(|iterations| {
        let mut total = Duration::ZERO;
        for _ in 0..iterations {
            world.clone_from(before);
            world.step();
            let began = Instant::now();
            black_box(tick(&mut world));
            total += began.elapsed();
        }
        total
    });
}
