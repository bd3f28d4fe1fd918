//! A two-player platformer on `geom_core::world`'s character controller,
//! driven by the `ggrs` crate's `SyncTestSession` as the `rollback` example
//! is: every frame it saves the game, rolls back 7 frames, re-simulates
//! them and compares checksums, as a rollback netcode session does when a
//! late input arrives.
//!
//! The game: a room of thin walls with a step 0.3 high, a 30° slope up to a
//! plateau, a one-way ledge to jump up through and land on, a moving
//! platform, three crates (dynamic bodies) and three coins (sensors). The
//! players are upright capsules of inverse mass zero, moved by
//! `World::move_character`: they walk, fall under their own gravity (kept
//! by the game, not the world), jump, climb the step and the slope, ride
//! the platform and push the crates about. A coin a player touches, from
//! the world's sensor events, scores for that player and moves to another
//! spot. The players' inputs (left, right, jump) come from a simple bot
//! that makes for the nearest coin.
//!
//! ```sh
//! cargo run --release -p geom-core --example platformer [FRAMES]
//! ```
//!
//! The last line is `<frames> frames, <mismatches> mismatches, coins
//! <a>:<b>, ledge <a>:<b>`: the coins each player took and the frames each
//! stood on the one-way ledge. What else the players did goes to stderr.

use fixed::types::I32F32;
use geom_core::world::{BodyDef, BodyId, CharacterConfig, ColliderDef, ColliderId, EventKind, Id, World, WorldConfig};
use geom_core::{Circle, Segment, Vec2, contact_capsule_capsule};
use ggrs::{
    Config, Frame, GameStateCell, GgrsError, GgrsRequest, InputStatus, PlayerType, PredictRepeatLast, SessionBuilder,
    SyncTestSession,
};

/// The game's scalar: fixed point, bit-identical everywhere.
type S = I32F32;

/// A scalar from a literal.
fn s(x: f64) -> S {
    S::from_num(x)
}

/// A vector from literals.
fn v(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(s(x), s(y))
}

/// A player's input for one frame: bit 0 left, bit 1 right, bit 2 jump.
type Input = u8;

/// The input bit that walks left.
const LEFT: Input = 1;
/// The input bit that walks right.
const RIGHT: Input = 2;
/// The input bit that jumps (from the ground only).
const JUMP: Input = 4;

/// How far a player walks in a tick.
const WALK: f64 = 0.1;
/// How much a player's vertical speed drops every tick in the air.
const GRAVITY: f64 = 0.02;
/// A jump's vertical speed: about 3 units high.
const JUMP_SPEED: f64 = 0.34;
/// The fastest a player falls.
const MAX_FALL: f64 = 0.5;
/// The radius of a coin.
const COIN_RADIUS: f64 = 0.4;
/// How many frames the moving platform goes one way before it turns.
const PLATFORM_TURN: u32 = 200;
/// How many frames a coin nobody takes stays where it is.
const COIN_PATIENCE: u32 = 600;
/// The spot above the moving platform's travel.
const PLATFORM_SPOT: usize = 1;
/// Where a coin can be: on the floor, the step, the slope, the plateau and
/// the ledge, and one above the moving platform's travel that only a jump
/// from the platform reaches.
const SPOTS: [(f64, f64); 10] = [
    (0.0, 3.3),
    (-13.5, 5.2),
    (16.0, 4.1),
    (-7.0, 1.4),
    (-18.5, 1.0),
    (9.0, 2.6),
    (4.0, 1.0),
    (18.5, 4.1),
    (-1.5, 3.3),
    (-11.0, 1.0),
];

/// What the game keeps of a player beyond its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Player {
    /// Its body: a capsule of inverse mass zero.
    body: BodyId,
    /// Its vertical speed in units per tick: its own gravity and jumps.
    speed: S,
    /// Whether it stood on walkable ground after its last move.
    grounded: bool,
    /// Whether its last move hit a wall (which the bot jumps at).
    wall: bool,
    /// How many frames in a row it has wanted to walk and not moved.
    blocked: u32,
}

/// A coin: a sensor collider at one of the [`SPOTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Coin {
    /// Its collider.
    id: ColliderId,
    /// Which spot it is at.
    spot: usize,
    /// How many frames it has been there.
    age: u32,
}

