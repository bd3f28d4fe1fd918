//! Running the sandbox in a real terminal: raw mode, the alternate screen,
//! mouse capture and bracketed paste on the way in, all of it undone on the
//! way out, whether the sandbox quits, fails or panics.

use std::io::{self, Stdout, stdout};
use std::sync::Once;
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};

use crate::App;
use crate::net::Lab;

/// What runs in the terminal: the sandbox or the netcode lab.
pub trait Screen {
    /// Takes the terminal's size at the start, before the first frame.
    fn start(&mut self, width: u16, height: u16);
    /// Draws a frame.
    fn draw(&self, frame: &mut ratatui::Frame<'_>);
    /// Handles a key press, a mouse event, a paste or a resize.
    fn handle(&mut self, event: &event::Event);
    /// Runs what is due after `elapsed` of real time.
    fn advance(&mut self, elapsed: std::time::Duration);
    /// How long to wait for input before the next frame.
    fn frame_timeout(&self) -> std::time::Duration;
    /// Whether the user asked to quit.
    fn should_quit(&self) -> bool;
}

impl Screen for App {
    fn start(&mut self, width: u16, height: u16) {
        App::handle(self, &event::Event::Resize(width, height));
        self.fit();
    }

    fn draw(&self, frame: &mut ratatui::Frame<'_>) {
        crate::ui::draw(frame, self);
    }

    fn handle(&mut self, event: &event::Event) {
        App::handle(self, event);
    }

    fn advance(&mut self, elapsed: std::time::Duration) {
        App::advance(self, elapsed);
    }

    fn frame_timeout(&self) -> std::time::Duration {
        App::frame_timeout(self)
    }

    fn should_quit(&self) -> bool {
        App::should_quit(self)
    }
}

impl Screen for Lab {
    fn start(&mut self, width: u16, height: u16) {
        Lab::handle(self, &event::Event::Resize(width, height));
    }

    fn draw(&self, frame: &mut ratatui::Frame<'_>) {
        crate::ui::lab::draw(frame, self);
    }

    fn handle(&mut self, event: &event::Event) {
        Lab::handle(self, event);
    }

    fn advance(&mut self, elapsed: std::time::Duration) {
        Lab::advance(self, elapsed);
    }

    fn frame_timeout(&self) -> std::time::Duration {
        Lab::frame_timeout(self)
    }

    fn should_quit(&self) -> bool {
        Lab::should_quit(self)
    }
}

/// Puts the terminal back as it was. Safe to call more than once.
fn restore() -> io::Result<()> {
    let raw = disable_raw_mode();
    let screen = execute!(
        stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    raw.and(screen)
}

/// The terminal in sandbox mode; dropping it restores the terminal.
struct Session {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    fn start() -> io::Result<Self> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                // The terminal first, so the panic message is readable.
                let _ = restore();
                previous(info);
            }));
        });
        enable_raw_mode()?;
        // Bracketed paste: pasted text arrives as one event, so a paste
        // with line breaks or letters in it is never taken as keys.
        let session = execute!(stdout(), EnterAlternateScreen, EnableMouseCapture, EnableBracketedPaste)
            .and_then(|()| Terminal::new(CrosstermBackend::new(stdout())));
        match session {
            Ok(terminal) => Ok(Self { terminal }),
            Err(e) => {
                let _ = restore();
                Err(e)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Err(e) = restore() {
            eprintln!("geom-tui: could not restore the terminal: {e}");
        }
    }
}

/// Runs the sandbox (or the netcode lab) until the user quits: draws a
/// frame, waits for input (briefly while playing), handles it, runs what
/// is due.
///
/// # Errors
///
/// The terminal could not be set up, read or written; it is restored
/// first.
///
/// # Examples
///
/// ```no_run
/// use geom_tui::{App, ScalarKind};
/// use geom_tui::scene::{Scene, DEFAULT_SCENE};
///
/// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
/// geom_tui::terminal::run(&mut app)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(app: &mut impl Screen) -> io::Result<()> {
    let mut session = Session::start()?;
    let size = session.terminal.size()?;
    app.start(size.width, size.height);
    let mut last = Instant::now();
    while !app.should_quit() {
        session.terminal.draw(|frame| app.draw(frame))?;
        if event::poll(app.frame_timeout())? {
            app.handle(&event::read()?);
            // Handle everything already waiting before drawing again.
            while !app.should_quit() && event::poll(std::time::Duration::ZERO)? {
                app.handle(&event::read()?);
            }
        }
        let now = Instant::now();
        app.advance(now - last);
        last = now;
    }
    Ok(())
}
