//! Drawing the sandbox: the status bar, the braille canvas, the inspector,
//! the bottom line and the help overlay. Reads the [`App`], changes
//! nothing.

use geom_core::Vec2;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Context, Line as CanvasLine, Painter, Shape as CanvasShape};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Wrap};

use crate::app::{App, Inspection, PromptKind, Selected, body_name, describe};
use crate::inspect::{Readings, SweepReading, Target};
use crate::num::ScalarKind;
use crate::scene::Shape;

/// Velocity arrows show where a body would be after this many ticks.
pub(crate) const ARROW_TICKS: f64 = 10.0;
/// The inspector sits right of the canvas from this terminal width on,
/// below it otherwise.
const SIDE_INSPECTOR_WIDTH: u16 = 130;
const INSPECTOR_COLUMNS: u16 = 76;
const INSPECTOR_ROWS: u16 = 11;
/// The rows the inspector's table takes: its title, the types and a row
/// for each quantity. A capsule body's core is on the row below.
// A handful of quantities, far below u16::MAX.
#[allow(clippy::cast_possible_truncation)]
const TABLE_ROWS: u16 = 2 + QUANTITIES.len() as u16;
/// The fewest rows the canvas gets.
const CANVAS_ROWS: u16 = 3;
/// The most rows a long message may take at the bottom.
const FOOTER_ROWS: u16 = 3;

/// The narrowest terminal the sandbox draws in; in a narrower one it shows
/// only a short note asking for more room, until the terminal grows.
pub const MIN_WIDTH: u16 = 20;
/// The shortest terminal the sandbox draws in (a status bar, a canvas of
/// three rows and the bottom line; two status rows in split view need one
/// more); in a shorter one it shows only a short note asking for more
/// room, until the terminal grows. The inspector is left out when there
/// is no room for it.
pub const MIN_HEIGHT: u16 = 5;

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

/// Places the parts of the screen in `area`.
pub(crate) fn layout(area: Rect, app: &App) -> Areas {
    let status_rows = if app.secondary().is_some() { 2 } else { 1 };
    if area.width < MIN_WIDTH || area.height < status_rows + CANVAS_ROWS + 1 {
        let none = Rect::new(area.x, area.y, 0, 0);
        return Areas { status: none, canvas: none, inspector: None, footer: none, too_small: true };
    }
    // A message too long for one line takes up to three, room permitting.
    let footer_rows = match (&app.prompt, &app.message) {
        (None, Some(message)) => {
            let width = u32::try_from(Line::from(message.text.as_str()).width()).unwrap_or(u32::MAX);
            let rows = width.div_ceil(u32::from(area.width)).clamp(1, u32::from(FOOTER_ROWS));
            u16::try_from(rows).unwrap_or(1).min(area.height - status_rows - CANVAS_ROWS)
        }
        _ => 1,
    };
    let [status, middle, footer] = Layout::vertical([
        Constraint::Length(status_rows),
        Constraint::Min(CANVAS_ROWS),
        Constraint::Length(footer_rows),
    ])
    .areas(area);
    let (canvas, inspector) = if !app.inspector {
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

/// Colours, or none at all under `NO_COLOR`.
#[derive(Clone, Copy)]
struct Theme {
    colors: bool,
}

impl Theme {
    fn color(self, color: Color) -> Color {
        if self.colors { color } else { Color::Reset }
    }

    fn fg(self, color: Color) -> Style {
        Style::new().fg(self.color(color))
    }

    /// A value that differs from f64's.
    fn differs(self) -> Style {
        if self.colors { self.fg(Color::Yellow) } else { Style::new().add_modifier(Modifier::UNDERLINED) }
    }

    /// A yes/no answer that differs from f64's.
    fn outcome_differs(self) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        if self.colors { style.fg(Color::Red) } else { style.add_modifier(Modifier::REVERSED) }
    }

    fn error(self) -> Style {
        if self.colors { self.fg(Color::Red) } else { Style::new().add_modifier(Modifier::BOLD) }
    }
}

/// Draws the whole sandbox.
///
/// # Examples
///
/// ```
/// use geom_tui::{App, ScalarKind};
/// use geom_tui::scene::{Scene, DEFAULT_SCENE};
/// use ratatui::{backend::TestBackend, Terminal};
///
/// let app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
/// let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
/// terminal.draw(|frame| geom_tui::ui::draw(frame, &app)).unwrap();
/// let top: String = (0..80).map(|x| terminal.backend().buffer()[(x, 0)].symbol()).collect();
/// assert!(top.contains("tick 0") && top.contains("I32F32"));
/// # Ok::<(), geom_tui::scene::SceneError>(())
/// ```
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    let theme = Theme { colors: app.colors };
    let areas = layout(frame.area(), app);
    if areas.too_small {
        return draw_too_small(frame, frame.area(), app);
    }
    let inspection = app.inspection();
    draw_status(frame, areas.status, app, theme);
    draw_canvas(frame, areas.canvas, app, inspection.as_ref(), theme);
    if let Some(area) = areas.inspector {
        draw_inspector(frame, area, app, inspection.as_ref(), theme);
    }
    draw_footer(frame, areas.footer, app, theme);
    if app.help {
        draw_help(frame, frame.area(), theme);
    }
}

