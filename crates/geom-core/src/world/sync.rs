//! The sync test: rollback and re-simulation must reproduce every checksum.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use super::{Snapshot, World};
use crate::scalar::Scalar;

/// What [`sync_test`] found.
///
/// # Examples
///
/// See [`sync_test`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncTest {
    /// The ticks simulated forward.
    pub ticks: u64,
    /// The ticks simulated again after a rollback.
    pub resimulated: u64,
    /// The first world tick (as [`World::tick`] counts them) whose checksum
    /// differed when re-simulated; `None` for a deterministic world.
    pub first_mismatch: Option<u64>,
}

/// Checks that rolling back and re-simulating gives the same checksums, the
/// check GGRS's `SyncTestSession` makes: steps `world` (a copy) `ticks`
/// times, and before every tick from the `rollback`-th on restores the state
/// of `rollback` ticks earlier and re-simulates up to the present, comparing
/// each checksum with the one first recorded for that tick.
///
/// `input` is called before every step, re-simulated ones included, with
/// the index of the step (`0` for the first) and the world, as a game would
/// apply the inputs of that tick; it must depend on nothing else.
///
/// # Examples
///
/// ```
/// use fixed::types::I16F16;
/// use geom_core::world::{sync_test, BodyDef, World, WorldConfig};
/// use geom_core::{Segment, Vec2};
///
/// let v = |x: f32, y: f32| Vec2::new(I16F16::from_num(x), I16F16::from_num(y));
/// let mut world = World::new(WorldConfig::new(v(0.0, -0.05)))?;
/// world.add_collider(Segment::new(v(-20.0, 0.0), v(20.0, 0.0))?)?;
/// let ball = world.add_body(BodyDef::new(v(0.0, 4.0), I16F16::ONE))?;
/// // A player input: every 50 ticks, jump.
/// let report = sync_test(&world, 300, 8, |tick, world| {
///     if tick % 50 == 0 {
///         world.set_velocity(ball, v(0.3, 0.8)).unwrap();
///     }
/// });
/// assert_eq!(report.first_mismatch, None);
/// assert_eq!(report.resimulated, (300 - 8) * 8);
/// # Ok::<(), geom_core::world::WorldError>(())
/// ```
pub fn sync_test<S: Scalar>(
    world: &World<S>,
    ticks: u64,
    rollback: u64,
    mut input: impl FnMut(u64, &mut World<S>),
) -> SyncTest {
    let mut world = world.clone();
    let mut history: VecDeque<Snapshot<S>> = VecDeque::new();
    let mut checksums: Vec<u64> = Vec::new();
    let mut report = SyncTest { ticks, resimulated: 0, first_mismatch: None };
    for step in 0..ticks {
        if rollback > 0 && history.len() as u64 == rollback {
            if let Some(oldest) = history.front() {
                world.restore(oldest);
            }
            for replay in step - rollback..step {
                input(replay, &mut world);
                world.step();
                report.resimulated += 1;
                if checksums.get(replay as usize) != Some(&world.checksum()) {
                    report.first_mismatch = Some(world.tick());
                    return report;
                }
            }
        }
        history.push_back(world.snapshot());
        if history.len() as u64 > rollback {
            history.pop_front();
        }
        input(step, &mut world);
        world.step();
        checksums.push(world.checksum());
    }
    report
}
