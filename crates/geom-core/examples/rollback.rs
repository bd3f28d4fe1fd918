//! A two-player rollback game on `geom_core::world`, driven by the `ggrs`
//! crate's `SyncTestSession`: every frame it saves the game, rolls back 7
//! frames, re-simulates them and compares checksums, as a rollback netcode
//! session does when a late input arrives.
//!
//! The game: an arena of thin walls with a hill of two ramps, two capsule
//! bumpers and a lift (a moving platform), a goal (a sensor) at each end,
//! a puck, and two players whose inputs (left, right, jump) apply impulses
//! to their balls.
//! A puck that enters a goal scores for the other player, from the world's
//! sensor events, and goes back to the centre. The players' inputs come
//! from a simple bot that chases the puck, as a game's inputs come from
//! what its players see.
//!
//! ```sh
//! cargo run --release -p geom-core --example rollback [FRAMES]
//! ```
//!
//! The last line is `<frames> frames, <mismatches> mismatches, score <a>:<b>`.

use fixed::types::I32F32;
use geom_core::world::{BodyDef, BodyId, ColliderDef, ColliderId, EventKind, Id, World, WorldConfig};
use geom_core::{Capsule, Circle, Segment, Vec2};
use ggrs::{
    Config, Frame, GameStateCell, GgrsError, GgrsRequest, InputStatus, PlayerType, PredictRepeatLast, SessionBuilder,
    SyncTestSession,
};

type S = I32F32;

fn v(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(S::from_num(x), S::from_num(y))
}

/// A player's input for one frame: bit 0 left, bit 1 right, bit 2 jump.
type Input = u8;

/// The whole game state: what a rollback saves and restores.
#[derive(Clone, Debug)]
struct Game {
    world: World<S>,
    frame: u32,
    score: [u32; 2],
    players: [BodyId; 2],
    puck: BodyId,
    goals: [ColliderId; 2],
    lift: ColliderId,
}

impl Game {
    fn new() -> Self {
        let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).expect("a valid configuration");
        let mut wall = |a: (f64, f64), b: (f64, f64)| {
            let mut def = ColliderDef::new(Segment::new(v(a.0, a.1), v(b.0, b.1)).expect("in range"));
            def.friction = S::from_num(0.5);
            world.add_collider(def).expect("a valid wall");
        };
        wall((-30.0, 0.0), (30.0, 0.0));
        wall((-30.0, 0.0), (-30.0, 20.0));
        wall((30.0, 0.0), (30.0, 20.0));
        wall((-30.0, 20.0), (30.0, 20.0));
        // A hill in the middle: two ramps meeting at the top.
        wall((-8.0, 0.0), (0.0, 2.0));
        wall((0.0, 2.0), (8.0, 0.0));
        for x in [-12.0, 12.0] {
            let mut bumper =
                ColliderDef::new(Capsule::new(v(x - 1.5, 8.0), v(x + 1.5, 8.0), S::from_num(0.5)).expect("in range"));
            bumper.restitution = S::from_num(0.9);
            world.add_collider(bumper).expect("a valid bumper");
        }
        let mut lift = ColliderDef::new(Segment::new(v(16.0, 2.0), v(20.0, 2.0)).expect("in range"));
        lift.velocity = v(0.0, 0.0625);
        lift.friction = S::ONE;
        let lift = world.add_collider(lift).expect("a valid lift");
        let mut goal = |x: f64| {
            let mut def = ColliderDef::new(Circle::new(v(x, 2.0), S::from_num(2)).expect("in range"));
            def.sensor = true;
            world.add_collider(def).expect("a valid goal")
        };
        let goals = [goal(-28.0), goal(28.0)];
        let mut player = |x: f64| {
            let mut def = BodyDef::new(v(x, 1.0), S::ONE);
            def.friction = S::from_num(0.5);
            def.restitution = S::from_num(0.25);
            world.add_body(def).expect("a valid player")
        };
        let players = [player(-14.0), player(14.0)];
        let mut puck = BodyDef::new(v(0.0, 6.0), S::from_num(0.75));
        puck.inverse_mass = S::from_num(2);
        puck.restitution = S::from_num(0.75);
        puck.friction = S::from_num(0.25);
        let puck = world.add_body(puck).expect("a valid puck");
        Self { world, frame: 0, score: [0, 0], players, puck, goals, lift }
    }

    /// One frame: the players' inputs, the lift's turn, a tick, the score.
    fn advance(&mut self, inputs: &[(Input, InputStatus)]) {
        for (player, &(input, _)) in self.players.iter().zip(inputs) {
            let mut push = v(0.0, 0.0);
            if input & 1 != 0 {
                push.x -= S::from_num(0.05);
            }
            if input & 2 != 0 {
                push.x += S::from_num(0.05);
            }
            if input & 4 != 0 {
                push.y += S::from_num(0.4);
            }
            if push != v(0.0, 0.0) {
                // A push that would make a body too fast is refused, and
                // changes nothing: the game just ignores it.
                let _ = self.world.apply_impulse(*player, push);
            }
        }
        // The lift turns round at the ends of its travel.
        let lift = self.world.collider(self.lift).expect("the lift");
        let height = lift.shape().bounds().0.y;
        let up = lift.velocity().y > S::ZERO;
        if (up && height >= S::from_num(8)) || (!up && height <= S::from_num(1)) {
            self.world.set_collider_velocity(self.lift, -lift.velocity()).expect("a valid velocity");
        }
        self.world.step();
        let mut scored = None;
        for event in self.world.events() {
            if event.body == self.puck && event.kind == EventKind::SensorBegan {
                if event.other == Id::Collider(self.goals[0]) {
                    scored = Some(1);
                } else if event.other == Id::Collider(self.goals[1]) {
                    scored = Some(0);
                }
            }
        }
        if let Some(player) = scored {
            self.score[player] += 1;
            self.world.set_position(self.puck, v(0.0, 6.0)).expect("the centre is in range");
            self.world.set_velocity(self.puck, v(0.0, 0.0)).expect("a valid velocity");
        }
        self.frame += 1;
    }

    /// The checksum ggrs compares: the world's and the game's own state.
    fn checksum(&self) -> u128 {
        let game = u128::from(self.frame) | u128::from(self.score[0]) << 32 | u128::from(self.score[1]) << 64;
        u128::from(self.world.checksum()) ^ game.rotate_left(17)
    }
}

