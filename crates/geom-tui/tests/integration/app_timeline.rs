//! The sandbox's timeline, driven as a user drives it: playing, stepping,
//! quitting, switching precision and the split view.

use crate::common;

use common::*;

// --- Playing and stepping -------------------------------------------------

#[test]
fn space_plays_and_pauses_and_dot_and_comma_step_one_tick() {
    let mut app = app(ScalarKind::I32F32);
    press(&mut app, KeyCode::Char(' '));
    assert!(app.frame_timeout() < Duration::from_millis(20), "animating while playing");
    app.advance_within(Duration::from_millis(100), || false);
    assert_eq!(app.tick(), 6, "60 ticks a second");
    press(&mut app, KeyCode::Char(' '));
    app.advance_within(Duration::from_millis(100), || false);
    assert_eq!(app.tick(), 6, "paused");
    keys(&mut app, "...");
    assert_eq!(app.tick(), 9);
    press(&mut app, KeyCode::Char(','));
    assert_eq!(app.tick(), 8);
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Char('.'));
    app.advance_within(Duration::from_millis(100), || false);
    assert_eq!(app.tick(), 9, "stepping pauses");
}

#[test]
fn stepping_back_then_forward_reproduces_every_checksum() {
    let mut app = app(ScalarKind::I16F16);
    let mut checksums = vec![app.checksum()];
    for _ in 0..40 {
        app.apply(Action::StepForward);
        checksums.push(app.checksum());
    }
    assert_eq!(checksums, fresh_checksums(ScalarKind::I16F16, 40), "the same as a fresh run");
    for expected in checksums.iter().rev().skip(1) {
        app.apply(Action::StepBack);
        assert_eq!(app.checksum(), *expected, "tick {}", app.tick());
    }
    assert_eq!(app.tick(), 0);
    app.apply(Action::StepBack);
    assert_refused(&app, "nothing earlier");
    assert_eq!((app.tick(), app.checksum()), (0, checksums[0]));
    for expected in &checksums[1..] {
        app.apply(Action::StepForward);
        assert_eq!(app.checksum(), *expected, "tick {}", app.tick());
    }
}

