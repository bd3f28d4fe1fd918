//! Whatever arrives, in any order: a seeded stream of every kind of event
//! leaves the sandbox whole and drawable.

#[path = "integration/common/mod.rs"]
mod common;

use common::*;

// --- Whatever arrives -----------------------------------------------------

/// A seeded generator of terminal events, so every run feeds the same ones.
struct Rng(SplitMix);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.0.below(n as u64)).unwrap()
    }

    fn pick<T: Clone>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())].clone()
    }

    fn u16(&mut self, most: u16) -> u16 {
        u16::try_from(self.below(usize::from(most) + 1)).unwrap()
    }

    fn char(&mut self) -> char {
        match self.below(10) {
            // The keys the sandbox knows, most of the time. (`w` saves to
            // disk, and is slower: it comes up as any other letter.)
            0..=5 => self.pick(&"q?. ,+=-r12345pcC{}HLKJhjklzZf[]bosuxtiOW0123456789ey".chars().collect::<Vec<_>>()),
            6..=7 => char::from(u8::try_from(self.below(95) + 32).unwrap()),
            // Anything: control characters, accents, emoji; surrogates skipped.
            _ => char::from_u32(u32::try_from(self.below(0x11_0000)).unwrap()).unwrap_or('\u{0}'),
        }
    }
}

const MEDIA: [MediaKeyCode; 13] = [
    MediaKeyCode::Play,
    MediaKeyCode::Pause,
    MediaKeyCode::PlayPause,
    MediaKeyCode::Reverse,
    MediaKeyCode::Stop,
    MediaKeyCode::FastForward,
    MediaKeyCode::Rewind,
    MediaKeyCode::TrackNext,
    MediaKeyCode::TrackPrevious,
    MediaKeyCode::Record,
    MediaKeyCode::LowerVolume,
    MediaKeyCode::RaiseVolume,
    MediaKeyCode::MuteVolume,
];

const MODIFIER_KEYS: [ModifierKeyCode; 14] = [
    ModifierKeyCode::LeftShift,
    ModifierKeyCode::LeftControl,
    ModifierKeyCode::LeftAlt,
    ModifierKeyCode::LeftSuper,
    ModifierKeyCode::LeftHyper,
    ModifierKeyCode::LeftMeta,
    ModifierKeyCode::RightShift,
    ModifierKeyCode::RightControl,
    ModifierKeyCode::RightAlt,
    ModifierKeyCode::RightSuper,
    ModifierKeyCode::RightHyper,
    ModifierKeyCode::RightMeta,
    ModifierKeyCode::IsoLevel3Shift,
    ModifierKeyCode::IsoLevel5Shift,
];

/// Every key code crossterm has, `Char` and `F` with random values.
fn key_code(rng: &mut Rng) -> KeyCode {
    match rng.below(40) {
        0..=24 => KeyCode::Char(rng.char()),
        25 => KeyCode::F(u8::try_from(rng.below(256)).unwrap()),
        26 => KeyCode::Media(rng.pick(&MEDIA)),
        27 => KeyCode::Modifier(rng.pick(&MODIFIER_KEYS)),
        _ => rng.pick(&[
            KeyCode::Backspace,
            KeyCode::Enter,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Delete,
            KeyCode::Insert,
            KeyCode::Null,
            KeyCode::Esc,
            KeyCode::CapsLock,
            KeyCode::ScrollLock,
            KeyCode::NumLock,
            KeyCode::PrintScreen,
            KeyCode::Pause,
            KeyCode::Menu,
            KeyCode::KeypadBegin,
        ]),
    }
}

