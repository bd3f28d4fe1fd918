//! Terminal events, turned into the sandbox's [`Action`]s. Only presses
//! count: key releases and repeats reported by some terminals are ignored.
//! Pasted text only ever goes into an open prompt, never taken as keys.

use ratatui::crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};

use crate::keymap::{self, Action, Mode};

/// The action a terminal event asks for in `mode`, if any.
pub(crate) fn action(event: &Event, mode: Mode) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => keymap::action(mode, *key),
        Event::Mouse(mouse) => {
            let (column, row) = (mouse.column, mouse.row);
            match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(column, row)),
                MouseEventKind::Drag(MouseButton::Left) => Some(Action::DragTo(column, row)),
                MouseEventKind::Up(MouseButton::Left) => Some(Action::Release),
                MouseEventKind::ScrollUp if mode == Mode::Help => Some(Action::Scroll(-1)),
                MouseEventKind::ScrollDown if mode == Mode::Help => Some(Action::Scroll(1)),
                MouseEventKind::ScrollUp => Some(Action::Wheel(true, column, row)),
                MouseEventKind::ScrollDown => Some(Action::Wheel(false, column, row)),
                MouseEventKind::Moved => Some(Action::Hover(column, row)),
                _ => None,
            }
        }
        Event::Resize(width, height) => Some(Action::Resize(*width, *height)),
        Event::Paste(text) if mode == Mode::Prompt => Some(Action::Paste(text.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventState, KeyModifiers};

    use super::*;

    #[test]
    fn only_key_presses_count() {
        let mut release = KeyEvent::new(KeyCode::Char('.'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(action(&Event::Key(release), Mode::Normal), None);
        let repeat = KeyEvent { kind: KeyEventKind::Repeat, state: KeyEventState::NONE, ..release };
        assert_eq!(action(&Event::Key(repeat), Mode::Normal), None);
        let press = KeyEvent::new(KeyCode::Char('.'), KeyModifiers::NONE);
        assert_eq!(action(&Event::Key(press), Mode::Normal), Some(Action::StepForward));
    }

    #[test]
    fn pasted_text_is_only_ever_typed_into_a_prompt() {
        let paste = Event::Paste("q\n.".to_owned());
        assert_eq!(action(&paste, Mode::Normal), None);
        assert_eq!(action(&paste, Mode::Help), None);
        assert_eq!(action(&paste, Mode::Prompt), Some(Action::Paste("q\n.".to_owned())));
    }
}
