//! Where things go: the screen's areas and the camera onto the world, each
//! computed from what it is given, never from the app.

use geom_core::Vec2;
use ratatui::layout::{Constraint, Layout, Rect};

/// The narrowest terminal the sandbox draws in; in a narrower one it shows
/// only a short note asking for more room, until the terminal grows.
pub const MIN_WIDTH: u16 = 20;
/// The shortest terminal the sandbox draws in (a status bar, a canvas of
/// three rows and the bottom line; two status rows in split view need one
/// more); in a shorter one it shows only a short note asking for more
/// room, until the terminal grows. The inspector is left out when there
/// is no room for it.
pub const MIN_HEIGHT: u16 = 5;
/// The inspector sits right of the canvas from this terminal width on,
/// below it otherwise.
const SIDE_INSPECTOR_WIDTH: u16 = 130;
const INSPECTOR_COLUMNS: u16 = 76;
pub(crate) const INSPECTOR_ROWS: u16 = 12;
/// The fewest rows the canvas gets.
const CANVAS_ROWS: u16 = 3;
/// The most rows the bottom lines may take.
pub(crate) const FOOTER_ROWS: u16 = 3;
/// The closest and the farthest the view zooms, in world units per braille
/// dot: far enough out to show all of `f64`'s safe range (±2²⁴⁰) at once.
pub(crate) const MIN_SCALE: f64 = 1e-6;
pub(crate) const MAX_SCALE: f64 = 1e72;

/// What the screen must make room for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Needs {
    /// Whether the split view is on (a second status row).
    pub split: bool,
    /// Whether the inspector is shown, room permitting.
    pub inspector: bool,
    /// The rows the bottom lines want (at most [`FOOTER_ROWS`] are given).
    pub footer_rows: u16,
}

/// Where each part of the screen goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Areas {
    /// The status bar (two lines in split view).
    pub status: Rect,
    /// The world.
    pub canvas: Rect,
    /// The inspector, when shown.
    pub inspector: Option<Rect>,
    /// Messages, prompts and key hints.
    pub footer: Rect,
    /// Whether the terminal is too small to draw in: every area above is
    /// then empty.
    pub too_small: bool,
}

/// The rows the status bar takes.
pub(crate) fn status_rows(split: bool) -> u16 {
    if split { 2 } else { 1 }
}

/// Places the parts of the screen in `area`.
pub(crate) fn layout(area: Rect, needs: Needs) -> Areas {
    let status_rows = status_rows(needs.split);
    if area.width < MIN_WIDTH || area.height < status_rows + CANVAS_ROWS + 1 {
        let none = Rect::new(area.x, area.y, 0, 0);
        return Areas { status: none, canvas: none, inspector: None, footer: none, too_small: true };
    }
    let footer_rows = needs.footer_rows.clamp(1, FOOTER_ROWS).min(area.height - status_rows - CANVAS_ROWS);
    let [status, middle, footer] = Layout::vertical([
        Constraint::Length(status_rows),
        Constraint::Min(CANVAS_ROWS),
        Constraint::Length(footer_rows),
    ])
    .areas(area);
    let (canvas, inspector) = if !needs.inspector {
        (middle, None)
    } else if area.width >= SIDE_INSPECTOR_WIDTH {
        let [canvas, inspector] =
            Layout::horizontal([Constraint::Min(1), Constraint::Length(INSPECTOR_COLUMNS)]).areas(middle);
        (canvas, Some(inspector))
    } else if middle.height >= CANVAS_ROWS + INSPECTOR_ROWS {
        let [canvas, inspector] =
            Layout::vertical([Constraint::Min(CANVAS_ROWS), Constraint::Length(INSPECTOR_ROWS)]).areas(middle);
        (canvas, Some(inspector))
    } else {
        (middle, None)
    };
    Areas { status, canvas, inspector, footer, too_small: false }
}

/// The view onto the world: its centre and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Camera {
    /// The world point at the middle of the canvas.
    pub center: Vec2<f64>,
    /// World units per braille dot (a dot is half a cell wide and a quarter
    /// of a cell high, so dots are about square).
    pub scale: f64,
}

impl Camera {
    /// The view that shows the box from `low` to `high` (a box 20 wide
    /// about the origin when there is nothing to show) in `canvas`.
    pub(crate) fn fitting(bounds: Option<(Vec2<f64>, Vec2<f64>)>, canvas: Rect) -> Self {
        let (lo, hi) = bounds.unwrap_or((Vec2::new(-10.0, -10.0), Vec2::new(10.0, 10.0)));
        let dots_x = f64::from(canvas.width.max(1)) * 2.0;
        let dots_y = f64::from(canvas.height.max(1)) * 4.0;
        let margin = 1.05;
        Self {
            center: (lo + hi) * 0.5,
            scale: (((hi.x - lo.x) / dots_x).max((hi.y - lo.y) / dots_y) * margin).clamp(MIN_SCALE, MAX_SCALE),
        }
    }

