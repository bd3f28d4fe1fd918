//! The keys: what each one does in each mode, as an [`Action`], and the
//! table the help overlay and the README list.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::num::ScalarKind;

/// Every key, as the help overlay and the README list them.
pub const KEYS: &[(&str, &str)] = &[
    ("space", "play / pause"),
    (". ,", "step one tick forward / back"),
    ("+ -", "run faster / slower"),
    ("r ctrl-z ctrl-y", "tick 0 of the set-up (edits kept) / undo / redo"),
    ("1-5 p", "precision: f32 f64 I16F16 I32F32 I48F16 / next"),
    ("c C", "split view on/off / compare with next type"),
    ("{ }", "divergence threshold ÷10 / ×10"),
    ("Tab S-Tab", "select next / previous, then none (or click)"),
    ("←↓↑→ hjkl", "move selection (drag with the mouse)"),
    ("S-arrows HJKL", "pan (or drag empty space)"),
    ("z Z f", "zoom in / out (or wheel) / fit"),
    ("[ ]", "radius smaller / larger"),
    ("Enter", "type values: x=1 vy=-0.5 … (nothing selected: world)"),
    ("b o s u", "add ball / circle / segment / capsule"),
    ("x Del", "delete selection"),
    ("t i", "inspect the next nearest shape / inspector on, off"),
    ("w W O", "save the set-up / save this tick as… / open"),
    ("P I", "play a character: ←→ walk ↑ jump / save its moves"),
    ("?", "this help (↑↓ scroll)"),
    ("q Esc", "quit, asking first if unsaved (Esc deselects first)"),
];

/// What something a user did asks for. The terminal's keys and mouse are
/// turned into these by the sandbox; a test or a script can
/// [`apply`](crate::App::apply) them directly.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Action {
    /// Quits, or asks first when there are unsaved edits.
    Quit,
    /// Esc in the sandbox: deselects, or with nothing selected quits (as
    /// [`Quit`](Self::Quit) does).
    Escape,
    /// Says yes to the question asked (quit without saving).
    Confirm,
    /// Closes the prompt, the help or the question, or clears the message.
    Cancel,
    /// Opens or closes the help.
    Help,
    /// Scrolls the help by this many lines.
    Scroll(i16),
    /// Plays or pauses.
    TogglePlay,
    /// One tick forward.
    StepForward,
    /// One tick back.
    StepBack,
    /// Runs faster (`true`) or slower.
    Speed(bool),
    /// Back to the set-up's tick 0.
    Reset,
    /// Takes back the last edit.
    Undo,
    /// Makes the last edit taken back again.
    Redo,
    /// Runs in this precision, re-running from the set-up.
    Precision(ScalarKind),
    /// Runs in the next precision.
    NextPrecision,
    /// Turns the split view on or off.
    ToggleSplit,
    /// Compares with the next precision.
    NextCompare,
    /// Multiplies the divergence threshold by ten (`true`) or a tenth.
    Threshold(bool),
    /// Selects the next (`true`) or previous body or collider.
    Select(bool),
    /// Moves the selection by grid steps (or pans, with nothing selected).
    Nudge(i8, i8),
    /// Pans the view by cells.
    Pan(i8, i8),
    /// Zooms in (`true`) or out about the middle of the view.
    Zoom(bool),
    /// Fits the scene into the view.
    Fit,
    /// Grows (`true`) or shrinks the selection's radius.
    Radius(bool),
    /// Opens the prompt to type values of the selection, or of the world.
    EditPrompt,
    /// Adds a body or a collider.
    Add(Addition),
    /// Deletes the selection.
    Delete,
    /// Inspects against the next nearest shape.
    NextTarget,
    /// Shows or hides the inspector.
    ToggleInspector,
    /// Saves the set-up to the scene's file.
    Save,
    /// Opens the prompt to save the current tick's state to a file.
    SaveStatePrompt,
    /// Opens the prompt for a scene file to open.
    OpenPrompt,
    /// Types a character into the prompt.
    Type(char),
    /// Moves the prompt's cursor or deletes (Backspace is
    /// `Line(LineEdit::Backspace)`).
    Line(LineEdit),
    /// Completes the file name in the prompt.
    Complete,
    /// Submits the prompt.
    Submit,
    /// Pastes text into the prompt.
    Paste(String),
    /// Presses the left button on this cell.
    Click(u16, u16),
    /// Drags to this cell.
    DragTo(u16, u16),
    /// Releases the button.
    Release,
    /// Turns the wheel at this cell: up (`true`) zooms in.
    Wheel(bool, u16, u16),
    /// The pointer is over this cell.
    Hover(u16, u16),
    /// The terminal is now this wide and high.
    Resize(u16, u16),
    /// Turns play mode on for the selected character, or off.
    ToggleCharacter,
    /// Play mode: walk this way from now on (−1 left, 0 stop, 1 right).
    Walk(i8),
    /// Play mode: jump at the next tick on the ground.
    Jump,
    /// Opens the prompt to save the moves played as an inputs file.
    SaveInputsPrompt,
}