#[test]
fn only_key_presses_count() {
    let mut app = app(ScalarKind::F32);
    let mut release = KeyEvent::new(KeyCode::Char('.'), KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    app.handle(&Event::Key(release));
    let repeat = KeyEvent { kind: KeyEventKind::Repeat, state: KeyEventState::NONE, ..release };
    app.handle(&Event::Key(repeat));
    assert_eq!(app.tick(), 0);
    press(&mut app, KeyCode::Char('.'));
    assert_eq!(app.tick(), 1);
}

#[test]
fn reset_returns_to_tick_zero_and_the_scenes_checksum_with_nothing_to_rewind() {
    let mut app = app(ScalarKind::I48F16);
    let start = app.checksum();
    keys(&mut app, ".....");
    assert_eq!(rewindable(&app), 5);
    press(&mut app, KeyCode::Char('r'));
    assert_done(&app, "tick 0");
    assert_eq!((app.tick(), app.checksum(), rewindable(&app)), (0, start, 0));
    app.apply(Action::StepBack);
    assert_refused(&app, "nothing earlier");
}

#[test]
fn speed_keys_stay_within_the_speeds_offered() {
    let mut app = app(ScalarKind::F32);
    keys(&mut app, &"+".repeat(20));
    let fastest = assert_done(&app, "per second");
    press(&mut app, KeyCode::Char('+'));
    assert_eq!(app.message(), Some(fastest.as_str()), "no faster than the fastest");
    keys(&mut app, &"-".repeat(20));
    let slowest = assert_done(&app, "1 tick per second");
    press(&mut app, KeyCode::Char('-'));
    assert_eq!(app.message(), Some(slowest.as_str()), "no slower than the slowest");
    press(&mut app, KeyCode::Char(' '));
    app.advance_within(Duration::from_millis(999), || false);
    assert_eq!(app.tick(), 0);
    app.advance_within(Duration::from_millis(1), || false);
    assert_eq!(app.tick(), 1, "one tick a second");
}

#[test]
fn playing_runs_ticks_at_the_chosen_pace() {
    let mut app = app(ScalarKind::F32);
    press(&mut app, KeyCode::Char(' '));
    app.advance_within(Duration::from_millis(50), || false);
    assert_eq!(app.tick(), 3);
    press(&mut app, KeyCode::Char('-'));
    assert_done(&app, "30 ticks per second");
    app.advance_within(Duration::from_millis(100), || false);
    assert_eq!(app.tick(), 6);
    app.advance_within(Duration::from_secs(10), || false);
    assert_eq!(app.tick(), 6 + 32, "a long stall runs at most one frame's worth");
}

// --- Quitting and the help ------------------------------------------------

#[test]
fn with_nothing_unsaved_q_esc_and_ctrl_c_quit_at_once_and_esc_first_closes_the_help() {
    let mut a = app(ScalarKind::F32);
    keys(&mut a, "...");
    press(&mut a, KeyCode::Char('?'));
    assert!(lines(&a, 80, 24).iter().any(|l| l.contains(" keys")), "the help is open");
    press(&mut a, KeyCode::Char('.'));
    assert_eq!(a.tick(), 3, "the help takes the keys");
    press(&mut a, KeyCode::Esc);
    assert!(!a.should_quit());
    assert!(lines(&a, 80, 24)[0].contains("tick 3"), "the help is closed");
    press(&mut a, KeyCode::Esc);
    assert!(a.should_quit());

    let mut b = app(ScalarKind::F32);
    keys(&mut b, "?q");
    assert!(b.should_quit(), "q quits from the help");

    let mut c = app(ScalarKind::F32);
    press_with(&mut c, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(c.should_quit());
}

#[test]
fn with_unsaved_edits_quitting_asks_first_and_only_yes_quits() {
    let mut app = app(ScalarKind::F64);
    app.apply(Action::Add(Addition::Ball));
    assert!(app.unsaved().is_some());
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.should_quit());
    let question = assert_refused(&app, "quit?");
    assert!(question.contains("unsaved"), "{question}");
    let before = (app.tick(), app.checksum(), app.setup().clone());
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.should_quit());
    assert_done(&app, "stayed");
    assert_eq!((app.tick(), app.checksum(), app.setup().clone()), before, "staying changes nothing");
    press(&mut app, KeyCode::Char('.'));
    assert_eq!(app.tick(), 1, "the question is gone: keys work again");

    // The ball added is selected: the first Esc deselects it.
    press(&mut app, KeyCode::Esc);
    assert_done(&app, "nothing selected");
    press(&mut app, KeyCode::Esc);
    assert_refused(&app, "quit?");
    press(&mut app, KeyCode::Enter);
    assert!(!app.should_quit(), "Enter is not yes");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('y'));
    assert!(app.should_quit());

    let mut twice = self::app(ScalarKind::F64);
    twice.apply(Action::Add(Addition::Post));
    press_with(&mut twice, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!twice.should_quit());
    press_with(&mut twice, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(twice.should_quit(), "a second ctrl-c means it");
    assert_eq!(twice.check(), Ok(()));
}

