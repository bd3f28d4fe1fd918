//! What the app does to the timeline: stepping's reports, undo, precision,
//! selection and every edit, each put into words on the bottom line.

use geom_core::Vec2;
use geom_core::world::ColliderId;

use super::{App, count};
use crate::editor;
use crate::keymap::Addition;
use crate::layout::snap;
use crate::num::ScalarKind;
use crate::scene::{BodySpec, ColliderSpec, MAX_BODIES, MAX_COLLIDERS, Shape};
use crate::sim::{Field, Selected, body_fields, collider_fields};
use crate::timeline::{Edit, Item, Rerun};

impl App {
    /// The selection's values as edits start from: at tick 0 the
    /// set-up's, as typed (the world holds them rounded to its type);
    /// later the world's.
    pub(crate) fn fields_of(&self, selected: Selected) -> Vec<(Field, f64)> {
        let at = |id: u32| usize::try_from(id).unwrap_or(usize::MAX);
        let setup = self.timeline.setup();
        let typed = match selected {
            Selected::Body(id) if self.tick() == 0 => setup.bodies.get(at(id.index())).map(body_fields),
            Selected::Collider(id) if self.tick() == 0 => self.collider_spec(id).map(|c| collider_fields(&c)),
            _ => None,
        };
        typed.unwrap_or_else(|| editor::fields(self.timeline.primary(), selected))
    }

    /// A collider as edits start from: the set-up's at tick 0, else the
    /// world's.
    fn collider_spec(&self, id: ColliderId) -> Option<ColliderSpec> {
        let at = usize::try_from(id.index()).unwrap_or(usize::MAX);
        match self.tick() {
            0 => self.timeline.setup().colliders.get(at).copied(),
            _ => self.timeline.primary().collider(id),
        }
    }

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

    /// Says so when the split view, on before (`had`), ended because its
    /// type could not take an edit the world took.
    pub(super) fn report_split_lost(&mut self, had: bool) {
        if had && self.timeline.secondary().is_none() {
            let (compare, tick) = (self.timeline.compare(), self.tick());
            self.refuse(format!("split view off: the edit made at tick {tick} does not fit {compare}"));
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
        let before = editor::selectables(self.timeline.primary());
        match self.timeline.undo(redo) {
            None => self.refuse(none),
            Some(Ok(rerun)) => {
                // Renumbered: the selection's number may name another item.
                if editor::selectables(self.timeline.primary()) != before {
                    self.select(None);
                }
                self.report_rerun(done, rerun);
            }
            Some(Err(e)) => {
                let what = if redo { "redo" } else { "undo" };
                self.refuse(format!("cannot {what}: it does not fit {}: {e}", self.kind()));
            }
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
        // Round every item and nothing selected (where Enter edits the
        // world), then round again.
        let current = self.selection().and_then(|s| all.iter().position(|&x| x == s));
        let next = match (current, forward) {
            (None, true) => Some(0),
            (None, false) => Some(all.len() - 1),
            (Some(i), true) => (i + 1 < all.len()).then_some(i + 1),
            (Some(i), false) => i.checked_sub(1),
        };
        self.select(next.map(|i| all[i]));
        if next.is_none() {
            self.info("nothing selected (Enter edits the world)");
        }
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
                let Some(collider) = self.collider_spec(id) else { return };
                let moved = collider.shape.translated(to - collider.shape.anchor());
                let shape_only =
                    |f: &Field| matches!(f, Field::X | Field::Y | Field::X1 | Field::Y1 | Field::X2 | Field::Y2);
                collider_fields(&moved.into()).into_iter().filter(|(f, _)| shape_only(f)).collect()
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
        let fields = self.fields_of(selected);
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
        let fields = self.fields_of(selected);
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
            // A typed edit's error: the file's lines say nothing of it.
            Err(e) => self.refuse(format!("edit refused: {}", e.message)),
        }
    }
}