/// What the players did, counted as the game is played (and so rolled back
/// with it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stats {
    /// The coins each player took.
    coins: [u32; 2],
    /// The frames each player ended on the ground.
    grounded: [u32; 2],
    /// The frames each player ended on the one-way ledge.
    ledge: [u32; 2],
    /// The frames each player ended on the slope.
    slope: [u32; 2],
    /// The frames each player ended on the moving platform.
    riding: [u32; 2],
    /// The steps each player stepped up.
    steps: [u32; 2],
    /// The jumps each player made.
    jumps: [u32; 2],
    /// The frames each player's move hit a wall.
    walls: [u32; 2],
    /// The frames each player ended a tick overlapping a solid collider or
    /// the other player by more than 2^-20.
    inside: [u32; 2],
    /// The deepest such overlap.
    deepest: S,
    /// The most frames in a row each player wanted to walk and did not move.
    longest_blocked: [u32; 2],
}

/// The whole game state: what a rollback saves and restores.
#[derive(Clone, Debug)]
struct Game {
    /// The world: the level, the players, the crates and the coins.
    world: World<S>,
    /// How many frames have been played.
    frame: u32,
    /// How the players move.
    character: CharacterConfig<S>,
    /// The two players.
    players: [Player; 2],
    /// The crates, and where each started.
    crates: [(BodyId, Vec2<S>); 3],
    /// The coins.
    coins: [Coin; 3],
    /// How many times a coin has moved: picks the next spot.
    moves: u32,
    /// The one-way ledge.
    ledge: ColliderId,
    /// The 30° slope.
    slope: ColliderId,
    /// The moving platform.
    platform: ColliderId,
    /// What the players did.
    stats: Stats,
}

impl Game {
    /// The level at the start: the players on the floor, the crates at
    /// rest, the coins at the first spots.
    fn new() -> Self {
        let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).expect("a valid configuration");
        let mut solid = |a: (f64, f64), b: (f64, f64)| {
            let mut def = ColliderDef::new(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range"));
            def.friction = s(0.5);
            world.add_collider(def).expect("a valid wall")
        };
        // The room.
        solid((-20.0, 0.0), (20.0, 0.0));
        solid((-20.0, 0.0), (-20.0, 12.0));
        solid((20.0, 0.0), (20.0, 12.0));
        solid((-20.0, 12.0), (20.0, 12.0));
        // A step 0.3 high, too high for the default step height.
        solid((-9.0, 0.0), (-9.0, 0.3));
        solid((-9.0, 0.3), (-5.0, 0.3));
        solid((-5.0, 0.3), (-5.0, 0.0));
        // A 30° slope up to a plateau 3 high against the right wall.
        let top = 6.0 + 3.0 * 3.0_f64.sqrt();
        let slope = solid((6.0, 0.0), (top, 3.0));
        solid((top, 3.0), (20.0, 3.0));
        // The moving platform, solid from every side, turned round by the
        // game every `PLATFORM_TURN` frames.
        let platform = solid((-18.0, 2.4), (-15.0, 2.4));
        world.set_collider_velocity(platform, v(0.03, 0.0)).expect("a valid velocity");
        let mut ledge = ColliderDef::new(Segment::new(v(-2.5, 2.2), v(2.5, 2.2)).expect("in range"));
        ledge.one_way = Some(v(0.0, 1.0));
        ledge.friction = s(0.5);
        let ledge = world.add_collider(ledge).expect("a valid ledge");
        let coins = [0, 1, 2].map(|spot| {
            let mut def = ColliderDef::new(coin_at(spot));
            def.sensor = true;
            Coin { id: world.add_collider(def).expect("a valid coin"), spot, age: 0 }
        });
        let players = [-3.0, 3.5].map(|x| {
            let mut def = BodyDef::capsule(v(x, 0.75), v(0.0, -0.5), v(0.0, 0.5), s(0.25));
            def.inverse_mass = S::ZERO;
            let body = world.add_body(def).expect("a valid player");
            Player { body, speed: S::ZERO, grounded: false, wall: false, blocked: 0 }
        });
        let mut add_crate = |mut def: BodyDef<S>| {
            def.friction = s(0.5);
            (world.add_body(def).expect("a valid crate"), def.position)
        };
        let crates = [
            add_crate(BodyDef::new(v(5.0, 0.4), s(0.4))),
            add_crate(BodyDef::new(v(-12.0, 0.35), s(0.35))),
            add_crate(BodyDef::capsule(v(15.0, 3.3), v(-0.4, 0.0), v(0.4, 0.0), s(0.3))),
        ];
        let mut character = CharacterConfig::new();
        character.step_height = s(0.35);
        Self {
            world,
            frame: 0,
            character,
            players,
            crates,
            coins,
            moves: 0,
            ledge,
            slope,
            platform,
            stats: Stats::default(),
        }
    }