/// A short note in place of the sandbox when the terminal is too small;
/// it shows as much of it as fits, down to nothing at all in 0 × 0.
fn draw_too_small(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let rows = if app.secondary().is_some() { MIN_HEIGHT + 1 } else { MIN_HEIGHT };
    let text = vec![
        Line::from("terminal too small"),
        Line::from(format!("{}×{}, need {MIN_WIDTH}×{rows}", area.width, area.height)),
        Line::from("q quits"),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

fn draw_status(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let bar = Style::new().add_modifier(Modifier::REVERSED);
    let state = if app.playing { format!("▶ {} t/s", app.ticks_per_second()) } else { "⏸ paused".to_owned() };
    let first = format!(
        " {state} │ tick {} │ {} │ checksum {:016x} │ rewind {} │ ? help",
        app.tick(),
        app.kind(),
        app.checksum(),
        app.rewindable()
    );
    let [top, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(Paragraph::new(first).style(bar), top);
    if let Some(secondary) = app.secondary() {
        let now = app.deviation_now().map_or(0.0, |d| d.gap);
        let divergence = app.first_divergence();
        let first = match divergence {
            Some(d) => format!("first > {:e} at tick {}{}", app.threshold, d.tick, body_suffix(d.body)),
            None => format!("none > {:e} yet", app.threshold),
        };
        let line = Line::from(vec![
            Span::raw(format!(" split: {} solid, ", app.kind())),
            Span::styled(format!("{} dotted", secondary.kind()), theme.fg(Color::Magenta)),
            Span::raw(format!(" │ gap now {} │ ", short(now))),
            Span::styled(first, if divergence.is_some() { theme.error() } else { Style::new() }),
        ]);
        frame.render_widget(Paragraph::new(line), rest);
    }
}

fn body_suffix(body: Option<geom_core::world::BodyId>) -> String {
    body.map(|b| format!(" (body {})", b.index())).unwrap_or_default()
}

fn draw_canvas(frame: &mut Frame<'_>, area: Rect, app: &App, inspection: Option<&Inspection>, theme: Theme) {
    let (x_bounds, y_bounds) = app.camera.bounds(area);
    let scale = app.camera.scale;
    let primary = app.primary();
    let bodies = primary.bodies();
    let colliders = primary.colliders();
    let contacts = primary.contacts();
    let events = primary.events();
    let secondary = app.secondary().map(crate::sim::Sim::bodies);
    let selected = app.selection();
    let canvas = Canvas::default().marker(Marker::Braille).x_bounds(x_bounds).y_bounds(y_bounds).paint(|ctx| {
        for (id, collider) in &colliders {
            let color = if selected == Some(Selected::Collider(*id)) {
                Color::Yellow
            } else if collider.sensor {
                Color::LightGreen
            } else if collider.is_moving() {
                Color::LightBlue
            } else {
                Color::Gray
            };
            draw_shape(ctx, &collider.shape, theme.color(color), scale, collider.sensor);
            if collider.is_moving() {
                let from = collider.shape.anchor();
                ctx.draw(&segment(from, from + collider.velocity * ARROW_TICKS, theme.color(Color::Green)));
            }
        }
        ctx.layer();
        if let Some(others) = &secondary {
            for (_, body) in others {
                draw_shape(ctx, &body.shape(), theme.color(Color::Magenta), scale, true);
            }
            ctx.layer();
        }
        for (id, body) in &bodies {
            let color = if selected == Some(Selected::Body(*id)) {
                Color::Yellow
            } else if body.inverse_mass == 0.0 {
                Color::Blue
            } else {
                Color::Cyan
            };
            draw_shape(ctx, &body.shape(), theme.color(color), scale, body.sensor);
            let tip = body.position + body.velocity * ARROW_TICKS;
            ctx.draw(&segment(body.position, tip, theme.color(Color::Green)));
        }
        ctx.layer();
        for contact in &contacts {
            let tip = contact.point + contact.normal * (6.0 * scale);
            ctx.draw(&segment(contact.point, tip, theme.color(Color::Red)));
        }
        // The last tick's impacts: a star where each one hit.
        for impact in events.iter().filter_map(|e| e.impact) {
            let (p, r) = (impact.point, 3.0 * scale);
            let color = theme.color(Color::LightMagenta);
            for d in [Vec2::new(r, 0.0), Vec2::new(0.0, r), Vec2::new(r, r), Vec2::new(r, -r)] {
                ctx.draw(&segment(p - d, p + d, color));
            }
        }
        if let Some(inspection) = inspection {
            draw_inspection(ctx, inspection, app.kind(), theme, scale);
        }
    });
    frame.render_widget(canvas, area);
}

/// The selected body's path over the coming tick, its first impact, and
/// the closest point of what it is inspected against.
fn draw_inspection(ctx: &mut Context<'_>, inspection: &Inspection, kind: ScalarKind, theme: Theme, scale: f64) {
    let highlight = theme.color(Color::LightYellow);
    match inspection.target {
        Target::Collider(shape) => draw_shape(ctx, &shape, highlight, scale, false),
        Target::Body(other) => draw_shape(ctx, &other.shape(), highlight, scale, false),
    }
    let Some((_, Ok(readings))) = inspection.table.iter().find(|(k, _)| *k == kind) else { return };
    let body = inspection.body.1;
    let path = theme.color(Color::Yellow);
    if body.is_capsule() {
        // Where it will be, dotted.
        draw_shape(ctx, &body.shape().translated(readings.motion), path, scale, true);
    } else {
        // The region the circle sweeps, dotted.
        let end = body.position + readings.motion;
        ctx.draw(&Outline::capsule(body.position, end, body.radius, path, scale).dashed());
    }
    if let SweepReading::Hit { t } = readings.sweep {
        let at = body.shape().translated(readings.motion * t);
        draw_shape(ctx, &at, theme.color(Color::LightRed), scale, false);
    }
    let cross = 2.0 * scale;
    let p = readings.closest;
    let color = theme.color(Color::LightRed);
    ctx.draw(&segment(p - Vec2::new(cross, cross), p + Vec2::new(cross, cross), color));
    ctx.draw(&segment(p - Vec2::new(cross, -cross), p + Vec2::new(cross, -cross), color));
}

fn segment(a: Vec2<f64>, b: Vec2<f64>, color: Color) -> CanvasLine {
    CanvasLine { x1: a.x, y1: a.y, x2: b.x, y2: b.y, color }
}

/// A shape's outline, dotted for a sensor.
fn draw_shape(ctx: &mut Context<'_>, shape: &Shape, color: Color, scale: f64, dashed: bool) {
    let outline = match *shape {
        Shape::Segment { start, end } if !dashed => return ctx.draw(&segment(start, end, color)),
        Shape::Segment { start, end } => Outline::capsule(start, end, 0.0, color, scale),
        Shape::Capsule { start, end, radius } => Outline::capsule(start, end, radius, color, scale),
        Shape::Circle { center, radius } => Outline::circle(center, radius, color, scale),
    };
    ctx.draw(&if dashed { outline.dashed() } else { outline });
}

/// The outline of a circle or a capsule, sampled densely enough for the
/// braille grid, solid or dotted.
struct Outline {
    start: Vec2<f64>,
    end: Vec2<f64>,
    radius: f64,
    color: Color,
    /// World units per braille dot.
    scale: f64,
    dashed: bool,
}

impl Outline {
    fn circle(center: Vec2<f64>, radius: f64, color: Color, scale: f64) -> Self {
        Self { start: center, end: center, radius, color, scale, dashed: false }
    }

    fn capsule(start: Vec2<f64>, end: Vec2<f64>, radius: f64, color: Color, scale: f64) -> Self {
        Self { start, end, radius, color, scale, dashed: false }
    }

    fn dashed(self) -> Self {
        Self { dashed: true, ..self }
    }

    fn dot(&self, painter: &mut Painter<'_, '_>, p: Vec2<f64>, index: usize) {
        if self.dashed && (index / 2) % 2 == 1 {
            return;
        }
        if let Some((x, y)) = painter.get_point(p.x, p.y) {
            painter.paint(x, y, self.color);
        }
    }
}

impl CanvasShape for Outline {
    fn draw(&self, painter: &mut Painter<'_, '_>) {
        let axis = self.end - self.start;
        let length = axis.length();
        // About one sample per dot along the outline, and never fewer than
        // a few, so a point-sized body is still a visible dot.
        let per_unit = 1.0 / self.scale.max(1e-12);
        let arc_samples = (std::f64::consts::PI * self.radius * per_unit).clamp(4.0, 2048.0);
        // Whole numbers from 4 to 2048.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let arc_samples = arc_samples.ceil() as usize;
        let (along, across) = if length > 0.0 {
            let along = axis * (1.0 / length);
            (along, Vec2::new(-along.y, along.x))
        } else {
            (Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0))
        };
        // Two half circles: around `end` from +across to -across through
        // +along, and around `start` the other way.
        let mut index = 0;
        for (center, forward) in [(self.end, along), (self.start, -along)] {
            let side = Vec2::new(-forward.y, forward.x);
            for i in 0..=arc_samples {
                // Whole sample counts are far below 2^53.
                #[allow(clippy::cast_precision_loss)]
                let angle = std::f64::consts::PI * (i as f64 / arc_samples as f64 - 0.5);
                let p = center + forward * (self.radius * angle.cos()) + side * (-self.radius * angle.sin());
                self.dot(painter, p, index);
                index += 1;
            }
        }
        if length > 0.0 {
            let line_samples = (length * per_unit).clamp(1.0, 100_000.0);
            // A whole number from 1 to 100 000.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let line_samples = line_samples.ceil() as usize;
            // Both sides of a capsule; a segment (radius 0) is its one line.
            let sides = if self.radius > 0.0 { 2 } else { 1 };
            for offset in [across * self.radius, across * -self.radius].into_iter().take(sides) {
                for i in 0..=line_samples {
                    #[allow(clippy::cast_precision_loss)]
                    let p = self.start + offset + axis * (i as f64 / line_samples as f64);
                    self.dot(painter, p, index);
                    index += 1;
                }
            }
        }
    }
}

/// A number in at most 11 characters: as many decimals as fit (up to
/// 10, enough to show most differences between precisions), trailing
/// zeros dropped.
pub(crate) fn short(v: f64) -> String {
    for decimals in (1..=10).rev() {
        let text = format!("{v:.decimals$}");
        let trimmed = text.trim_end_matches('0');
        let text = if trimmed.ends_with('.') { format!("{trimmed}0") } else { trimmed.to_owned() };
        if text.len() <= 11 {
            return text;
        }
    }
    format!("{v:.3e}")
}

/// One inspector cell's value: a number, or a word for an answer that is
/// not one (a miss, no contact).
#[derive(Clone, Copy, PartialEq)]
enum Value {
    Number(f64),
    Word(&'static str),
}

impl Value {
    fn text(self) -> String {
        match self {
            Self::Number(v) => short(v),
            Self::Word(w) => w.to_owned(),
        }
    }
}

/// An inspector row: a name, and the value from one type's readings.
type Quantity = (&'static str, fn(&Readings) -> Value);

const QUANTITIES: [Quantity; 8] = [
    ("closest x", |r| Value::Number(r.closest.x)),
    ("closest y", |r| Value::Number(r.closest.y)),
    ("distance", |r| Value::Number(r.distance)),
    ("touching", |r| Value::Word(if r.intersects { "yes" } else { "no" })),
    ("depth", |r| r.contact.map_or(Value::Word("—"), |(d, _)| Value::Number(d))),
    ("normal x", |r| r.contact.map_or(Value::Word("—"), |(_, n)| Value::Number(n.x))),
    ("normal y", |r| r.contact.map_or(Value::Word("—"), |(_, n)| Value::Number(n.y))),
    ("impact t", |r| match r.sweep {
        SweepReading::Miss => Value::Word("miss"),
        SweepReading::InContact { blocked: false } => Value::Word("touching"),
        SweepReading::InContact { blocked: true } => Value::Word("blocked"),
        SweepReading::Hit { t } => Value::Number(t),
    }),
];

fn draw_inspector(frame: &mut Frame<'_>, area: Rect, app: &App, inspection: Option<&Inspection>, theme: Theme) {
    let block = Block::new().borders(Borders::TOP | Borders::LEFT).title(" inspector ");
    let Some(inspection) = inspection else {
        let text = vec![
            Line::from("Select a body (Tab or click) to see geom's answers"),
            Line::from("for it in every precision, side by side."),
            Line::from(""),
            Line::from("* differs from f64   ! a different answer"),
        ];
        frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }), area);
        return;
    };
    let rank = if inspection.rank == 0 { "nearest".to_owned() } else { format!("#{} nearest", inspection.rank + 1) };
    let (id, body) = inspection.body;
    let title = format!(" {} vs {} · {rank} · t: next ", body_name(id, &body), inspection.target_name);
    // A capsule's core and radius on the line below the table.
    let (area, core_area) = if body.is_capsule() {
        let [table, below] = Layout::vertical([Constraint::Length(TABLE_ROWS), Constraint::Min(0)]).areas(area);
        (table, Some(below).filter(|below| below.height > 0))
    } else {
        (area, None)
    };
    if let Some(below) = core_area {
        let [start, end] = body.core;
        let text = format!(
            "capsule core x1={} y1={} x2={} y2={} (from its position) r={}",
            short(start.x),
            short(start.y),
            short(end.x),
            short(end.y),
            short(body.radius)
        );
        frame.render_widget(Paragraph::new(text).block(Block::new().borders(Borders::LEFT)), below);
    }
    let reference = inspection.table.iter().find(|(k, _)| *k == ScalarKind::F64).and_then(|(_, r)| r.as_ref().ok());
    let header = Row::new(std::iter::once(Cell::from("")).chain(inspection.table.iter().map(|(kind, _)| {
        let style = if *kind == app.kind() { Style::new().add_modifier(Modifier::BOLD) } else { Style::new() };
        Cell::from(Span::styled(format!("{kind:>12}"), style))
    })));
    let rows = QUANTITIES.iter().map(|(name, value_of)| {
        let cells = inspection.table.iter().map(|(_, readings)| {
            let Ok(readings) = readings else {
                return Cell::from(Span::styled(format!("{:>12} ", "out of range"), theme.error()));
            };
            let value = value_of(readings);
            let (mark, style) = match (value, reference.map(value_of)) {
                (Value::Number(a), Some(Value::Number(b))) if a != b => ("*", theme.differs()),
                (a, Some(b)) if a != b => ("!", theme.outcome_differs()),
                _ => (" ", Style::new()),
            };
            Cell::from(Span::styled(format!("{:>12}{mark}", value.text()), style))
        });
        Row::new(std::iter::once(Cell::from(*name)).chain(cells))
    });
    let widths = [Constraint::Length(9)].into_iter().chain([Constraint::Length(13); 5]);
    let table = Table::new(rows, widths).header(header).column_spacing(0).block(block.title(title));
    frame.render_widget(table, area);
}

fn draw_footer(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let line = if let Some(prompt) = &app.prompt {
        let label = match &prompt.kind {
            PromptKind::Edit(selected) => {
                let fields: Vec<String> =
                    app.edit_fields(*selected).iter().map(|(f, v)| format!("{}={}", f.name(), short(*v))).collect();
                format!("edit {} [{}]> ", describe(*selected, app), fields.join(" "))
            }
            PromptKind::Open => "open scene file> ".to_owned(),
        };
        // What was typed last stays in view: a long text shows its end.
        let room = usize::from(area.width).saturating_sub(Line::from(label.as_str()).width() + 2).max(1);
        let typed = prompt.text.chars().count();
        let text = if typed > room {
            let tail: String = prompt.text.chars().skip(typed + 1 - room).collect();
            format!("…{tail}")
        } else {
            prompt.text.clone()
        };
        Line::from(vec![
            Span::styled(label, Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(text),
            Span::raw("▏"),
        ])
    } else if let Some(message) = &app.message {
        let style = if message.error { theme.error() } else { theme.fg(Color::Green) };
        let line = Line::from(Span::styled(message.text.as_str(), style));
        return frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), area);
    } else {
        let selection = app.selection().map(|s| format!("{} · ", describe(s, app))).unwrap_or_default();
        Line::from(format!("{selection}space play · . step · , back · Tab select · ? help · q quit"))
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_help(frame: &mut Frame<'_>, area: Rect, theme: Theme) {
    let keys = crate::input::KEYS;
    let width = 64.min(area.width);
    // The key list is short: a handful of rows, far below u16::MAX.
    #[allow(clippy::cast_possible_truncation)]
    let height = (keys.len() as u16 + 4).min(area.height);
    let popup = Rect::new(area.x + (area.width - width) / 2, area.y + (area.height - height) / 2, width, height);
    let mut lines: Vec<Line<'_>> = keys
        .iter()
        .map(|(key, what)| {
            Line::from(vec![Span::styled(format!("{key:>14}  "), theme.fg(Color::Yellow)), Span::raw(*what)])
        })
        .collect();
    lines.push(Line::from(Span::styled(
        format!("arrows: velocity × {ARROW_TICKS} ticks · red: contacts · * ≠ f64"),
        theme.fg(Color::Gray),
    )));
    lines.push(Line::from(Span::styled(
        "dotted green: sensors · blue: platforms · magenta: impacts",
        theme.fg(Color::Gray),
    )));
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" keys · ? or Esc closes ")), popup);
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::scene::{DEFAULT_SCENE, Scene};

    fn app(kind: ScalarKind) -> App {
        let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), None, kind).unwrap();
        app.set_colors(false);
        app
    }

    fn keys(app: &mut App, codes: &[KeyCode]) {
        for code in codes {
            app.handle(&Event::Key(KeyEvent::new(*code, KeyModifiers::NONE)));
        }
    }

    /// The screen as text, one line per row.
    pub(crate) fn render(app: &mut App, width: u16, height: u16) -> String {
        app.resize(width, height);
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn draw_buffer(app: &mut App, width: u16, height: u16) -> ratatui::buffer::Buffer {
        app.resize(width, height);
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn is_braille(c: char) -> bool {
        ('\u{2801}'..='\u{28ff}').contains(&c)
    }

    /// A scene of one floor and one ball, to read exact numbers from.
    fn ball_over_floor(kind: ScalarKind, y: f64, radius: f64) -> App {
        let mut scene = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
        scene.colliders.push(Shape::Segment { start: Vec2::new(-8.0, 0.0), end: Vec2::new(8.0, 0.0) }.into());
        let mut ball = crate::scene::BodySpec::new(Vec2::new(1.0, y), radius);
        ball.velocity = Vec2::new(0.0, -1.0);
        scene.bodies.push(ball);
        let mut app = App::new(scene, None, kind).unwrap();
        app.set_colors(false);
        keys(&mut app, &[KeyCode::Tab]);
        app
    }

    /// Sensors are drawn dotted in light green, platforms in light blue with
    /// their velocity arrow, and the last tick's impacts as light magenta
    /// stars: each one is on the canvas exactly when the scene has it.
    #[test]
    fn the_canvas_draws_sensors_platforms_and_the_last_ticks_impacts() {
        use crate::scene::{BodySpec, ColliderSpec, Settings};
        let colours = |scene: &Scene, ticks: usize| {
            let mut app = App::new(scene.clone(), None, ScalarKind::I32F32).unwrap();
            app.set_colors(true);
            for _ in 0..ticks {
                keys(&mut app, &[KeyCode::Char('.')]);
            }
            let buffer = draw_buffer(&mut app, 80, 24);
            let mut seen = std::collections::BTreeSet::new();
            for cell in buffer.content() {
                if cell.symbol().chars().any(is_braille) {
                    seen.insert(format!("{:?}", cell.fg));
                }
            }
            seen
        };
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, -0.125)));
        scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) }.into());
        let plain = colours(&scene, 0);
        assert!(!plain.contains("LightGreen") && !plain.contains("LightBlue"), "{plain:?}");
        let mut zone = ColliderSpec::new(Shape::Circle { center: Vec2::new(-5.0, 5.0), radius: 2.0 });
        zone.sensor = true;
        scene.colliders.push(zone);
        let mut lift = ColliderSpec::new(Shape::Segment { start: Vec2::new(4.0, 2.0), end: Vec2::new(8.0, 2.0) });
        lift.velocity = Vec2::new(0.0, 0.25);
        scene.colliders.push(lift);
        let drawn = colours(&scene, 0);
        assert!(drawn.contains("LightGreen") && drawn.contains("LightBlue") && drawn.contains("Green"), "{drawn:?}");
        assert!(!drawn.contains("LightMagenta"), "no impact before the first tick: {drawn:?}");
        // A ball that lands on the floor on the second tick.
        let mut ball = BodySpec::new(Vec2::new(0.0, 1.0), 0.5);
        ball.velocity = Vec2::new(0.0, -0.5);
        scene.bodies.push(ball);
        assert!(colours(&scene, 1).contains("LightMagenta"), "the impact of the tick just stepped");
        assert!(!colours(&scene, 40).contains("LightMagenta"), "a ball at rest has no impact");
    }

    /// The inspector row called `name`, split into its cells.
    fn inspector_row(screen: &str, name: &str) -> Vec<String> {
        let line = screen
            .lines()
            .find(|l| l.trim_start_matches('│').starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{screen}"));
        line.trim_start_matches('│')[name.len()..].split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_main_screen_fits_80_by_24_with_status_canvas_inspector_and_hints() {
        let mut app = app(ScalarKind::I32F32);
        let screen = render(&mut app, 80, 24);
        let lines: Vec<&str> = screen.lines().collect();
        assert_eq!(lines.len(), 24);
        let status = format!(" ⏸ paused │ tick 0 │ I32F32 │ checksum {:016x} │ rewind 0 │ ? help", app.checksum());
        assert_eq!(lines[0], status);
        let canvas_rows = lines[1..12].iter().filter(|l| l.chars().any(is_braille)).count();
        assert!(canvas_rows >= 10, "the scene fills the canvas:\n{screen}");
        assert!(lines[12].starts_with("┌ inspector"), "{screen}");
        assert!(lines[13].contains("Select a body"), "{screen}");
        assert_eq!(lines[23], "space play · . step · , back · Tab select · ? help · q quit");
    }

    #[test]
    fn the_canvas_draws_a_floor_as_one_braille_line_and_the_ball_above_it() {
        let mut app = ball_over_floor(ScalarKind::I16F16, 4.0, 1.0);
        keys(&mut app, &[KeyCode::Char('i')]); // the canvas alone
        app.resize(60, 20);
        app.fit();
        let screen = render(&mut app, 60, 20);
        let rows: Vec<usize> = screen
            .lines()
            .enumerate()
            .filter(|(_, l)| l.chars().filter(|&c| is_braille(c)).count() > 40)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(rows.len(), 1, "one long horizontal line:\n{screen}");
        let ball_rows = screen.lines().take(rows[0]).filter(|l| l.chars().any(is_braille)).count();
        assert!(ball_rows >= 3, "the ball, its arrow and path are above the floor:\n{screen}");
    }

    #[test]
    fn the_help_overlay_lists_every_key_at_80_by_24() {
        let mut app = app(ScalarKind::F32);
        keys(&mut app, &[KeyCode::Char('?')]);
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains("keys · ? or Esc closes"), "{screen}");
        for (key, what) in crate::input::KEYS {
            let line = screen.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("{what} missing:\n{screen}"));
            assert!(line.contains(key), "{key} is not beside {what}");
        }
    }

    #[test]
    fn the_inspector_shows_every_type_side_by_side_with_exact_values() {
        let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains("body 0 vs collider 0 (segment) · nearest"), "{screen}");
        let header = screen.lines().find(|l| l.contains("f32") && l.contains("I48F16")).unwrap();
        assert_eq!(
            header.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>(),
            ["f32", "f64", "I16F16", "I32F32", "I48F16"]
        );
        assert_eq!(inspector_row(&screen, "closest x"), ["1.0"; 5]);
        assert_eq!(inspector_row(&screen, "distance"), ["3.0"; 5]);
        assert_eq!(inspector_row(&screen, "touching"), ["no"; 5]);
        assert_eq!(inspector_row(&screen, "depth"), ["—"; 5]);
        // Falling 1 a tick from 3 up with radius 1: touches after 2, t = 2/1 > 1: a miss this tick.
        assert_eq!(inspector_row(&screen, "impact t"), ["miss"; 5]);
        app.handle(&Event::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE)));
        keys(&mut app, &[KeyCode::Enter]);
        for c in "y=1.5".chars() {
            keys(&mut app, &[KeyCode::Char(c)]);
        }
        keys(&mut app, &[KeyCode::Enter]);
        let screen = render(&mut app, 80, 24);
        assert_eq!(inspector_row(&screen, "impact t"), ["0.5"; 5], "{screen}");
    }

    #[test]
    fn the_inspector_marks_values_and_answers_that_differ_from_f64() {
        // In an f64 world, 0.30000001 is above the radius 0.3, but both
        // round to the same I16F16 value: a different answer there, and a
        // rounding in f32.
        let mut app = ball_over_floor(ScalarKind::F64, 0.300_000_01, 0.3);
        let screen = render(&mut app, 80, 24);
        let touching = inspector_row(&screen, "touching");
        assert_eq!(touching[1], "no", "{screen}");
        assert_eq!(touching[2], "yes!", "{screen}");
        let distance = inspector_row(&screen, "distance");
        assert!(distance[0].ends_with('*') && !distance[1].ends_with('*'), "{screen}");
    }

    #[test]
    fn a_refused_edit_shows_its_message_in_red_or_bold_under_no_color() {
        for colors in [true, false] {
            let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
            app.set_colors(colors);
            keys(&mut app, &[KeyCode::Char('['); 9]);
            let buffer = draw_buffer(&mut app, 80, 24);
            let footer: String = (0..80).map(|x| buffer[(x, 23)].symbol()).collect();
            assert!(footer.starts_with("radius refused: the radius is negative"), "{footer}");
            let cell = &buffer[(0, 23)];
            if colors {
                assert_eq!(cell.fg, Color::Red);
            } else {
                assert_eq!(cell.fg, Color::Reset);
                assert!(cell.modifier.contains(Modifier::BOLD));
            }
        }
    }

    #[test]
    fn no_color_leaves_every_cell_uncoloured() {
        let mut app = app(ScalarKind::I16F16);
        keys(&mut app, &[KeyCode::Tab, KeyCode::Char('c'), KeyCode::Char('.')]);
        let buffer = draw_buffer(&mut app, 120, 40);
        assert!(buffer.content().iter().all(|c| c.fg == Color::Reset && c.bg == Color::Reset));
        app.set_colors(true);
        let buffer = draw_buffer(&mut app, 120, 40);
        assert!(buffer.content().iter().any(|c| c.fg == Color::Magenta), "the split view's second world is drawn");
    }

    #[test]
    fn a_large_terminal_puts_the_inspector_beside_the_canvas_and_shows_the_split() {
        let mut app = app(ScalarKind::I16F16);
        keys(&mut app, &[KeyCode::Tab, KeyCode::Char('c')]);
        for _ in 0..5 {
            keys(&mut app, &[KeyCode::Char('.')]);
        }
        let screen = render(&mut app, 160, 48);
        let lines: Vec<&str> = screen.lines().collect();
        assert!(lines[0].contains("tick 5 │ I16F16"));
        assert!(lines[1].starts_with(" split: I16F16 solid, f64 dotted │ gap now"), "{}", lines[1]);
        let title = lines[2].find("┌ inspector").expect("the inspector is at the top right");
        assert_eq!(title, 160 - 76, "{screen}");
        let on_the_left = lines.iter().map(|l| l.chars().take(84).filter(|&c| is_braille(c)).count()).sum::<usize>();
        let on_the_right = lines.iter().map(|l| l.chars().skip(84).filter(|&c| is_braille(c)).count()).sum::<usize>();
        assert!(on_the_left > 100 && on_the_right == 0, "{screen}");
    }

    #[test]
    fn a_capsule_body_is_drawn_along_its_core_highlighted_and_inspected_with_its_core_and_radius() {
        // A ball over a floor, and a capsule body lying high above them,
        // 12 long, its position at its left end.
        let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
        let mut plank = crate::scene::BodySpec::capsule(Vec2::new(-6.0, 10.0), Vec2::ZERO, Vec2::new(12.0, 0.0), 0.5);
        plank.inverse_mass = 0.0;
        let mut scene = app.primary().to_scene();
        scene.bodies.push(plank);
        app = App::new(scene, None, ScalarKind::I16F16).unwrap();
        app.set_colors(true);
        // How wide the braille drawn in `color` is, in the view's units.
        let width_in = |app: &mut App, color: Color| {
            let buffer = draw_buffer(app, 80, 24);
            let canvas = layout(app.size, app).canvas;
            let columns = (canvas.left()..canvas.right())
                .filter(|&x| {
                    (canvas.top()..canvas.bottom()).any(|y| {
                        let cell = &buffer[(x, y)];
                        cell.fg == color && cell.symbol().chars().any(is_braille)
                    })
                })
                .count();
            f64::from(u16::try_from(columns).unwrap()) * app.camera.cell()
        };
        // Immovable, so blue: one long outline, as wide as the capsule is
        // long (12 and its two caps), not a small circle at its position.
        keys(&mut app, &[KeyCode::Tab]);
        let width = width_in(&mut app, Color::Blue);
        assert!((13.0..=14.5).contains(&width), "{width} units wide");
        // Selected, all of it is yellow.
        keys(&mut app, &[KeyCode::Tab]);
        assert_eq!(width_in(&mut app, Color::Blue), 0.0);
        let width = width_in(&mut app, Color::Yellow);
        assert!((13.0..=14.5).contains(&width), "{width} units wide");
        // The inspector names it a capsule and shows its core and radius.
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains(" body 1 (capsule) vs body 0 · nearest"), "{screen}");
        assert!(screen.contains("│capsule core x1=0.0 y1=0.0 x2=12.0 y2=0.0 (from its position) r=0.5"), "{screen}");
        // From its core to the ball's centre, right below it.
        assert_eq!(inspector_row(&screen, "distance"), ["7.0"; 5], "{screen}");
        assert_eq!(inspector_row(&screen, "closest x"), ["1.0"; 5], "{screen}");
        keys(&mut app, &[KeyCode::Enter]);
        let footer = render(&mut app, 120, 40).lines().last().unwrap().to_owned();
        assert_eq!(
            footer,
            "edit body 1 (capsule) [x=-6.0 y=10.0 x1=0.0 y1=0.0 x2=12.0 y2=0.0 vx=0.0 vy=0.0 r=0.5 e=0.0 im=0.0 mu=0.0]> ▏"
        );
    }

    #[test]
    fn the_edit_prompt_shows_the_fields_and_what_is_typed() {
        let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
        keys(&mut app, &[KeyCode::Enter, KeyCode::Char('r'), KeyCode::Char('=')]);
        let screen = render(&mut app, 80, 24);
        let footer = screen.lines().last().unwrap();
        assert_eq!(footer, "edit body 0 [x=1.0 y=3.0 vx=0.0 vy=-1.0 r=1.0 e=0.0 im=1.0 mu=0.0]> r=▏");
    }

    /// The sandbox as the README shows it: the default scene in I32F32 at
    /// tick 90, body 4 selected, in 80 × 24.
    fn readme_capture() -> String {
        let mut app = app(ScalarKind::I32F32);
        for _ in 0..90 {
            keys(&mut app, &[KeyCode::Char('.')]);
        }
        for _ in 0..5 {
            keys(&mut app, &[KeyCode::Tab]);
        }
        render(&mut app, 80, 24)
    }

    fn readme() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).expect("the README")
    }

    #[test]
    fn the_readme_shows_the_sandbox_as_it_draws_today() {
        let readme = readme();
        let (_, after) = readme.split_once("<!-- sandbox capture: start -->\n```text\n").expect("the capture's start");
        let (capture, _) = after.split_once("```\n<!-- sandbox capture: end -->").expect("the capture's end");
        let now = readme_capture();
        assert!(capture.trim_end() == now.trim_end(), "the README's capture is out of date; replace it with:\n{now}");
    }

    #[test]
    fn the_readme_lists_every_key() {
        let readme = readme();
        for (key, what) in crate::input::KEYS {
            let row = format!("| `{key}` | {what} |");
            assert!(readme.contains(&row), "the README lacks the row `{row}`");
        }
    }

    /// The app in each state that draws differently, named.
    fn every_state() -> Vec<(&'static str, App)> {
        let mut states = Vec::new();
        let mut plain = app(ScalarKind::F64);
        keys(&mut plain, &[KeyCode::Char('.')]);
        states.push(("plain", plain));
        let mut selected = app(ScalarKind::I16F16);
        keys(&mut selected, &[KeyCode::Tab, KeyCode::Tab]);
        states.push(("selected", selected));
        let mut help = app(ScalarKind::F32);
        keys(&mut help, &[KeyCode::Tab, KeyCode::Char('?')]);
        states.push(("help", help));
        let mut split = app(ScalarKind::I16F16);
        keys(&mut split, &[KeyCode::Tab, KeyCode::Char('c'), KeyCode::Char('.')]);
        states.push(("split", split));
        let mut prompt = app(ScalarKind::I32F32);
        keys(&mut prompt, &[KeyCode::Tab, KeyCode::Enter, KeyCode::Char('x'), KeyCode::Char('=')]);
        states.push(("prompt", prompt));
        let mut message = app(ScalarKind::I48F16);
        message.refuse(format!("kept the current scene: {}: too large", "/a/long/path".repeat(20)));
        states.push(("message", message));
        let mut bare = app(ScalarKind::F64);
        keys(&mut bare, &[KeyCode::Tab, KeyCode::Char('i')]);
        states.push(("no inspector", bare));
        states
    }

    #[test]
    fn every_terminal_size_draws_and_too_small_ones_say_so() {
        let mut sizes: Vec<(u16, u16)> = (0..=30).flat_map(|w| (0..=30).map(move |h| (w, h))).collect();
        sizes.extend([(80, 24), (129, 40), (130, 14), (200, 5), (5, 200), (1000, 3), (3, 1000), (400, 300)]);
        sizes.extend([(u16::MAX, 1), (1, u16::MAX), (u16::MAX, 6)]);
        for (name, mut app) in every_state() {
            let rows = if app.secondary().is_some() { MIN_HEIGHT + 1 } else { MIN_HEIGHT };
            for &(width, height) in &sizes {
                let screen = render(&mut app, width, height);
                let first = screen.lines().next().unwrap_or_default();
                if width < MIN_WIDTH || height < rows {
                    let note = format!("terminal too small {width}×{height}, need {MIN_WIDTH}×{rows} q quits");
                    // As much of the note as fits, however it is wrapped.
                    let compact = |text: &str| text.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                    assert!(compact(&note).starts_with(&compact(&screen)), "{name} at {width}×{height}:\n{screen}");
                    assert_eq!(compact(&screen).is_empty(), width == 0 || height == 0, "{name} at {width}×{height}");
                    if width >= 18 && height >= 2 {
                        assert_eq!(first, "terminal too small", "{name} at {width}×{height}");
                    }
                } else if name == "help" {
                    assert!(screen.contains("keys"), "{name} at {width}×{height}:\n{screen}");
                } else {
                    assert!(first.contains("tick"), "{name} at {width}×{height}:\n{screen}");
                }
            }
        }
    }

    #[test]
    fn shrinking_to_one_cell_and_back_restores_the_view() {
        for (name, mut app) in every_state() {
            let before = render(&mut app, 80, 24);
            let (camera, message) = (app.camera, app.message.clone());
            for (width, height) in [(1, 1), (0, 0), (2, 1), (1, 2), (19, 24), (80, 4)] {
                app.handle(&Event::Resize(width, height));
                let screen = render(&mut app, width, height);
                assert!(!screen.contains("tick"), "{name} at {width}×{height}:\n{screen}");
                // Clicks and keys that need a view change nothing while there is none.
                let click = ratatui::crossterm::event::MouseEvent {
                    kind: ratatui::crossterm::event::MouseEventKind::Down(ratatui::crossterm::event::MouseButton::Left),
                    column: 0,
                    row: 0,
                    modifiers: KeyModifiers::NONE,
                };
                let selected = app.selection();
                app.handle(&Event::Mouse(click));
                assert_eq!(app.selection(), selected, "{name} at {width}×{height}");
                if app.prompt.is_none() && !app.help {
                    keys(&mut app, &[KeyCode::Char('f')]);
                }
            }
            assert_eq!(app.camera, camera, "{name}: fitting into no room leaves the view");
            app.handle(&Event::Resize(80, 24));
            app.message = message; // `f` cleared it
            assert_eq!(render(&mut app, 80, 24), before, "{name}: the view is back as it was");
        }
    }

    #[test]
    fn a_long_message_wraps_onto_at_most_three_lines_and_the_canvas_makes_room() {
        let mut app = app(ScalarKind::F64);
        keys(&mut app, &[KeyCode::Char('i')]);
        let text = "word ".repeat(30);
        app.refuse(text.trim_end());
        let screen = render(&mut app, 80, 24);
        let lines: Vec<&str> = screen.lines().collect();
        assert_eq!(&lines[22..], ["word ".repeat(16).trim_end(), "word ".repeat(14).trim_end()], "{screen}");
        assert_eq!(crate::ui::layout(app.size, &app).canvas.height, 21);
        app.refuse("word ".repeat(100).trim_end());
        assert_eq!(crate::ui::layout(app.size, &app).footer.height, 3, "at most three lines");
        // In the smallest terminal the canvas keeps its three rows.
        app.resize(MIN_WIDTH, MIN_HEIGHT);
        let areas = crate::ui::layout(app.size, &app);
        assert_eq!((areas.canvas.height, areas.footer.height), (3, 1));
    }

    #[test]
    fn a_short_terminal_leaves_out_the_inspector_rather_than_squash_the_canvas() {
        let mut app = app(ScalarKind::F64);
        keys(&mut app, &[KeyCode::Tab]);
        for height in MIN_HEIGHT..30 {
            app.resize(80, height);
            let areas = crate::ui::layout(app.size, &app);
            assert!(areas.canvas.height >= 3, "{height}: {areas:?}");
            assert_eq!(areas.inspector.is_some(), height >= MIN_HEIGHT + INSPECTOR_ROWS, "{height}: {areas:?}");
        }
    }

    #[test]
    fn short_numbers_fit_eleven_characters_and_show_small_differences() {
        assert_eq!(short(2.0), "2.0");
        assert_eq!(short(2.000_000_003_725_290_3), "2.000000004");
        assert_eq!(short(-0.125), "-0.125");
        assert_eq!(short(268_435_456.5), "268435456.5");
        assert_eq!(short(1.5e20), "1.500e20");
        for v in [1.0 / 3.0, -4_096.123_456_789, 1e-12, 123_456_789_012.0] {
            assert!(short(v).len() <= 11, "{v}: {}", short(v));
        }
    }
}
