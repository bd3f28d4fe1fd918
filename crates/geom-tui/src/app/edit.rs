//! What the app does to the timeline: stepping's reports, undo, precision,
//! selection and every edit, each put into words on the bottom line.

use geom_core::Vec2;

use super::{App, count};
use crate::editor;
use crate::keymap::Addition;
use crate::layout::snap;
use crate::num::ScalarKind;
use crate::scene::{BodySpec, MAX_BODIES, MAX_COLLIDERS, Shape};
use crate::sim::{Field, Selected};
use crate::timeline::{Edit, Item, Rerun};

impl App {
    // --- Timeline ---------------------------------------------------------

    pub(super) fn report_skipped(&mut self, skipped: usize) {
        if skipped > 0 {
            let verb = if skipped == 1 { "no longer applies" } else { "no longer apply" };
            self.refuse(format!(
                "{} made at tick {} {verb}: what it changed is gone",
                count(skipped, "edit"),
                self.tick()
            ));
        }
    }

    pub(super) fn report_rerun(&mut self, what: &str, rerun: Rerun) {
        let text = format!("{what}; re-ran to tick {}", rerun.tick);
        match rerun.skipped {
            0 => self.info(text),
            n => self.refuse(format!("{text}, where {} no longer applied", count(n, "later edit"))),
        }
    }

    pub(super) fn undo(&mut self, redo: bool) {
        let (done, none) =
            if redo { ("made the edit again", "nothing to redo") } else { ("undid the last edit", "nothing to undo") };
        match self.timeline.undo(redo) {
            None => self.refuse(none),
            Some(Ok(rerun)) => self.report_rerun(done, rerun),
            Some(Err(e)) => self.refuse(format!("{none}: it no longer builds: {e}")),
        }
    }

    pub(super) fn set_precision(&mut self, kind: ScalarKind) {
        if kind == self.kind() {
            return self.info(format!("already running in {kind}"));
        }
        let old = self.kind();
        match self.timeline.set_kind(kind) {
            Ok(rerun) => self.report_rerun(&format!("re-ran the set-up in {kind}"), rerun),
            Err(e) => self.refuse(format!("kept {old}: {e}")),
        }
    }

    // --- Editing ----------------------------------------------------------

    /// Makes an edit through the timeline and says what happened.
    pub(super) fn edit(&mut self, what: &str, edit: Edit) -> Result<Option<Selected>, ()> {
        self.timeline.edit(edit, false).map_err(|e| self.refuse(format!("{what} refused: {e}")))
    }

    pub(super) fn at_tick(&self) -> String {
        match self.tick() {
            0 => String::new(),
            tick => format!(" at tick {tick} (ctrl-z undoes)"),
        }
    }

    pub(super) fn cycle_selection(&mut self, forward: bool) {
        let all = editor::selectables(self.timeline.primary());
        if all.is_empty() {
            return self.refuse("nothing to select");
        }
        let current = self.selection().and_then(|s| all.iter().position(|&x| x == s));
        let next = match (current, forward) {
            (None, true) => 0,
            (None, false) => all.len() - 1,
            (Some(i), true) => (i + 1) % all.len(),
            (Some(i), false) => (i + all.len() - 1) % all.len(),
        };
        self.select(Some(all[next]));
    }

    pub(super) fn select(&mut self, selected: Option<Selected>) {
        if selected != self.editor.selected {
            self.editor.target_rank = 0;
        }
        self.editor.selected = selected;
    }

    /// Moves the selection so its anchor is at `to`.
    /// With `dragging`, the moves of one drag are one edit.
    pub(super) fn move_selection_to(&mut self, to: Vec2<f64>, dragging: bool) {
        let Some(selected) = self.selection() else { return };
        let changes = match selected {
            Selected::Body(_) => vec![(Field::X, to.x), (Field::Y, to.y)],
            Selected::Collider(id) => {
                let Some(collider) = self.timeline.primary().collider(id) else { return };
                let moved = collider.shape.translated(to - collider.shape.anchor());
                let shape_only =
                    |f: &Field| matches!(f, Field::X | Field::Y | Field::X1 | Field::Y1 | Field::X2 | Field::Y2);
                crate::sim::collider_fields(&moved.into()).into_iter().filter(|(f, _)| shape_only(f)).collect()
            }
        };
        if let Err(e) = self.timeline.edit(Edit::Set(Item::of(selected), changes), dragging) {
            self.refuse(format!("move refused: {e}"));
        }
    }

