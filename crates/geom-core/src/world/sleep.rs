//! Sleeping: bodies that have stayed still together stop being stepped.
//!
//! Every body counts the ticks it has been slow (speed and last motion at
//! most [`WorldConfig::sleep_threshold`] in each component). After a tick,
//! the bodies in contact with each other form islands (contacts with
//! colliders do not join them); an island whose every body has been slow
//! for [`WorldConfig::sleep_ticks`] falls asleep: its velocities become
//! zero and it is skipped by the step (exactly still, at next to no cost)
//! until an awake body or a moving collider touches one of its bodies, or
//! an input reaches one, which wakes the whole island. Islands are found by
//! union–find with the lowest id as each root, and an island is named by
//! that id, so the same bodies sleep and wake on every peer; the counts,
//! the flags and the names are part of the state.

use alloc::vec::Vec;

use super::{Body, BodyId, WorldConfig};
use crate::scalar::Scalar;
use crate::vec2::Vec2;

/// A body's sleep state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sleep {
    /// How many ticks in a row the body has been slow (held at `u16::MAX`).
    pub(crate) still: u16,
    /// The island it sleeps in (the lowest body id in it), if asleep.
    pub(crate) island: Option<BodyId>,
}

/// Whether a body moved no faster than `threshold` in each component, by
/// its velocity and by its last tick's motion (which includes the
/// solver's corrections).
pub(super) fn is_slow<S: Scalar>(velocity: Vec2<S>, moved: Vec2<S>, threshold: S) -> bool {
    let small = |v: S| v <= threshold && v >= -threshold;
    small(velocity.x) && small(velocity.y) && small(moved.x) && small(moved.y)
}

/// Wakes every body of the island named `island`.
pub(super) fn wake_island<S>(bodies: &mut [Body<S>], island: BodyId) {
    for body in bodies.iter_mut() {
        if body.sleep.island == Some(island) {
            body.sleep = Sleep::default();
        }
    }
}

/// Wakes the island of body `i`, if it sleeps; returns whether it did.
pub(super) fn wake_body<S>(bodies: &mut [Body<S>], i: usize) -> bool {
    if let Some(island) = bodies[i].sleep.island {
        wake_island(bodies, island);
        true
    } else {
        bodies[i].sleep.still = 0;
        false
    }
}

/// The union–find of one tick's islands, kept between ticks for its
/// buffers.
#[derive(Debug, Default)]
pub(super) struct Islands {
    parent: Vec<u32>,
    /// Each root's least count of slow ticks.
    least: Vec<u16>,
}

impl Islands {
    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let up = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = up;
            i = up;
        }
        i
    }

    /// Puts to sleep every island of awake bodies whose every body has
    /// been slow long enough. `links` are the pairs of body indices in
    /// contact after the tick.
    pub(super) fn settle<S: Scalar>(
        &mut self,
        bodies: &mut [Body<S>],
        links: impl Iterator<Item = (u32, u32)>,
        config: &WorldConfig<S>,
    ) {
        if config.sleep_ticks == 0 {
            return;
        }
        let n = bodies.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        for (i, j) in links {
            let (a, b) = (self.find(i), self.find(j));
            if a != b {
                // The lower index is the root: the island's name is its
                // lowest id.
                let (low, high) = if a < b { (a, b) } else { (b, a) };
                self.parent[high as usize] = low;
            }
        }
        self.least.clear();
        self.least.resize(n, u16::MAX);
        for (i, body) in bodies.iter().enumerate() {
            if body.sleep.island.is_some() {
                continue;
            }
            let root = self.find(i as u32) as usize;
            self.least[root] = self.least[root].min(body.sleep.still);
        }
        for i in 0..n {
            if bodies[i].sleep.island.is_some() {
                continue;
            }
            let root = self.find(i as u32) as usize;
            if self.least[root] >= config.sleep_ticks {
                let island = bodies[root].id();
                let body = &mut bodies[i];
                body.sleep.island = Some(island);
                body.velocity = Vec2::ZERO;
            }
        }
    }
}
