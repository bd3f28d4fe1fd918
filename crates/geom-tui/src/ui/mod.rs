//! Drawing the sandbox: the status bar, the braille canvas, the inspector,
//! the bottom lines and the help overlay. Reads the [`App`], changes
//! nothing.

mod canvas;
mod inspector;
pub mod lab;
#[cfg(test)]
mod tests;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::app::{App, footer_text, wrap};
use crate::editor::{self, Prompt, PromptKind};
use crate::keymap::KEYS;
use crate::layout::status_rows;
pub use crate::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::num::short;

/// Velocity arrows show where a body would be after this many ticks.
pub(crate) const ARROW_TICKS: f64 = 10.0;

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
    let theme = Theme { colors: app.view.colors };
    let areas = app.areas(frame.area());
    if areas.too_small {
        return draw_too_small(frame, frame.area(), app);
    }
    let inspection =
        app.selection().and_then(|s| crate::inspect::inspection(app.timeline.primary(), s, app.editor.target_rank));
    draw_status(frame, areas.status, app, theme);
    canvas::draw(frame, areas.canvas, app, inspection.as_ref(), theme);
    if let Some(area) = areas.inspector {
        inspector::draw(frame, area, app, inspection.as_ref(), theme);
    }
    draw_footer(frame, areas.footer, app, theme);
    if let Some(top) = app.view.help {
        draw_help(frame, frame.area(), top, theme);
    }
}