    /// Where a body is.
    fn position(&self, body: BodyId) -> Vec2<S> {
        self.world.body(body).expect("a body").position()
    }

    /// One frame: the platform's turn, each player's move from its input,
    /// a tick, the coins taken.
    fn advance(&mut self, inputs: &[(Input, InputStatus)]) {
        if self.frame > 0 && self.frame.is_multiple_of(PLATFORM_TURN) {
            let velocity = self.world.collider(self.platform).expect("the platform").velocity();
            self.world.set_collider_velocity(self.platform, -velocity).expect("a valid velocity");
        }
        for (k, &(input, _)) in inputs.iter().enumerate().take(2) {
            self.move_player(k, input);
        }
        self.world.step();
        let mut taken = [None; 3];
        for event in self.world.events() {
            let Some(k) = self.players.iter().position(|p| p.body == event.body) else { continue };
            if event.kind != EventKind::SensorBegan {
                continue;
            }
            if let Some(c) = self.coins.iter().position(|c| event.other == Id::Collider(c.id)) {
                // Two players on one coin in one tick: the first event's.
                taken[c].get_or_insert(k);
            }
        }
        for (c, taken) in taken.into_iter().enumerate() {
            self.coins[c].age += 1;
            if let Some(k) = taken {
                self.stats.coins[k] += 1;
                self.move_coin(c);
            } else if self.coins[c].age >= COIN_PATIENCE {
                self.move_coin(c);
            }
        }
        for k in 0..2 {
            let depth = self.overlap(k);
            if depth > s(1.0 / 1_048_576.0) {
                self.stats.inside[k] += 1;
            }
            self.stats.deepest = self.stats.deepest.max(depth);
        }
        self.frame += 1;
    }

    /// Moves player `k` by its input and its own gravity.
    fn move_player(&mut self, k: usize, input: Input) {
        let mut player = self.players[k];
        let mut walk = S::ZERO;
        if input & LEFT != 0 {
            walk -= s(WALK);
        }
        if input & RIGHT != 0 {
            walk += s(WALK);
        }
        if input & JUMP != 0 && player.grounded {
            player.speed = s(JUMP_SPEED);
            self.stats.jumps[k] += 1;
        }
        let moved = self.world.move_character(player.body, Vec2::new(walk, player.speed), &self.character);
        let moved = moved.expect("a valid move");
        player.grounded = moved.grounded();
        // A move that stepped up a ledge hit its side first: not a wall.
        player.wall = moved.wall && !moved.stepped;
        if moved.grounded() {
            player.speed = -s(GRAVITY);
        } else {
            if moved.ceiling && player.speed > S::ZERO {
                player.speed = S::ZERO;
            }
            player.speed = (player.speed - s(GRAVITY)).max(-s(MAX_FALL));
        }
        player.blocked = if walk != S::ZERO && moved.motion.x.abs() < s(0.001) { player.blocked + 1 } else { 0 };
        let stats = &mut self.stats;
        stats.longest_blocked[k] = stats.longest_blocked[k].max(player.blocked);
        stats.grounded[k] += u32::from(moved.grounded());
        stats.steps[k] += u32::from(moved.stepped);
        stats.walls[k] += u32::from(moved.wall);
        if let Some(ground) = moved.ground {
            stats.ledge[k] += u32::from(ground.other == Id::Collider(self.ledge));
            stats.slope[k] += u32::from(ground.other == Id::Collider(self.slope));
            stats.riding[k] += u32::from(ground.other == Id::Collider(self.platform));
        }
        self.players[k] = player;
    }

    /// Moves coin `c` to the next free spot.
    fn move_coin(&mut self, c: usize) {
        let spots = self.coins.map(|coin| coin.spot);
        let taken = |spot: usize| spots.contains(&spot);
        let mut spot = self.coins[c].spot;
        while taken(spot) {
            // A step of 7 through 10 spots visits every one.
            self.moves += 1;
            spot = (self.moves as usize * 7) % SPOTS.len();
        }
        let coin = &mut self.coins[c];
        let mut def = self.world.collider(coin.id).expect("a coin").def();
        def.shape = coin_at(spot).into();
        self.world.set_collider(coin.id, def).expect("a valid coin");
        coin.spot = spot;
        coin.age = 0;
    }