struct Rollback;

impl Config for Rollback {
    type Input = Input;
    type InputPredictor = PredictRepeatLast;
    type State = Game;
    type Address = std::net::SocketAddr;
}

/// What a player presses on a frame, from what it sees: a bot that gets
/// behind the puck and pushes it towards the other goal, and jumps now and
/// then. Player 0 attacks the goal on the right, player 1 the one on the
/// left.
fn input(game: &Game, player: usize) -> Input {
    let position = |id| game.world.body(id).expect("a body").position();
    let (me, puck) = (position(game.players[player]), position(game.puck));
    let attack = if player == 0 { S::ONE } else { -S::ONE };
    let behind = puck.x - attack * S::from_num(2);
    let slack = S::from_num(0.5);
    let mut input = if me.x < behind - slack {
        2
    } else if me.x > behind + slack {
        1
    } else if attack > S::ZERO {
        2
    } else {
        1
    };
    let under = puck.y > me.y + S::from_num(2) && (puck.x - me.x).abs() < S::from_num(3);
    let restless = (game.frame / 60 + player as u32).is_multiple_of(7) && game.frame.is_multiple_of(60);
    if under || restless {
        input |= 4;
    }
    input
}

fn session() -> Result<SyncTestSession<Rollback>, GgrsError> {
    SessionBuilder::<Rollback>::new()
        .with_num_players(2)?
        .with_check_distance(7)
        .add_player(PlayerType::Local, 0)?
        .add_player(PlayerType::Local, 1)?
        .start_synctest_session()
}

/// How a run went.
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    frames: u32,
    mismatches: u32,
    score: [u32; 2],
    rollbacks: u32,
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
    Ok(Summary { frames: game.frame, mismatches, score: game.score, rollbacks })
}

fn save(game: &Game, cell: &GameStateCell<Game>, frame: Frame, offset: u32) {
    debug_assert_eq!(i64::from(game.frame) - i64::from(offset), i64::from(frame));
    cell.save(frame, Some(game.clone()), Some(game.checksum()));
}

fn main() {
    let frames = std::env::args().nth(1).map_or(Ok(1200), |a| a.parse::<u32>()).unwrap_or_else(|e| {
        eprintln!("rollback: the number of frames must be a whole number: {e}");
        std::process::exit(2);
    });
    match play(frames) {
        Ok(summary) => {
            println!("{} rollbacks of 7 frames re-simulated", summary.rollbacks);
            println!(
                "{} frames, {} mismatches, score {}:{}",
                summary.frames, summary.mismatches, summary.score[0], summary.score[1]
            );
        }
        Err(e) => {
            eprintln!("rollback: the session failed: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The game rolls back and re-simulates every frame without a single
    /// checksum mismatch, and is played for real: goals are scored.
    #[test]
    fn a_rollback_session_finds_no_mismatch() {
        let summary = play(1000).expect("the session runs");
        assert_eq!(summary.mismatches, 0, "{summary:?}");
        assert_eq!(summary.frames, 1000);
        assert!(summary.rollbacks > 900, "{summary:?}");
        assert!(summary.score[0] + summary.score[1] > 0, "nobody scored: {summary:?}");
    }

    /// The same game played twice scores the same: the game is
    /// deterministic, not merely consistent within a run.
    #[test]
    fn two_runs_play_the_same_game() {
        let (a, b) = (play(300).expect("the session runs"), play(300).expect("the session runs"));
        assert_eq!(a, b);
    }

    /// A game that is not deterministic is caught: the sync test's
    /// mismatches are counted, not lost.
    #[test]
    fn a_desync_is_counted_as_a_mismatch() {
        let mut game = Game::new();
        let mut sess = session().expect("a session");
        let mut mismatches = 0;
        let mut leak = 0_u32;
        for _ in 0..40 {
            for player in 0..2 {
                sess.add_local_input(player, input(&game, player)).expect("an input");
            }
            match sess.advance_frame() {
                Ok(requests) => {
                    for request in requests {
                        match request {
                            GgrsRequest::SaveGameState { cell, frame } => {
                                cell.save(frame, Some(game.clone()), Some(game.checksum()));
                            }
                            GgrsRequest::LoadGameState { cell, .. } => game = cell.load().expect("a saved game"),
                            GgrsRequest::AdvanceFrame { inputs } => {
                                game.advance(&inputs);
                                // State outside the saved game: a bug.
                                leak += 1;
                                game.score[0] = leak;
                            }
                        }
                    }
                }
                Err(GgrsError::MismatchedChecksum { .. }) => {
                    mismatches += 1;
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(mismatches, 1);
    }
}