/// Any event a terminal `size` big may send.
fn event(rng: &mut Rng, (width, height): (u16, u16)) -> Event {
    match rng.below(100) {
        0..=69 => {
            let modifiers = if rng.below(3) == 0 {
                KeyModifiers::from_bits_truncate(u8::try_from(rng.below(256)).unwrap())
            } else {
                KeyModifiers::NONE
            };
            let kind = rng.pick(&[
                KeyEventKind::Press,
                KeyEventKind::Press,
                KeyEventKind::Press,
                KeyEventKind::Repeat,
                KeyEventKind::Release,
            ]);
            let state = KeyEventState::from_bits_truncate(u8::try_from(rng.below(16)).unwrap());
            Event::Key(KeyEvent { code: key_code(rng), modifiers, kind, state })
        }
        70..=89 => {
            let button = rng.pick(&[MouseButton::Left, MouseButton::Left, MouseButton::Right, MouseButton::Middle]);
            let kind = rng.pick(&[
                MouseEventKind::Down(button),
                MouseEventKind::Up(button),
                MouseEventKind::Drag(button),
                MouseEventKind::Drag(button),
                MouseEventKind::Moved,
                MouseEventKind::ScrollDown,
                MouseEventKind::ScrollUp,
                MouseEventKind::ScrollLeft,
                MouseEventKind::ScrollRight,
            ]);
            // Mostly on screen, sometimes anywhere at all.
            let (column, row) = if rng.below(10) == 0 {
                (rng.u16(u16::MAX), rng.u16(u16::MAX))
            } else {
                (rng.u16(width), rng.u16(height))
            };
            let modifiers = KeyModifiers::from_bits_truncate(u8::try_from(rng.below(8)).unwrap());
            Event::Mouse(MouseEvent { kind, column, row, modifiers })
        }
        90..=95 => match rng.below(10) {
            0 => Event::Resize(rng.u16(u16::MAX), rng.u16(u16::MAX)),
            1 => Event::Resize(rng.u16(2), rng.u16(2)),
            _ => Event::Resize(rng.u16(200), rng.u16(70)),
        },
        96..=98 => {
            let length = if rng.below(20) == 0 { 3000 } else { rng.below(40) };
            Event::Paste((0..length).map(|_| rng.char()).collect())
        }
        _ => rng.pick(&[Event::FocusGained, Event::FocusLost]),
    }
}

/// Keys that mean something together, sent now and then among the random
/// ones.
fn phrases() -> Vec<Vec<Event>> {
    let texts = [
        "w",
        "O\n",
        "\t\nx=1.5 vy=-0.25\n",
        "\t\nr=0.5\n",
        "\t\n\n",
        "c...",
        ".....,,",
        "..........\t\nvy=0.5\n",
        "\ngy=-0.03125\n",
        "b....x",
        "qy",
    ];
    let code = |c: char| match c {
        '\n' => KeyCode::Enter,
        '\t' => KeyCode::Tab,
        c => KeyCode::Char(c),
    };
    let mut phrases: Vec<Vec<Event>> = texts
        .iter()
        .map(|text| text.chars().map(|c| Event::Key(KeyEvent::new(code(c), KeyModifiers::NONE))).collect())
        .collect();
    let ctrl = |c: char| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    phrases.push(vec![ctrl('z'), ctrl('z'), ctrl('y')]);
    phrases
}

/// The property: whatever a user sends, in any order (any key crossterm
/// knows, with any modifiers, pressed, repeated or released; the mouse
/// anywhere; resizes to any size; pastes of anything; any file typed at the
/// prompt), the app never panics, after every event it is whole
/// ([`App::check`]), it draws at any size, and stepping one tick forward
/// and back again leaves the world exactly as it was. A session ends when
/// the app says to quit; the next case starts afresh. Seeded, so every run
/// sends the same events; the events also have to reach each part of the
/// sandbox, so that the property is not met by doing nothing.
#[test]