#[test]
fn after_saving_the_set_up_only_edits_after_tick_zero_are_unsaved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scene.toml");
    let mut app = App::new(default_scene(), Some(path.clone()), ScalarKind::I32F32).unwrap();
    app.apply(Action::Add(Addition::Ball));
    app.apply(Action::Save);
    assert_done(&app, "saved");
    assert_eq!(app.unsaved(), None);
    app.apply(Action::Quit);
    assert!(app.should_quit(), "nothing is lost");

    let mut app = App::new(default_scene(), Some(path), ScalarKind::I32F32).unwrap();
    apply_n(&mut app, &Action::StepForward, 3);
    select(&mut app, "body 2");
    edit(&mut app, "vy=0.5");
    let unsaved = app.unsaved().expect("an edit at tick 3");
    assert!(unsaved.contains("1 edit after tick 0"), "{unsaved}");
    app.apply(Action::Save);
    let saved = assert_done(&app, "saved");
    assert!(saved.contains("not in it"), "saving says the later edit is not saved: {saved}");
    assert!(app.unsaved().is_some(), "no scene file keeps an edit made after tick 0");
    app.apply(Action::Quit);
    assert!(!app.should_quit());
    app.apply(Action::Confirm);
    assert!(app.should_quit());
}

// --- Precision and the split view -----------------------------------------

#[test]
fn switching_precision_re_runs_the_set_up_to_the_same_tick_and_rewinds_in_the_new_type() {
    let mut app = app(ScalarKind::I32F32);
    keys(&mut app, "..........");
    let i32f32 = app.checksum();
    press(&mut app, KeyCode::Char('2'));
    assert_eq!((app.kind(), app.tick()), (ScalarKind::F64, 10));
    assert_done(&app, "f64");
    let f64s = fresh_checksums(ScalarKind::F64, 13);
    assert_eq!(app.checksum(), f64s[10], "what a fresh f64 run has at tick 10");
    assert_ne!(app.checksum(), i32f32);
    assert_eq!(rewindable(&app), 10, "the history is rebuilt in f64");
    keys(&mut app, "...");
    assert_eq!(app.checksum(), f64s[13]);
    for tick in (0..13).rev() {
        press(&mut app, KeyCode::Char(','));
        assert_eq!((app.tick(), app.kind(), app.checksum()), (tick, ScalarKind::F64, f64s[tick as usize]));
    }
    press(&mut app, KeyCode::Char(','));
    assert_refused(&app, "nothing earlier");

    let before = app.checksum();
    app.apply(Action::Precision(ScalarKind::F64));
    assert_done(&app, "already");
    assert_eq!(app.checksum(), before);
    press(&mut app, KeyCode::Char('p'));
    assert_eq!(app.kind(), ScalarKind::I16F16, "the type after f64");
}

#[test]

fn the_split_view_reports_the_first_tick_past_the_threshold() {
    let mut app = app(ScalarKind::I16F16);
    app.apply(Action::ToggleSplit);
    assert_done(&app, "split view");
    let (split, _) = app.split().expect("the split view is on");
    assert_eq!(split.scalar, Some(ScalarKind::F64), "compared with f64 at first");
    // The same scene run alone in both types (every value of the default
    // scene is exact in both).
    let mut a = self::app(ScalarKind::I16F16);
    let mut b = self::app(ScalarKind::F64);
    let mut gaps = vec![gap(&a.state(), &b.state())];
    for _ in 0..300 {
        app.apply(Action::StepForward);
        a.apply(Action::StepForward);
        b.apply(Action::StepForward);
        gaps.push(gap(&a.state(), &b.state()));
        let (split, checksum) = app.split().unwrap();
        assert_eq!((app.checksum(), checksum), (a.checksum(), b.checksum()), "tick {}", app.tick());
        let (now, _) = *gaps.last().unwrap();
        assert_eq!(gap(&app.state(), &split).0, now, "tick {}", app.tick());
        let shown = gap_now(&app);
        assert!((shown - now).abs() <= 1e-6 * now.max(1.0), "tick {}: gap now {shown}, not {now}", app.tick());
    }
    let mut first = None;
    for exponent in [-2, -3, -4] {
        let threshold: f64 = format!("1e{exponent}").parse().unwrap();
        let expected = gaps.iter().position(|&(g, _)| g > threshold);
        let said = divergence(&app);
        match expected {
            Some(tick) => {
                let words = format!("first > 1e{exponent} at tick {tick} (body {})", gaps[tick].1);
                assert!(said.starts_with(&words), "{said:?} should say {words:?}");
                first = Some(tick);
            }
            None => assert!(said.starts_with(&format!("none > 1e{exponent} yet")), "{said}"),
        }
        app.apply(Action::Threshold(false));
        assert_done(&app, &format!("1e{}", exponent - 1));
    }
    app.apply(Action::Threshold(true));
    let first = first.expect("I16F16 and f64 differ by more than 1e-4 within 300 ticks") as u64;
    assert!(divergence(&app).starts_with("first > 1e-4"));
    // Rewinding forgets what happens after; stepping again finds it again.
    while app.tick() >= first {
        app.apply(Action::StepBack);
    }
    assert!(divergence(&app).starts_with("none > 1e-4 yet"), "{}", divergence(&app));
    app.apply(Action::StepForward);
    assert!(divergence(&app).starts_with(&format!("first > 1e-4 at tick {first}")), "{}", divergence(&app));
}