/// A short note in place of the sandbox when the terminal is too small;
/// it shows as much of it as fits, down to nothing at all in 0 × 0.
fn draw_too_small(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let rows = MIN_HEIGHT - 1 + status_rows(app.timeline.secondary().is_some());
    let text = vec![
        Line::from("terminal too small"),
        Line::from(format!("{}×{}, need {MIN_WIDTH}×{rows}", area.width, area.height)),
        Line::from("q quits"),
    ];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

fn draw_status(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let timeline = &app.timeline;
    let bar = Style::new().add_modifier(Modifier::REVERSED);
    let state = if timeline.playing() { format!("▶ {} t/s", timeline.ticks_per_second()) } else { "⏸".to_owned() };
    // The parts of the first line, shortened and then left out, least
    // needed first, until the line fits: the rewind count, then the word
    // "checksum"; the pointer and the zoom stay.
    let width = usize::from(area.width);
    let play = app.play_status().map(|p| format!(" │ {p}")).unwrap_or_default();
    let at = app.pointer().map(|at| format!(" │ at {}, {}", short(at.x), short(at.y))).unwrap_or_default();
    let cell = format!(" │ 1 cell = {}", significant(app.view.camera.cell()));
    let (tick, kind, checksum) = (app.tick(), app.kind(), app.checksum());
    let rewind = format!(" │ rewind {}", timeline.rewindable());
    let lines: Vec<String> = [(rewind.as_str(), "checksum "), ("", "checksum "), ("", "#")]
        .iter()
        .map(|(rewind, word)| {
            format!(" {state} │ tick {tick} │ {kind} │ {word}{checksum:016x}{rewind}{play}{at}{cell}")
        })
        .collect();
    let first = lines.iter().find(|line| line.chars().count() <= width).unwrap_or(&lines[2]).clone();
    let [top, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(Paragraph::new(first).style(bar), top);
    if let Some(secondary) = timeline.secondary() {
        let now = timeline.deviation_now().map_or(0.0, |d| d.gap);
        let divergence = timeline.first_divergence();
        let threshold = format!("1e{}", timeline.threshold_exponent());
        let first = match divergence {
            Some(d) => format!("first > {threshold} at tick {}{}", d.tick, body_suffix(d.body)),
            None => format!("none > {threshold} yet"),
        };
        let mut parts = [
            format!(" split: {} solid, ", app.kind()),
            format!("{} dotted", secondary.kind()),
            format!(" │ gap now {} │ ", short(now)),
        ];
        // Narrow: the two types and the gap in short.
        if parts.iter().chain([&first]).map(|p| p.chars().count()).sum::<usize>() > width {
            parts = [format!(" {}/", app.kind()), secondary.kind().to_string(), format!(" │ gap {} │ ", short(now))];
        }
        let [types, other, gap] = parts;
        let line = Line::from(vec![
            Span::raw(types),
            Span::styled(other, theme.fg(Color::Magenta)),
            Span::raw(gap),
            Span::styled(first, if divergence.is_some() { theme.error() } else { Style::new() }),
        ]);
        frame.render_widget(Paragraph::new(line), rest);
    }
}

fn body_suffix(body: Option<geom_core::world::BodyId>) -> String {
    body.map(|b| format!(" (body {})", b.index())).unwrap_or_default()
}

/// `v` to three significant digits: the zoom needs no more.
fn significant(v: f64) -> String {
    if !(v.is_finite() && (1e-3..1e6).contains(&v)) {
        return format!("{v:.2e}");
    }
    // A small whole number: the digits before the point.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let decimals = (2.0 - v.log10().floor()).max(0.0) as usize;
    format!("{v:.decimals$}")
}

/// The prompt's line: what it is for, and as much of the typed text as
/// fits beside it around the cursor (`▏`), which is always in view; `…`
/// stands for text cut off on either side.
fn prompt_line(label: &str, prompt: &Prompt, width: usize) -> Line<'static> {
    let label = if label.chars().count() + 9 > width { "> " } else { label };
    let room = width.saturating_sub(label.chars().count()).max(3);
    let mut cells: Vec<char> = prompt.text.chars().collect();
    let cursor = prompt.cursor.min(cells.len());
    cells.insert(cursor, '▏');
    let shown: String = if cells.len() <= room {
        cells.into_iter().collect()
    } else if cursor + room > cells.len() {
        // The cursor is within the last `room − 1` cells: the end shows.
        let tail = &cells[cells.len() + 1 - room..];
        core::iter::once('…').chain(tail.iter().copied()).collect()
    } else {
        // The cursor a third of the way in, the rest cut off after it.
        let start = cursor.saturating_sub((room - 3) / 3);
        let lead = usize::from(start > 0);
        let end = (start + room - lead - 1).min(cells.len());
        let mut shown: String = (start > 0).then_some('…').into_iter().collect();
        shown.extend(&cells[start..end]);
        shown.push('…');
        shown
    };
    Line::from(vec![Span::styled(label.to_owned(), Style::new().add_modifier(Modifier::BOLD)), Span::raw(shown)])
}

fn draw_footer(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let width = usize::from(area.width);
    let mut lines: Vec<Line<'_>> = Vec::new();
    if let Some(text) = footer_text(app) {
        let style = match &app.view.message {
            Some(m) if m.error => theme.error(),
            Some(_) => theme.fg(Color::Green),
            None => theme.fg(Color::Gray),
        };
        lines.extend(wrap(&text, width).into_iter().map(|l| Line::from(Span::styled(l, style))));
    }
    if let Some(prompt) = &app.editor.prompt {
        let label = match prompt.kind {
            PromptKind::Edit(_) => "edit> ",
            PromptKind::World => "edit world> ",
            PromptKind::Open => "open scene file (Tab completes)> ",
            PromptKind::SaveState => "save this tick's state as> ",
            PromptKind::SaveInputs => "save the moves played as> ",
        };
        // The prompt's line is the last, whatever room the text above had.
        let room = usize::from(area.height).saturating_sub(1);
        let skip = lines.len().saturating_sub(room);
        lines.drain(..skip);
        lines.push(prompt_line(label, prompt, width));
    } else if lines.is_empty() {
        let selection =
            app.selection().map(|s| format!("{} · ", editor::describe(s, app.timeline.primary()))).unwrap_or_default();
        lines.push(Line::from(format!("{selection}space play · . step · , back · Tab select · ? help · q quit")));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The help's rows in a box `width` wide (its borders included): every
/// key beside what it does, then what the colours mean; a description too
/// long for its row goes on under it, and in a very narrow box under its
/// key. Each row is `(key, text)`, `key` empty on the rows that go on.
pub(crate) fn help_rows(width: u16) -> Vec<(String, String)> {
    let inner = usize::from(help_width(width).saturating_sub(2)).max(1);
    let key_width = KEYS.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let beside = inner.saturating_sub(key_width + 2);
    let mut rows = Vec::new();
    for (key, what) in KEYS {
        if beside >= 16 {
            for (i, line) in wrap(what, beside).into_iter().enumerate() {
                let key = if i == 0 { format!("{key:>key_width$}  ") } else { " ".repeat(key_width + 2) };
                rows.push((key, line));
            }
        } else {
            rows.push(((*key).to_owned(), String::new()));
            rows.extend(wrap(what, inner.saturating_sub(2).max(1)).into_iter().map(|l| ("  ".to_owned(), l)));
        }
    }
    let legend = [
        format!("arrows: velocity × {ARROW_TICKS} ticks · red: contacts · * ≠ f64"),
        "dotted green: sensors · blue: platforms · magenta: impacts".to_owned(),
    ];
    rows.extend(legend.iter().flat_map(|l| wrap(l, inner)).map(|l| (String::new(), l)));
    rows
}

/// The help box's width in a terminal `width` wide.
fn help_width(width: u16) -> u16 {
    72.min(width)
}

/// The help's lines, styled: keys in yellow, the colours' legend (the
/// rows without a key column) in grey.
fn help_lines(theme: Theme, width: u16) -> Vec<Line<'static>> {
    help_rows(width)
        .into_iter()
        .map(|(key, text)| match key.as_str() {
            "" => Line::from(Span::styled(text, theme.fg(Color::Gray))),
            _ => Line::from(vec![Span::styled(key, theme.fg(Color::Yellow)), Span::raw(text)]),
        })
        .collect()
}

fn draw_help(frame: &mut Frame<'_>, area: Rect, top: u16, theme: Theme) {
    draw_key_box(frame, area, help_width(area.width), help_lines(theme, area.width), top);
}

/// A box of keys `width` wide in the middle of `area`, from line `top` on,
/// saying how to scroll it when it does not fit (the sandbox's help and
/// the netcode lab's).
fn draw_key_box(frame: &mut Frame<'_>, area: Rect, width: u16, lines: Vec<Line<'_>>, top: u16) {
    let total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let height = (total + 2).min(area.height);
    let popup = Rect::new(area.x + (area.width - width) / 2, area.y + (area.height - height) / 2, width, height);
    let shown = height.saturating_sub(2);
    let top = top.min(total.saturating_sub(shown));
    let title = if shown < total {
        format!(" keys {}-{} of {total} · ↑↓ scroll · Esc closes ", top + 1, (top + shown).min(total))
    } else {
        " keys · ? or Esc closes ".to_owned()
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).scroll((top, 0)).block(Block::bordered().title(title)), popup);
}