/// What [`Action::Add`] adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addition {
    /// A moving ball.
    Ball,
    /// A static circle.
    Post,
    /// A static segment.
    Segment,
    /// A static capsule.
    Capsule,
}

/// A movement of the prompt's cursor, or a deletion, as a shell's line
/// editor has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEdit {
    /// One character left (Left, ctrl-b).
    Left,
    /// One character right (Right, ctrl-f).
    Right,
    /// To the start (Home, ctrl-a).
    Home,
    /// To the end (End, ctrl-e).
    End,
    /// To the start of the word before (ctrl-Left, alt-b).
    WordLeft,
    /// To the end of the word after (ctrl-Right, alt-f).
    WordRight,
    /// Deletes the character before the cursor (Backspace, ctrl-h).
    Backspace,
    /// Deletes the character under the cursor (Delete, ctrl-d).
    Delete,
    /// Deletes everything before the cursor (ctrl-u).
    DeleteToStart,
    /// Deletes everything from the cursor on (ctrl-k).
    DeleteToEnd,
    /// Deletes the word before the cursor (ctrl-w, alt-Backspace, ctrl-Backspace).
    DeleteWord,
}

/// What the keys are for at the moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The sandbox itself.
    Normal,
    /// A prompt takes the keys.
    Prompt,
    /// The help is open.
    Help,
    /// A yes-or-no question is asked.
    Confirm,
    /// Play mode: the arrow keys and `a w s d` drive a character; every
    /// other key does what it does in the sandbox.
    Play,
}

/// The action a key press asks for in `mode`, if any.
pub(crate) fn action(mode: Mode, key: KeyEvent) -> Option<Action> {
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    if control {
        return match key.code {
            // In the quit question, a second ctrl-c means it (App::quit).
            KeyCode::Char('c') => Some(Action::Quit),
            _ if mode == Mode::Prompt => prompt_control(key.code).map(Action::Line),
            KeyCode::Char('z') if mode == Mode::Normal => Some(Action::Undo),
            KeyCode::Char('y') if mode == Mode::Normal => Some(Action::Redo),
            _ => None,
        };
    }
    match mode {
        Mode::Normal => normal(key),
        Mode::Play => match key.code {
            KeyCode::Left | KeyCode::Char('a') => Some(Action::Walk(-1)),
            KeyCode::Right | KeyCode::Char('d') => Some(Action::Walk(1)),
            KeyCode::Down | KeyCode::Char('s') => Some(Action::Walk(0)),
            KeyCode::Up | KeyCode::Char('w') => Some(Action::Jump),
            KeyCode::Esc => Some(Action::ToggleCharacter),
            _ => normal(key),
        },
        Mode::Prompt => match key.code {
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Enter => Some(Action::Submit),
            KeyCode::Tab => Some(Action::Complete),
            KeyCode::Char('b') if alt => Some(Action::Line(LineEdit::WordLeft)),
            KeyCode::Char('f') if alt => Some(Action::Line(LineEdit::WordRight)),
            KeyCode::Backspace if alt => Some(Action::Line(LineEdit::DeleteWord)),
            KeyCode::Char(c) => Some(Action::Type(c)),
            KeyCode::Backspace => Some(Action::Line(LineEdit::Backspace)),
            KeyCode::Delete => Some(Action::Line(LineEdit::Delete)),
            KeyCode::Left => Some(Action::Line(LineEdit::Left)),
            KeyCode::Right => Some(Action::Line(LineEdit::Right)),
            KeyCode::Home => Some(Action::Line(LineEdit::Home)),
            KeyCode::End => Some(Action::Line(LineEdit::End)),
            _ => None,
        },
        Mode::Help => match key.code {
            KeyCode::Esc | KeyCode::Char('?') => Some(Action::Help),
            KeyCode::Char('q') => Some(Action::Quit),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::Scroll(1)),
            KeyCode::Up | KeyCode::Char('k') => Some(Action::Scroll(-1)),
            KeyCode::PageDown | KeyCode::Char(' ') => Some(Action::Scroll(10)),
            KeyCode::PageUp => Some(Action::Scroll(-10)),
            _ => None,
        },
        Mode::Confirm => match key.code {
            KeyCode::Char('y' | 'Y') => Some(Action::Confirm),
            _ => Some(Action::Cancel),
        },
    }
}

/// A control key's line edit in a prompt, as a shell has them.
fn prompt_control(code: KeyCode) -> Option<LineEdit> {
    Some(match code {
        KeyCode::Char('a') => LineEdit::Home,
        KeyCode::Char('e') => LineEdit::End,
        KeyCode::Char('b') => LineEdit::Left,
        KeyCode::Char('f') => LineEdit::Right,
        KeyCode::Char('h') => LineEdit::Backspace,
        KeyCode::Char('d') => LineEdit::Delete,
        KeyCode::Char('u') => LineEdit::DeleteToStart,
        KeyCode::Char('k') => LineEdit::DeleteToEnd,
        KeyCode::Char('w') | KeyCode::Backspace => LineEdit::DeleteWord,
        KeyCode::Left => LineEdit::WordLeft,
        KeyCode::Right => LineEdit::WordRight,
        _ => return None,
    })
}