#[test]
fn the_split_view_re_runs_from_the_set_up_so_every_tick_has_it_until_it_is_turned_off() {
    let mut app = app(ScalarKind::I16F16);
    let f64s = fresh_checksums(ScalarKind::F64, 103);
    let own = fresh_checksums(ScalarKind::I16F16, 103);
    apply_n(&mut app, &Action::StepForward, 3);
    press(&mut app, KeyCode::Char('c'));
    assert_done(&app, "tick 3");
    assert_eq!(app.split().map(|(_, c)| c), Some(f64s[3]), "re-run from the set-up, not converted");
    assert_eq!(rewindable(&app), 3);
    apply_n(&mut app, &Action::StepForward, 100);
    // Every tick before the split view was turned on has it too.
    for tick in (0..=103).rev() {
        assert_eq!(app.tick(), tick);
        assert_eq!(app.split().map(|(_, c)| c), Some(f64s[tick as usize]), "tick {tick}");
        assert_eq!(app.checksum(), own[tick as usize], "the world itself is unchanged");
        app.apply(Action::StepBack);
    }
    assert_refused(&app, "nothing earlier");
    apply_n(&mut app, &Action::StepForward, 103);
    press(&mut app, KeyCode::Char('c'));
    assert_done(&app, "off");
    assert!(app.split().is_none());
    assert_eq!(rewindable(&app), 103, "turning it off keeps the history");
    for tick in (0..103).rev() {
        app.apply(Action::StepBack);
        assert_eq!((app.tick(), app.split().is_none()), (tick, true), "no tick keeps the split view");
        assert_eq!(app.checksum(), own[tick as usize]);
    }
    app.apply(Action::StepForward);
    assert!(app.split().is_none());
}

#[test]

fn the_comparison_never_is_the_worlds_own_type_and_changing_it_re_runs_the_split() {
    for kind in ScalarKind::ALL {
        let mut app = stepped(app(kind), 5);
        app.apply(Action::ToggleSplit);
        let mut compared = BTreeSet::new();
        for _ in 0..8 {
            press(&mut app, KeyCode::Char('C'));
            assert_done(&app, "split view");
            let (split, checksum) = app.split().unwrap();
            let compare = split.scalar.unwrap();
            assert_ne!(compare, kind, "the world compared with itself");
            assert_eq!(checksum, fresh_checksums(compare, 5)[5], "{kind} against {compare}");
            assert_eq!(rewindable(&app), 5);
            compared.insert(compare);
        }
        assert_eq!(compared.len(), 4, "{kind}: every other type in turn");
        assert_eq!(app.check(), Ok(()));
    }
    // Switched into the type it compared with, the world compares with
    // the type it left.
    let mut app = app(ScalarKind::I16F16);
    app.apply(Action::ToggleSplit);
    app.apply(Action::Precision(ScalarKind::F64));
    assert_eq!(app.split().and_then(|(s, _)| s.scalar), Some(ScalarKind::I16F16));
    // With the split view off, the next comparison is for when it is on.
    let mut app = self::app(ScalarKind::F32);
    app.apply(Action::NextCompare);
    let said = assert_done(&app, "compare");
    assert!(app.split().is_none());
    app.apply(Action::ToggleSplit);
    let compare = app.split().and_then(|(s, _)| s.scalar).unwrap();
    assert!(said.contains(&compare.to_string()), "{said} vs {compare}");
    assert_ne!(compare, ScalarKind::F32);
}