    /// The world's x and y bounds shown in `area`.
    pub(crate) fn bounds(&self, area: Rect) -> ([f64; 2], [f64; 2]) {
        let half_w = f64::from(area.width) * self.scale;
        let half_h = f64::from(area.height) * 2.0 * self.scale;
        ([self.center.x - half_w, self.center.x + half_w], [self.center.y - half_h, self.center.y + half_h])
    }

    /// The world point under the middle of cell (`column`, `row`).
    pub(crate) fn world_at(&self, area: Rect, column: u16, row: u16) -> Vec2<f64> {
        let ([left, _], [_, top]) = self.bounds(area);
        let x = left + (f64::from(column.saturating_sub(area.x)) + 0.5) * 2.0 * self.scale;
        let y = top - (f64::from(row.saturating_sub(area.y)) + 0.5) * 4.0 * self.scale;
        Vec2::new(x, y)
    }

    /// The cell of `area` that shows world point `point`, when it is in
    /// view: the inverse of [`world_at`](Self::world_at).
    pub(crate) fn cell_of(&self, area: Rect, point: Vec2<f64>) -> Option<(u16, u16)> {
        let ([left, _], [_, top]) = self.bounds(area);
        let column = ((point.x - left) / self.cell()).floor();
        let row = ((top - point.y) / (2.0 * self.cell())).floor();
        let inside = (0.0..f64::from(area.width)).contains(&column) && (0.0..f64::from(area.height)).contains(&row);
        // Inside the area, so both fit a u16.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        inside.then(|| (area.x + column as u16, area.y + row as u16))
    }

    /// The width of one cell in world units.
    pub(crate) fn cell(&self) -> f64 {
        2.0 * self.scale
    }

    /// The grid edits snap to: the largest power of two no wider than a
    /// cell, so edited values stay exact in every scalar type.
    pub(crate) fn grid(&self) -> f64 {
        let exponent = self.cell().log2().floor().clamp(-16.0, 40.0);
        // The exponent is clamped to a small integer range first.
        #[allow(clippy::cast_possible_truncation)]
        2.0_f64.powi(exponent as i32)
    }

    /// Pans by a number of cells.
    pub(crate) fn pan(&mut self, columns: f64, rows: f64) {
        self.center.x += columns * self.cell();
        self.center.y += rows * 2.0 * self.cell();
    }

    /// Zooms in (`factor` < 1) or out, keeping `at` where it is on screen.
    pub(crate) fn zoom(&mut self, factor: f64, at: Vec2<f64>) {
        let scale = (self.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let actual = scale / self.scale;
        self.center = at + (self.center - at) * actual;
        self.scale = scale;
    }

    /// Whether the view is somewhere: a finite centre and a scale within
    /// the zoom's bounds.
    pub(crate) fn is_sound(&self) -> bool {
        self.center.x.is_finite() && self.center.y.is_finite() && (MIN_SCALE..=MAX_SCALE).contains(&self.scale)
    }
}

/// `v` rounded to a multiple of `grid`.
pub(crate) fn snap(v: f64, grid: f64) -> f64 {
    (v / grid).round() * grid
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needs(footer_rows: u16) -> Needs {
        Needs { split: false, inspector: true, footer_rows }
    }

    #[test]
    fn a_short_terminal_leaves_out_the_inspector_rather_than_squash_the_canvas() {
        for height in MIN_HEIGHT..30 {
            let areas = layout(Rect::new(0, 0, 80, height), needs(1));
            assert!(areas.canvas.height >= 3, "{height}: {areas:?}");
            assert_eq!(areas.inspector.is_some(), height >= MIN_HEIGHT + INSPECTOR_ROWS, "{height}: {areas:?}");
        }
    }

    #[test]
    fn the_bottom_lines_take_at_most_three_rows_and_never_the_canvass_three() {
        assert_eq!(layout(Rect::new(0, 0, 80, 24), needs(9)).footer.height, 3);
        let smallest = layout(Rect::new(0, 0, MIN_WIDTH, MIN_HEIGHT), needs(3));
        assert_eq!((smallest.canvas.height, smallest.footer.height), (3, 1));
        let split = Needs { split: true, ..needs(1) };
        assert!(layout(Rect::new(0, 0, 80, MIN_HEIGHT), split).too_small);
    }

    #[test]
    fn the_point_under_a_cell_moves_by_one_cell_width_per_column() {
        let camera = Camera { center: Vec2::new(1.0, 2.0), scale: 0.25 };
        let canvas = Rect::new(3, 1, 40, 10);
        let a = camera.world_at(canvas, 10, 5);
        let b = camera.world_at(canvas, 11, 5);
        assert_eq!((b.x - a.x, b.y - a.y), (camera.cell(), 0.0));
        // Left edge -9, top edge 7; cell (20, 5) of the canvas has its middle at
        // (-9 + 20.5 · 0.5, 7 - 5.5 · 1).
        assert_eq!(camera.world_at(canvas, 23, 6), Vec2::new(1.25, 1.5));
    }
}