fn normal(key: KeyEvent) -> Option<Action> {
    use Action as A;
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    Some(match key.code {
        KeyCode::Char('q') => A::Quit,
        KeyCode::Esc => A::Escape,
        KeyCode::Char('?') => A::Help,
        KeyCode::Char(' ') => A::TogglePlay,
        KeyCode::Char('.') => A::StepForward,
        KeyCode::Char(',') => A::StepBack,
        KeyCode::Char('+' | '=') => A::Speed(true),
        KeyCode::Char('-') => A::Speed(false),
        KeyCode::Char('r') => A::Reset,
        KeyCode::Char(c @ '1'..='5') => A::Precision(ScalarKind::ALL[usize::from(c as u8 - b'1')]),
        KeyCode::Char('p') => A::NextPrecision,
        KeyCode::Char('c') => A::ToggleSplit,
        KeyCode::Char('C') => A::NextCompare,
        KeyCode::Char('{') => A::Threshold(false),
        KeyCode::Char('}') => A::Threshold(true),
        KeyCode::Tab => A::Select(true),
        KeyCode::BackTab => A::Select(false),
        KeyCode::Left if shift => A::Pan(-4, 0),
        KeyCode::Right if shift => A::Pan(4, 0),
        KeyCode::Up if shift => A::Pan(0, 2),
        KeyCode::Down if shift => A::Pan(0, -2),
        KeyCode::Char('H') => A::Pan(-4, 0),
        KeyCode::Char('L') => A::Pan(4, 0),
        KeyCode::Char('K') => A::Pan(0, 2),
        KeyCode::Char('J') => A::Pan(0, -2),
        KeyCode::Left | KeyCode::Char('h') => A::Nudge(-1, 0),
        KeyCode::Right | KeyCode::Char('l') => A::Nudge(1, 0),
        KeyCode::Up | KeyCode::Char('k') => A::Nudge(0, 1),
        KeyCode::Down | KeyCode::Char('j') => A::Nudge(0, -1),
        KeyCode::Char('z') => A::Zoom(true),
        KeyCode::Char('Z') => A::Zoom(false),
        KeyCode::Char('f') => A::Fit,
        KeyCode::Char('[') => A::Radius(false),
        KeyCode::Char(']') => A::Radius(true),
        KeyCode::Enter => A::EditPrompt,
        KeyCode::Char('b') => A::Add(Addition::Ball),
        KeyCode::Char('o') => A::Add(Addition::Post),
        KeyCode::Char('s') => A::Add(Addition::Segment),
        KeyCode::Char('u') => A::Add(Addition::Capsule),
        KeyCode::Char('x') | KeyCode::Delete => A::Delete,
        KeyCode::Char('t') => A::NextTarget,
        KeyCode::Char('i') => A::ToggleInspector,
        KeyCode::Char('w') => A::Save,
        KeyCode::Char('W') => A::SaveStatePrompt,
        KeyCode::Char('O') => A::OpenPrompt,
        KeyCode::Char('P') => A::ToggleCharacter,
        KeyCode::Char('I') => A::SaveInputsPrompt,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn esc_never_quits_while_a_prompt_the_help_or_a_question_is_open() {
        assert_eq!(action(Mode::Normal, key(KeyCode::Esc)), Some(Action::Escape));
        for mode in [Mode::Prompt, Mode::Help, Mode::Confirm] {
            let action = action(mode, key(KeyCode::Esc));
            assert!(matches!(action, Some(Action::Cancel | Action::Help)), "{mode:?}: {action:?}");
        }
    }

    #[test]
    fn a_question_is_answered_yes_only_by_y_and_ctrl_c_always_asks_to_quit() {
        assert_eq!(action(Mode::Confirm, key(KeyCode::Char('y'))), Some(Action::Confirm));
        assert_eq!(action(Mode::Confirm, key(KeyCode::Char('q'))), Some(Action::Cancel));
        assert_eq!(action(Mode::Confirm, key(KeyCode::Enter)), Some(Action::Cancel));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action(Mode::Confirm, ctrl_c), Some(Action::Quit));
        assert_eq!(action(Mode::Normal, ctrl_c), Some(Action::Quit));
    }

    #[test]
    fn every_key_the_table_lists_does_something() {
        let single = |c: char| action(Mode::Normal, key(KeyCode::Char(c)));
        for (keys, what) in KEYS {
            for word in keys.split_whitespace() {
                let mut chars = word.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    assert!(single(c).is_some(), "`{c}` ({what}) does nothing");
                }
            }
        }
    }
}
