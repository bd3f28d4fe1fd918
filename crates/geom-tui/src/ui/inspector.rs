//! The inspector: geom's answers for the selected body in every scalar
//! type side by side, with what differs from `f64` marked.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Wrap};

use super::Theme;
use crate::app::App;
use crate::editor::{body_name, describe};
use crate::inspect::{Inspection, Readings, SweepReading};
use crate::num::{ScalarKind, short};
use crate::scene::BodySpec;
use crate::sim::Selected;

/// The rows the inspector's table takes: its title, the types and a row
/// for each quantity. The body's own values are on the rows below.
// A handful of quantities, far below u16::MAX.
#[allow(clippy::cast_possible_truncation)]
const TABLE_ROWS: u16 = 2 + QUANTITIES.len() as u16;

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
    ("gap", |r| Value::Number(r.gap)),
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

/// A body's own values, in the type it runs in, then a capsule's core.
fn own_values(body: &BodySpec) -> Vec<Line<'static>> {
    let mut own = vec![Line::from(format!(
        "now x={} y={} vx={} vy={} r={}",
        short(body.position.x),
        short(body.position.y),
        short(body.velocity.x),
        short(body.velocity.y),
        short(body.radius)
    ))];
    if body.is_capsule() {
        let [start, end] = body.core;
        own.push(Line::from(format!(
            "capsule core x1={} y1={} x2={} y2={} (from its position)",
            short(start.x),
            short(start.y),
            short(end.x),
            short(end.y),
        )));
    }
    own
}

pub(super) fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, inspection: Option<&Inspection>, theme: Theme) {
    let block = Block::new().borders(Borders::TOP | Borders::LEFT).title(" inspector ");
    let Some(inspection) = inspection else {
        let sim = app.timeline.primary();
        let selected = app.selection();
        let body = match selected {
            Some(Selected::Body(id)) => sim.body(id).map(|body| (id, body)),
            _ => None,
        };
        let text = match (selected, body) {
            // Selected, but alone: its own values, and what would give it
            // something to measure against.
            (_, Some((id, body))) => {
                let mut text =
                    vec![Line::from(format!("{}: nothing else to measure it against", body_name(id, &body)))];
                text.extend(own_values(&body));
                text.push(Line::from("Add a shape (b o s u) to see geom's answers for the pair"));
                text.push(Line::from("in every precision, side by side."));
                text
            }
            (Some(Selected::Collider(id)), _) => vec![
                Line::from(format!("{}: no body to measure it against", describe(Selected::Collider(id), sim))),
                Line::from("Add one (b) to see geom's answers for the pair in every precision."),
            ],
            _ => vec![
                Line::from("Select a body (Tab or click) to see geom's answers"),
                Line::from("for it in every precision, side by side."),
                Line::from(""),
                Line::from("* differs from f64   ! a different answer"),
                Line::from("Δ differs from f64 beyond the digits shown, by this"),
            ],
        };
        frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }), area);
        return;
    };
    let rank = if inspection.rank == 0 { "nearest".to_owned() } else { format!("#{} nearest", inspection.rank + 1) };
    let (id, body) = inspection.body;
    let title = format!(" {} vs {} · {rank} · t: next ", body_name(id, &body), inspection.target_name);
    let [table_area, below] = Layout::vertical([Constraint::Length(TABLE_ROWS), Constraint::Min(0)]).areas(area);
    if below.height > 0 {
        // The columns ask about this world's shapes; the split view runs a
        // world of its own in the other type: say which is which.
        let mut lines = own_values(&body);
        lines
            .push(Line::from(format!("columns: this {} world's shapes, in each type (c runs two worlds)", app.kind())));
        let paragraph = Paragraph::new(lines).block(Block::new().borders(Borders::LEFT)).wrap(Wrap { trim: false });
        frame.render_widget(paragraph, below);
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
            let (text, mark, style) = match (value, reference.map(value_of)) {
                // Printed alike, yet different: show by how much.
                (Value::Number(a), Some(Value::Number(b))) if a != b && short(a) == short(b) => {
                    (format!("Δ{:+.1e}", a - b), "*", theme.differs())
                }
                (Value::Number(a), Some(Value::Number(b))) if a != b => (value.text(), "*", theme.differs()),
                (a, Some(b)) if a != b => (value.text(), "!", theme.outcome_differs()),
                _ => (value.text(), " ", Style::new()),
            };
            Cell::from(Span::styled(format!("{text:>12}{mark}"), style))
        });
        Row::new(std::iter::once(Cell::from(*name)).chain(cells))
    });
    let widths = [Constraint::Length(9)].into_iter().chain([Constraint::Length(13); 5]);
    let table = Table::new(rows, widths).header(header).column_spacing(0).block(block.title(title));
    frame.render_widget(table, table_area);
}