#[test]
fn edits_in_the_split_view_change_only_the_named_values_in_each_world() {
    let mut app = app(ScalarKind::I16F16);
    app.apply(Action::ToggleSplit);
    apply_n(&mut app, &Action::StepForward, 200);
    // A body whose two positions have drifted apart.
    let (split, _) = app.split().unwrap();
    let state = app.state();
    let index = (0..state.bodies.len())
        .find(|&i| state.bodies[i].position != split.bodies[i].position)
        .expect("some body differs between I16F16 and f64 after 200 ticks");
    select(&mut app, &format!("body {index}"));
    edit(&mut app, "vy=0.5");
    assert_done(&app, "at tick 200");
    let (after, _) = app.split().unwrap();
    let (twin, twin_before) = (after.bodies[index], split.bodies[index]);
    assert_eq!(twin.velocity.y, 0.5);
    assert_eq!(
        (twin.position, twin.velocity.x, twin.radius),
        (twin_before.position, twin_before.velocity.x, twin_before.radius)
    );
    let body = app.state().bodies[index];
    assert_eq!(body.velocity.y, 0.5);
    assert_eq!(body.position, state.bodies[index].position, "each world keeps its own position");
    let before = (app.checksum(), app.split().unwrap().1);
    edit(&mut app, "");
    assert_done(&app, "nothing to change");
    assert_eq!((app.checksum(), app.split().unwrap().1), before, "an empty edit changes nothing");
}

#[test]
fn edits_at_tick_zero_apply_to_both_halves_of_the_split_view() {
    let mut app = app(ScalarKind::I16F16);
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Tab);
    edit(&mut app, "x=2.5");
    assert_eq!(app.selected().as_deref(), Some("body 0"));
    assert_eq!(app.split().unwrap().0.bodies[0].position.x, 2.5);
    assert_eq!(app.state().bodies[0].position.x, 2.5);
    assert_eq!(app.setup().bodies[0].position.x, 2.5);
}

/// An edit made with the split view off, which the compared type cannot
/// hold, must not change the world shown when the split view is on: the
/// world runs as `run` runs it, and the split view ends, saying why.
#[test]
fn an_edit_the_compared_type_cannot_hold_ends_the_split_view_and_leaves_the_world_as_run_runs_it() {
    let edited = |split: bool| {
        let mut app = app(ScalarKind::F64);
        keys(&mut app, ".....");
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x=5000");
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "r");
        if split {
            keys(&mut app, "Cc"); // compare with I16F16, whose range ends at 4096
            assert_eq!(app.split().map(|(scene, _)| scene.scalar), Some(Some(ScalarKind::I16F16)));
        }
        keys(&mut app, ".....");
        app
    };
    let (alone, split) = (edited(false), edited(true));
    assert_eq!(split.checksum(), alone.checksum());
    assert_eq!(split.state().bodies[0].position.x, 5000.0);
    assert!(split.split().is_none());
    assert_eq!(split.message(), Some("split view off: the edit made at tick 5 does not fit I16F16"));
    assert_eq!(split.check(), Ok(()));
    // Turning it on again at tick 5 is refused: the edit cannot be compared.
    let mut split = split;
    keys(&mut split, "c");
    assert!(split.message().unwrap().contains("does not fit I16F16"), "{:?}", split.message());
    assert_eq!(split.checksum(), alone.checksum());
}
