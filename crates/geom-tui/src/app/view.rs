//! The mouse and the view: the pointer, clicks and drags, and fitting the
//! scene into the canvas.

use geom_core::Vec2;
use ratatui::layout::Position;

use super::App;
use crate::editor::{self, Drag};
use crate::keymap::Mode;
use crate::layout::{Camera, snap};

impl App {
    // --- Mouse and view ---------------------------------------------------

    pub(super) fn hover(&mut self, column: u16, row: u16) {
        let canvas = self.areas(self.view.size).canvas;
        self.view.pointer = canvas.contains(Position::new(column, row)).then_some((column, row));
    }

    /// The world point under the pointer, when it is over the canvas.
    pub(crate) fn pointer(&self) -> Option<Vec2<f64>> {
        let canvas = self.areas(self.view.size).canvas;
        let (column, row) = self.view.pointer.filter(|&(c, r)| canvas.contains(Position::new(c, r)))?;
        Some(self.view.camera.world_at(canvas, column, row))
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        self.hover(column, row);
        let canvas = self.areas(self.view.size).canvas;
        if !canvas.contains(Position::new(column, row)) || self.mode() != Mode::Normal {
            return;
        }
        let point = self.view.camera.world_at(canvas, column, row);
        // A new press starts a new drag, even if the last release was lost.
        self.timeline.end_merge();
        let sim = self.timeline.primary();
        let picked = editor::pick(sim, point, self.view.camera.cell() * 1.5);
        self.editor.drag = match picked.and_then(|s| editor::anchor(sim, s)) {
            Some(anchor) => Some(Drag::Move { grab: point - anchor }),
            None => Some(Drag::Pan { column, row }),
        };
        self.select(picked);
    }

    /// Drags to a cell: the pointer is there too, and the status bar's
    /// readout follows it.
    pub(super) fn drag_to(&mut self, column: u16, row: u16) {
        self.hover(column, row);
        let canvas = self.areas(self.view.size).canvas;
        let point = self.view.camera.world_at(canvas, column, row);
        match self.editor.drag {
            Some(Drag::Move { grab }) => {
                let grid = self.view.camera.grid();
                let to = point - grab;
                self.move_selection_to(Vec2::new(snap(to.x, grid), snap(to.y, grid)), true);
            }
            Some(Drag::Pan { column: from_column, row: from_row }) => {
                let (columns, rows) =
                    (f64::from(from_column) - f64::from(column), f64::from(row) - f64::from(from_row));
                self.view.camera.pan(columns, rows);
                self.editor.drag = Some(Drag::Pan { column, row });
            }
            None => {}
        }
    }

    /// Shows or hides the inspector, and says when the terminal has no
    /// room to show it.
    pub(super) fn toggle_inspector(&mut self) {
        self.view.inspector = !self.view.inspector;
        let shown = self.areas(self.view.size).inspector.is_some();
        match (self.view.inspector, shown) {
            (true, false) => self.info("inspector on, but this terminal is too small to show it: make it taller"),
            (true, true) => self.info("inspector on"),
            (false, _) => self.info("inspector off"),
        }
    }

    /// Fits the whole scene in the canvas (leaving the view as it is while
    /// the terminal is too small to show one).
    pub(crate) fn fit(&mut self) {
        let areas = self.areas(self.view.size);
        if areas.too_small {
            return;
        }
        let bounds = crate::sim::shapes_bounds(&[self.timeline.primary()]);
        self.view.camera = Camera::fitting(bounds, areas.canvas);
    }
}