fn any_sequence_of_events_leaves_the_app_whole_and_drawable() {
    const CASES: u64 = 12;
    const EVENTS: usize = 1_500;
    let dir = tempfile::tempdir().unwrap();
    // A file name typed at random is relative to the working directory:
    // that is the temporary one (this binary's only test), never the
    // checkout.
    std::env::set_current_dir(dir.path()).unwrap();
    let fresh = |case: u64| {
        let mut app = App::new(default_scene(), Some(dir.path().join("scene.toml")), ScalarKind::I32F32).unwrap();
        app.set_colors(case.is_multiple_of(2));
        app
    };
    let phrases = phrases();
    let mut drawn = 0;
    // What the events got up to, to show they went somewhere.
    let mut seen = BTreeSet::new();
    for case in 0..CASES {
        let seed = 0x9e0_5eed + case;
        let mut rng = Rng(SplitMix(seed));
        let mut app = fresh(case);
        let mut size = (80, 24);
        let mut pending = Vec::new();
        for i in 0..EVENTS {
            if pending.is_empty() && rng.below(60) == 0 {
                pending = rng.pick(&phrases);
                pending.reverse();
            }
            let event = pending.pop().unwrap_or_else(|| event(&mut rng, size));
            let context = || format!("seed {seed:#x}, event {i} ({event:?})");
            app.handle(&event);
            if let Event::Resize(width, height) = event {
                size = (width, height);
            }
            if let Err(broken) = app.check() {
                panic!("after {}: {broken}", context());
            }
            note_what_it_reached(&app, &mut seen);
            if rng.below(4) == 0 {
                app.advance_within(Duration::from_millis(u64::try_from(rng.below(200)).unwrap()), || false);
            }
            // Draw now and then: at the size the events asked for when it is
            // a reasonable one to allocate, and at any size.
            if i % 20 == 0 && u32::from(size.0) * u32::from(size.1) <= 200 * 70 {
                note_what_it_shows(&lines(&app, size.0, size.1), &mut seen);
                drawn += 1;
            }
            if i % 50 == 25 {
                buffer(&app, rng.u16(200), rng.u16(70));
                drawn += 1;
            }
            // Stepping forward and back again changes nothing.
            if i % 250 == 0 {
                let checksum = app.checksum();
                app.apply(Action::StepForward);
                app.apply(Action::StepBack);
                assert_eq!(app.checksum(), checksum, "after {}", context());
            }
            if app.should_quit() {
                seen.insert("quit".to_owned());
                app = fresh(case);
                size = (80, 24);
            }
        }
    }
    let events = usize::try_from(CASES).unwrap() * EVENTS;
    assert!(drawn > events / 20, "drew {drawn} frames");
    for what in REACHED {
        assert!(seen.contains(what), "the events never reached {what:?}: {seen:?}");
    }
}

/// What the random events must reach between them: states of the app,
/// and the first words of messages.
const REACHED: [&str; 24] = [
    "help",
    "split",
    "quit",
    "tick > 100",
    "more bodies",
    "fewer bodies",
    "selected",
    "later edits",
    "another precision",
    "edit prompt",
    "open prompt",
    "saved",
    "opened",
    "kept",
    "edited",
    "added",
    "deleted",
    "nothing",
    "quit?",
    "open?",
    "stayed",
    "undid",
    "re-ran",
    "back",
];

/// Notes in `seen` the state the app is in and its message's first word.
fn note_what_it_reached(app: &App, seen: &mut BTreeSet<String>) {
    seen.extend(app.message().and_then(|m| m.split([' ', ':', ';']).next()).map(str::to_owned));
    let facts = [
        (app.split().is_some(), "split"),
        (app.tick() > 100, "tick > 100"),
        (app.state().bodies.len() > 8, "more bodies"),
        (app.state().bodies.len() < 8, "fewer bodies"),
        (app.selected().is_some(), "selected"),
        (app.unsaved().is_some_and(|u| u.contains("after tick 0")), "later edits"),
        (app.kind() != ScalarKind::I32F32, "another precision"),
    ];
    seen.extend(facts.into_iter().filter(|(fact, _)| *fact).map(|(_, name)| name.to_owned()));
}

/// Notes in `seen` the help and the prompts, when on `screen`.
fn note_what_it_shows(screen: &[String], seen: &mut BTreeSet<String>) {
    for (words, what) in [(" keys", "help"), ("edit> ", "edit prompt"), ("open scene file", "open prompt")] {
        if screen.iter().any(|l| l.contains(words)) {
            seen.insert(what.to_owned());
        }
    }
}