    /// How deep player `k` is inside a solid collider (not a sensor, not a
    /// one-way one, which a player may be part-way through) or the other
    /// player: zero when the character controller keeps its promise.
    fn overlap(&self, k: usize) -> S {
        let me = self.world.body(self.players[k].body).expect("a player").capsule();
        let other = self.world.body(self.players[1 - k].body).expect("a player").capsule();
        let solid = self.world.colliders().iter().filter(|c| !c.is_sensor() && c.one_way().is_none());
        solid
            .map(|c| c.shape().as_capsule())
            .chain([other])
            .filter_map(|shape| contact_capsule_capsule(&me, &shape))
            .map(|contact| contact.depth)
            .fold(S::ZERO, S::max)
    }

    /// The checksum ggrs compares: the world's and the game's own state.
    fn checksum(&self) -> u128 {
        let mut game = Fold::default();
        game.add(u64::from(self.frame));
        game.add(u64::from(self.moves));
        for p in &self.players {
            game.add(p.speed.to_bits() as u64);
            game.add(u64::from(p.grounded) | u64::from(p.wall) << 1 | u64::from(p.blocked) << 2);
        }
        for c in &self.coins {
            game.add(c.spot as u64 | u64::from(c.age) << 8);
        }
        for k in 0..2 {
            game.add(u64::from(self.stats.coins[k]) | u64::from(self.stats.ledge[k]) << 32);
            game.add(u64::from(self.stats.grounded[k]) | u64::from(self.stats.jumps[k]) << 32);
        }
        u128::from(self.world.checksum()) ^ u128::from(game.0).rotate_left(17)
    }
}

/// A coin's shape at spot `spot`.
fn coin_at(spot: usize) -> Circle<S> {
    let (x, y) = SPOTS[spot];
    Circle::new(v(x, y), s(COIN_RADIUS)).expect("in range")
}

/// A simple deterministic fold of the game's own values into a checksum.
#[derive(Default)]
struct Fold(u64);

impl Fold {
    /// Folds in one value.
    fn add(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    }
}

/// The session's types: the game, its inputs and how ggrs predicts them.
struct Platformer;

impl Config for Platformer {
    type Input = Input;
    type InputPredictor = PredictRepeatLast;
    type State = Game;
    type Address = std::net::SocketAddr;
}

/// What a player presses on a frame, from what it sees: a bot that walks
/// towards the nearest coin, and jumps when it hits a wall or stands below
/// the coin. The coin above the platform's travel is too high for a jump
/// from the floor: for that one it takes a run-up from beside the platform
/// and jumps onto it, and from there the coin is within reach.
fn input(game: &Game, player: usize) -> Input {
    let me = game.position(game.players[player].body);
    let distance = |p: Vec2<S>| (p.x - me.x).abs() + (p.y - me.y).abs();
    let (coin, spot) = game
        .coins
        .iter()
        .map(|c| (coin_at(c.spot).center(), c.spot))
        .min_by_key(|&(c, _)| distance(c))
        .expect("three coins");
    let toward = |x: S| {
        let slack = s(0.15);
        if x < me.x - slack {
            LEFT
        } else if x > me.x + slack {
            RIGHT
        } else {
            0
        }
    };
    let p = game.players[player];
    let mut jump = p.wall;
    let mut input = toward(coin.x);
    if spot == PLATFORM_SPOT && coin.y > me.y + s(3.0) {
        // How far the player is beside the platform (zero below it).
        let (low, high) = game.world.collider(game.platform).expect("the platform").shape().bounds();
        let beside = (low.x - me.x).max(me.x - high.x).max(S::ZERO);
        let centre = (low.x + high.x) / 2;
        if beside < s(0.8) {
            // Too close for a run-up: out from under it.
            input = if me.x < centre { LEFT } else { RIGHT };
        } else {
            input = toward(centre);
            jump |= beside < s(1.4);
        }
    } else {
        jump |= coin.y > me.y + s(0.6) && (coin.x - me.x).abs() < s(1.5);
    }
    if p.grounded && jump {
        input |= JUMP;
    }
    input
}

/// A sync test session for two local players, checking 7 frames back.
fn session() -> Result<SyncTestSession<Platformer>, GgrsError> {
    SessionBuilder::<Platformer>::new()
        .with_num_players(2)?
        .with_check_distance(7)
        .add_player(PlayerType::Local, 0)?
        .add_player(PlayerType::Local, 1)?
        .start_synctest_session()
}

/// How a run went.
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    /// The frames played.
    frames: u32,
    /// The checksum mismatches the sync test found.
    mismatches: u32,
    /// The rollbacks it made.
    rollbacks: u32,
    /// What the players did.
    stats: Stats,
    /// How far each crate ended from where it started.
    crates: [Vec2<S>; 3],
}