    /// Moves the selection by grid steps, or pans with nothing selected.
    pub(super) fn nudge(&mut self, dx: f64, dy: f64) {
        let Some(anchor) = self.selection().and_then(|s| editor::anchor(self.timeline.primary(), s)) else {
            return self.view.camera.pan(dx * 4.0, dy * 2.0);
        };
        let grid = self.view.camera.grid();
        self.move_selection_to(Vec2::new(snap(anchor.x + dx * grid, grid), snap(anchor.y + dy * grid, grid)), false);
    }

    pub(super) fn change_radius(&mut self, by: f64) {
        let Some(selected) = self.selection() else {
            return self.refuse("select a body or a collider first (Tab or click)");
        };
        let fields = editor::fields(self.timeline.primary(), selected);
        let Some(&(_, radius)) = fields.iter().find(|(f, _)| *f == Field::Radius) else {
            return self.refuse("a segment has no radius");
        };
        if self.edit("radius", Edit::Set(Item::of(selected), vec![(Field::Radius, radius + by)])).is_ok() {
            let name = editor::describe(selected, self.timeline.primary());
            self.info(format!("{name} radius {}{}", radius + by, self.at_tick()));
        }
    }

    pub(super) fn add(&mut self, what: Addition) {
        let sim = self.timeline.primary();
        if what == Addition::Ball && sim.body_count() >= MAX_BODIES {
            return self.refuse(format!("adding a ball refused: a scene may have at most {MAX_BODIES} bodies"));
        }
        if what != Addition::Ball && sim.collider_count() >= MAX_COLLIDERS {
            return self.refuse(format!("adding refused: a scene may have at most {MAX_COLLIDERS} colliders"));
        }
        let grid = self.view.camera.grid();
        let c = Vec2::new(snap(self.view.camera.center.x, grid), snap(self.view.camera.center.y, grid));
        let half = Vec2::new(2.0, 0.0);
        let edit = match what {
            Addition::Ball => Edit::AddBody(BodySpec::new(c, 0.5)),
            Addition::Post => Edit::AddCollider(Shape::Circle { center: c, radius: 1.0 }.into()),
            Addition::Segment => Edit::AddCollider(Shape::Segment { start: c - half, end: c + half }.into()),
            Addition::Capsule => {
                Edit::AddCollider(Shape::Capsule { start: c - half, end: c + half, radius: 0.5 }.into())
            }
        };
        if let Ok(Some(added)) = self.edit("adding", edit) {
            self.select(Some(added));
            let name = editor::describe(added, self.timeline.primary());
            self.info(format!("added {name}{}", self.at_tick()));
        }
    }

    pub(super) fn delete(&mut self) {
        let Some(selected) = self.selection() else { return self.refuse("nothing selected to delete") };
        let name = editor::describe(selected, self.timeline.primary());
        if self.edit("delete", Edit::Remove(Item::of(selected))).is_ok() {
            self.select(None);
            self.info(format!("deleted {name}{}", self.at_tick()));
        }
    }

    /// Applies typed `name=value` edits to the selection: only the values
    /// named change, in both worlds of the split view.
    pub(super) fn edit_typed(&mut self, selected: Selected, text: &str) {
        let fields = editor::fields(self.timeline.primary(), selected);
        if fields.is_empty() {
            return self.refuse("the selection no longer exists");
        }
        let changes = match editor::assignments(text).and_then(|pairs| editor::changes(&fields, &pairs)) {
            Ok(changes) if changes.is_empty() => return self.info("nothing to change"),
            Ok(changes) => changes,
            Err(e) => return self.refuse(format!("edit refused: {e}")),
        };
        if self.edit("edit", Edit::Set(Item::of(selected), changes)).is_ok() {
            let name = editor::describe(selected, self.timeline.primary());
            self.info(format!("edited {name}{}", self.at_tick()));
        }
    }

    /// Applies typed settings to the set-up, re-running to this tick.
    pub(super) fn edit_world(&mut self, text: &str) {
        let settings = self.timeline.setup().settings;
        let next = match editor::assignments(text).and_then(|pairs| editor::with_settings(settings, &pairs)) {
            Ok(next) if next == settings => return self.info("nothing to change"),
            Ok(next) => next,
            Err(e) => return self.refuse(format!("edit refused: {e}")),
        };
        match self.timeline.set_settings(next) {
            Ok(rerun) => self.report_rerun("changed the world's settings in the set-up", rerun),
            Err(e) => self.refuse(format!("edit refused: {e}")),
        }
    }
}
