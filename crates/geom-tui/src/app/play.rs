//! Play mode: the arrow keys drive a character (a body of inverse mass 0)
//! through geom's character controller, one recorded move a tick, and `I`
//! saves the moves as an inputs file that `geom-tui run --inputs` replays.
//!
//! Terminals send no key releases, so a walking key latches: `←` or `a`
//! walks left until `→`, `d`, `↓` or `s`; `↑` or `w` jumps at the next tick
//! the character stands on the ground. The character's vertical speed is
//! the game's, as a platformer keeps it: the scene's gravity added every
//! tick in the air, one tick's pull while on the ground (so that it stays
//! pressed to it), a jump's speed when it jumps. It is read back from the
//! move recorded the tick before, so a rewound and replayed run, or one
//! recorded over, goes on from what it was.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use geom_core::Vec2;

use super::{App, count};
use crate::editor::{Prompt, PromptKind};
use crate::keymap::Action;
use crate::sim::Selected;
use crate::timeline::{Item, Timeline};

/// How far a character walks in a tick.
pub(crate) const WALK: f64 = 0.125;
/// A jump's upward speed, in units per tick.
pub(crate) const JUMP: f64 = 0.375;
/// The fastest a character falls, in units per tick.
pub(crate) const MAX_FALL: f64 = 1.0;
/// The file `I` offers to write the moves to.
pub(crate) const DEFAULT_INPUTS_PATH: &str = "geom-inputs.toml";

/// The character play mode drives, and the keys held for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Play {
    /// The body.
    pub item: Item,
    /// Which way it walks: −1, 0 or 1.
    pub walk: i8,
    /// A jump asked for, made at the next tick on the ground.
    pub jump: bool,
}

/// Records `play`'s move for the tick `timeline` is at (it applies as the
/// tick steps on). Nothing when the body is gone or is not a character.
pub(crate) fn drive(timeline: &mut Timeline, play: &mut Play) {
    let sim = timeline.primary();
    let Ok(Selected::Body(id)) = play.item.find(sim) else { return };
    let Ok(grounded) = sim.character_grounded(id) else { return };
    let gravity = sim.gravity().y;
    let tick = timeline.tick();
    let before = tick.checked_sub(1).and_then(|t| timeline.move_at(t, play.item)).map_or(0.0, |m| m.y);
    // A ceiling met on the way up ends the rise.
    let ceiling = timeline.last_move().is_some_and(|m| m.ceiling) && before > 0.0;
    let mut vy = if grounded || ceiling { gravity } else { before + gravity };
    if play.jump && grounded {
        vy = JUMP;
        play.jump = false;
    }
    let motion = Vec2::new(WALK * f64::from(play.walk), vy.max(-MAX_FALL));
    timeline.record_move(play.item, motion);
}

/// Every recorded move as an inputs file: one `[[move]]` table a tick,
/// each number written as TOML reads it back to the same bits.
pub(crate) fn inputs_text(timeline: &Timeline) -> String {
    /// The file's layout, as `inputs` reads it.
    #[derive(serde::Serialize)]
    struct File {
        #[serde(rename = "move")]
        moves: Vec<Move>,
    }
    #[derive(serde::Serialize)]
    struct Move {
        tick: u64,
        body: u32,
        motion: [f64; 2],
    }
    let moves = timeline
        .moves()
        .filter_map(|(tick, item, m)| match item {
            Item::Body(body) => Some(Move { tick, body, motion: [m.x, m.y] }),
            Item::Collider(_) => None,
        })
        .collect();
    let tables = toml::to_string(&File { moves }).unwrap_or_default();
    format!(
        "# Moves played in geom-tui's play mode: replay them with\n# `geom-tui run SCENE --ticks N --inputs FILE`.\n\n{tables}"
    )
}

impl App {
    /// Turns play mode on for the selected body, or off.
    fn toggle_character(&mut self) {
        if self.play.take().is_some() {
            return self.info(format!("play mode off ({} recorded)", count(self.timeline.moves().count(), "move")));
        }
        let Some(Selected::Body(id)) = self.selection() else {
            return self.refuse("play needs a character selected (Tab): a body of inverse mass 0");
        };
        let Some(body) = self.timeline.primary().body(id) else { return };
        if body.inverse_mass != 0.0 {
            return self.refuse(format!(
                "body {} is not a character: play needs a body of inverse mass 0 (Enter, im=0)",
                id.index()
            ));
        }
        self.play = Some(Play { item: Item::Body(id.index()), walk: 0, jump: false });
        if !self.timeline.playing() {
            self.timeline.toggle_play();
        }
        self.info(format!("playing body {}: ←→ a d walk, ↓ s stop, ↑ w jump, P stops", id.index()));
    }

