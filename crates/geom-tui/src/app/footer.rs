//! What the bottom lines hold, and so how many rows they want: the
//! message, or the values a prompt edits above its line.

use super::App;
use crate::editor::{self, PromptKind, world_fields};
use crate::num::short;

/// `text` broken into lines of at most `width` characters, between words
/// where it can be (a word longer than a line is split).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let (used, length) = (line.chars().count(), word.chars().count());
        if used > 0 && used + 1 + length > width {
            lines.push(std::mem::take(&mut line));
        } else if used > 0 {
            line.push(' ');
        }
        for c in word.chars() {
            if line.chars().count() >= width {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    lines.push(line);
    lines
}

/// What the bottom lines hold above the prompt line: the values of what a
/// prompt edits, or the message.
pub(crate) fn footer_text(app: &App) -> Option<String> {
    let sim = app.timeline.primary();
    // Substeps are a whole number, shown as one (`substeps=4`).
    let value = |name: &str, v: f64| if name == "substeps" { format!("{v}") } else { short(v) };
    let fields = |pairs: Vec<(&str, f64)>| {
        pairs.iter().map(|&(n, v)| format!("{n}={}", value(n, v))).collect::<Vec<_>>().join(" ")
    };
    match app.editor.prompt.as_ref().map(|p| &p.kind) {
        _ if app.view.message.is_some() => app.view.message.as_ref().map(|m| m.text.clone()),
        Some(PromptKind::Edit(selected)) => {
            let values = app.fields_of(*selected).into_iter().map(|(f, v)| (f.name(), v)).collect();
            Some(format!("{}: {}", editor::describe(*selected, sim), fields(values)))
        }
        Some(PromptKind::World) => Some(format!(
            "world (the set-up's; re-runs to this tick): {}",
            fields(world_fields(&app.timeline.setup().settings))
        )),
        _ => None,
    }
}

/// The rows the bottom lines want in a terminal `width` wide.
pub(crate) fn footer_rows(app: &App, width: u16) -> u16 {
    let text_rows = footer_text(app).map_or(0, |text| wrap(&text, usize::from(width)).len());
    let prompt_rows = usize::from(app.editor.prompt.is_some());
    u16::try_from((text_rows + prompt_rows).max(1)).unwrap_or(u16::MAX)
}