/// Plays `frames` frames under a sync test session. A checksum mismatch
/// stops a `SyncTestSession` for good, so each one is counted and the
/// session started again from the current game.
fn play(frames: u32) -> Result<Summary, GgrsError> {
    let mut game = Game::new();
    let mut sess = session()?;
    // The session counts frames from 0 each time it starts.
    let mut offset = 0;
    let (mut mismatches, mut rollbacks) = (0, 0);
    while game.frame < frames {
        for player in 0..2 {
            sess.add_local_input(player, input(&game, player))?;
        }
        let requests = match sess.advance_frame() {
            Ok(requests) => requests,
            Err(GgrsError::MismatchedChecksum { current_frame, mismatched_frames }) => {
                eprintln!("mismatch at frame {current_frame}: frames {mismatched_frames:?}");
                mismatches += 1;
                sess = session()?;
                offset = game.frame;
                continue;
            }
            Err(e) => return Err(e),
        };
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => save(&game, &cell, frame, offset),
                GgrsRequest::LoadGameState { cell, .. } => {
                    game = cell.load().expect("a saved game");
                    rollbacks += 1;
                }
                GgrsRequest::AdvanceFrame { inputs } => game.advance(&inputs),
            }
        }
    }
    let crates = game.crates.map(|(id, start)| game.position(id) - start);
    Ok(Summary { frames: game.frame, mismatches, rollbacks, stats: game.stats, crates })
}

/// Saves the game and its checksum into a ggrs cell.
fn save(game: &Game, cell: &GameStateCell<Game>, frame: Frame, offset: u32) {
    debug_assert_eq!(i64::from(game.frame) - i64::from(offset), i64::from(frame));
    cell.save(frame, Some(game.clone()), Some(game.checksum()));
}

/// Plays the game for FRAMES frames (1200 by default) and prints how it
/// went.
fn main() {
    let frames = std::env::args().nth(1).map_or(Ok(1200), |a| a.parse::<u32>()).unwrap_or_else(|e| {
        eprintln!("platformer: the number of frames must be a whole number: {e}");
        std::process::exit(2);
    });
    match play(frames) {
        Ok(summary) => {
            let st = &summary.stats;
            for k in 0..2 {
                eprintln!(
                    "player {k}: {} coins, grounded {} frames (ledge {}, slope {}, platform {}), {} jumps, {} steps up, \
                     {} wall hits, inside something {} frames, longest blocked {} frames",
                    st.coins[k],
                    st.grounded[k],
                    st.ledge[k],
                    st.slope[k],
                    st.riding[k],
                    st.jumps[k],
                    st.steps[k],
                    st.walls[k],
                    st.inside[k],
                    st.longest_blocked[k],
                );
            }
            for (k, moved) in summary.crates.iter().enumerate() {
                eprintln!("crate {k}: moved ({:.3}, {:.3})", moved.x.to_num::<f64>(), moved.y.to_num::<f64>());
            }
            eprintln!("deepest overlap of a player: {}", st.deepest);
            println!("{} rollbacks of 7 frames re-simulated", summary.rollbacks);
            println!(
                "{} frames, {} mismatches, coins {}:{}, ledge {}:{}",
                summary.frames, summary.mismatches, st.coins[0], st.coins[1], st.ledge[0], st.ledge[1]
            );
        }
        Err(e) => {
            eprintln!("platformer: the session failed: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The game rolls back and re-simulates every frame without a single
    /// checksum mismatch, and is played for real: both players take coins
    /// and stand on the one-way ledge.
    #[test]
    fn a_rollback_session_finds_no_mismatch() {
        let summary = play(1200).expect("the session runs");
        assert_eq!(summary.mismatches, 0, "{summary:?}");
        assert_eq!(summary.frames, 1200);
        assert!(summary.rollbacks > 1100, "{summary:?}");
        assert!(summary.stats.coins.iter().all(|&c| c > 0), "{summary:?}");
        assert!(summary.stats.ledge.iter().all(|&f| f > 0), "{summary:?}");
        assert_eq!(summary.stats.inside, [0, 0], "{summary:?}");
    }

    /// The same game played twice goes the same way: the game is
    /// deterministic, not merely consistent within a run.
    #[test]
    fn two_runs_play_the_same_game() {
        let (a, b) = (play(300).expect("the session runs"), play(300).expect("the session runs"));
        assert_eq!(a, b);
    }
}