    /// What play mode's keys ask for.
    pub(super) fn play_action(&mut self, action: &Action) {
        match (action, &mut self.play) {
            (Action::ToggleCharacter, _) => self.toggle_character(),
            (Action::SaveInputsPrompt, _) => self.save_inputs_prompt(),
            // Which way to walk from now on.
            (Action::Walk(way), Some(play)) => play.walk = *way,
            // A jump at the next tick on the ground.
            (Action::Jump, Some(play)) => play.jump = true,
            _ => {}
        }
    }

    /// The status bar's play part: the character and what its last move
    /// met.
    pub(crate) fn play_status(&self) -> Option<String> {
        let play = self.play?;
        let Item::Body(body) = play.item else { return None };
        let mut text = format!("play b{body}:");
        match self.timeline.last_move() {
            None => text.push_str(" –"),
            Some(m) => {
                text.push_str(if m.grounded { " grounded" } else { " in the air" });
                for (on, word) in [(m.wall, "wall"), (m.ceiling, "ceiling")] {
                    if on {
                        let _ = write!(text, " · {word}");
                    }
                }
            }
        }
        if play.walk != 0 {
            let _ = write!(text, " · walking {}", if play.walk < 0 { "←" } else { "→" });
        }
        Some(text)
    }

    /// Opens the prompt for the file to save the moves to.
    fn save_inputs_prompt(&mut self) {
        if self.timeline.moves().next().is_none() {
            return self.refuse("no moves to save: play a character first (select one, P)");
        }
        let text = self.inputs_file_name().display().to_string();
        self.editor.prompt = Some(Prompt::new(PromptKind::SaveInputs, text));
    }

    /// A file name for the moves beside the scene's file.
    fn inputs_file_name(&self) -> PathBuf {
        match &self.editor.path {
            Some(path) => {
                let stem = path.file_stem().map_or_else(|| "geom".into(), |s| s.to_string_lossy().into_owned());
                path.with_file_name(format!("{stem}-inputs.toml"))
            }
            None => PathBuf::from(DEFAULT_INPUTS_PATH),
        }
    }

    /// Writes the moves to `path`, atomically.
    pub(super) fn write_inputs(&self, path: &Path) -> std::io::Result<String> {
        let moves = self.timeline.moves().count();
        crate::scene::save_text(path, &inputs_text(&self.timeline), "an inputs file")?;
        Ok(format!(
            "saved {} to {} (geom-tui run SCENE --ticks {} --inputs {} replays them)",
            count(moves, "move"),
            path.display(),
            self.tick(),
            path.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::{Action, Inputs};
    use crate::scene::{DEFAULT_SCENE, Scene};

    /// The moves saved read back as the same moves, bit for bit.
    #[test]
    fn the_moves_saved_read_back_to_the_same_bits() {
        let mut timeline = Timeline::new(Scene::parse(DEFAULT_SCENE).unwrap(), crate::ScalarKind::F64).unwrap();
        let motions = [Vec2::new(0.125, -0.015_625), Vec2::new(1.0 / 3.0, -1.0), Vec2::new(-0.0, 1e-300)];
        for motion in motions {
            timeline.record_move(Item::Body(0), motion);
            timeline.step_forward();
        }
        let inputs = Inputs::parse(&inputs_text(&timeline)).unwrap();
        let read: Vec<_> = inputs.items().iter().map(|i| (i.tick, i.body, i.action)).collect();
        let expected: Vec<_> = (0..).zip(motions).map(|(t, m)| (t, 0, Action::Move(m))).collect();
        assert_eq!(read.len(), 3);
        for ((t, b, a), (et, eb, ea)) in read.iter().zip(&expected) {
            let (Action::Move(m), Action::Move(em)) = (a, ea) else { panic!("{a:?}") };
            assert_eq!((t, b, m.x.to_bits(), m.y.to_bits()), (et, eb, em.x.to_bits(), em.y.to_bits()));
        }
    }
}
