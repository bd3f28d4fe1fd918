//! Drawing the netcode lab: the status bar (the network), a panel per peer
//! (its world, its frames, rollbacks and checksum), the desync line and
//! the keys. Reads the [`Lab`], changes nothing.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::{Theme, canvas, draw_key_box, significant};
use crate::app::wrap;
use crate::layout::Camera;
use crate::net::count;
use crate::net::lab::PeerView;
use crate::net::{Control, LAB_KEYS, Lab};
use crate::sim::shapes_bounds;

/// The narrowest terminal the lab draws in: two panels whose lines of
/// figures fit unwrapped.
pub const LAB_MIN_WIDTH: u16 = 80;
/// The shortest terminal the lab draws in: the status, the footer, and
/// panels with their figures and a few rows of world.
pub const LAB_MIN_HEIGHT: u16 = 16;

/// The lines under each peer's world: four, and the desync's (two where
/// a narrow panel wraps it).
const STAT_ROWS: u16 = 6;

/// The bottom line, where it fits (a short one where it does not).
const KEYS_HINT: &str =
    "wasd arrows: move · 1 2: bot · l j p r: network · i: delay · x: desync · n: new · ? keys · q quit";

/// Over UDP, where the network's conditions are not keys.
const UDP_KEYS_HINT: &str = "wasd arrows: move · 1 2: bot · i: delay · x: desync · n: new · ? keys · q quit";

/// A peer that has waited this many frames in a row (a second) for the
/// other's inputs is named on the bottom line.
const WAIT_NOTED: u32 = 60;

/// The lines at the bottom: two for the verdict or a message, one for
/// the keys.
const FOOTER_ROWS: u16 = 3;

/// Draws the lab.
///
/// # Examples
///
/// ```
/// use geom_tui::net::{Conditions, Lab};
/// use geom_tui::scene::{DEFAULT_SCENE, Scene};
/// use ratatui::{backend::TestBackend, Terminal};
///
/// let lab = Lab::new(Scene::parse(DEFAULT_SCENE)?, geom_tui::ScalarKind::I16F16, Conditions::default(), 0)?;
/// let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
/// terminal.draw(|frame| geom_tui::ui::lab::draw(frame, &lab)).unwrap();
/// let top: String = (0..100).map(|x| terminal.backend().buffer()[(x, 0)].symbol()).collect();
/// assert!(top.starts_with(" ▶ I16F16 │ input delay 0 │ latency 0±0 ms"), "{top}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn draw(frame: &mut Frame<'_>, lab: &Lab) {
    let area = frame.area();
    let theme = Theme { colors: lab.view.colors };
    if area.width < LAB_MIN_WIDTH || area.height < LAB_MIN_HEIGHT {
        let text = format!(
            "terminal too small: {}×{}, the lab needs {LAB_MIN_WIDTH}×{LAB_MIN_HEIGHT} · q quits",
            area.width, area.height
        );
        let lines: Vec<Line<'_>> = wrap(&text, usize::from(area.width.max(1))).into_iter().map(Line::from).collect();
        return frame.render_widget(Paragraph::new(lines), area);
    }
    let [status, middle, footer] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(FOOTER_ROWS)]).areas(area);
    draw_status(frame, status, lab);
    let peers = lab.peers();
    let columns = Layout::horizontal(vec![Constraint::Fill(1); peers.len()]).split(middle);
    // One camera for both, fitting both worlds: the panels compare.
    let worlds: Vec<_> = peers.iter().map(|p| p.world).collect();
    for (peer, &column) in peers.iter().zip(columns.iter()) {
        draw_peer(frame, column, lab, peer, &worlds, theme);
    }
    draw_footer(frame, footer, lab, &peers, theme);
    if lab.view.help {
        draw_help(frame, area, lab.view.help_top, theme);
    }
}

fn draw_status(frame: &mut Frame<'_>, area: Rect, lab: &Lab) {
    let state = if lab.failure.is_some() {
        "■"
    } else if lab.paused {
        "⏸"
    } else {
        "▶"
    };
    // Parts left out, least needed first, until the line fits: the name,
    // then the packet counts.
    let head = format!(" {state} {} │ input delay {}", lab.kind(), lab.delay);
    let (network, traffic) = if let Some(e) = lab.endpoint() {
        (format!("UDP port {} ↔ {}", e.local_port, e.remote), String::new())
    } else {
        let c = lab.conditions;
        let traffic = lab.traffic().map(|(sent, lost)| format!(" │ {sent} sent, {lost} lost")).unwrap_or_default();
        let network = format!(
            "latency {}±{} ms · loss {}% · reorder {}%",
            c.latency_ms, c.jitter_ms, c.loss_percent, c.reorder_percent
        );
        (network, traffic)
    };
    let lines = [
        format!("{head} │ {network}{traffic} │ netcode lab"),
        format!("{head} │ {network}{traffic}"),
        format!("{head} │ {network}"),
    ];
    let width = usize::from(area.width);
    let text = lines.iter().find(|l| l.chars().count() <= width).unwrap_or(&lines[2]);
    frame.render_widget(Paragraph::new(text.as_str()).style(Style::new().add_modifier(Modifier::REVERSED)), area);
}

/// Who drives a player, as a panel's title says it.
fn control(lab: &Lab, handle: usize) -> &'static str {
    match (lab.controls[handle], lab.endpoint().is_some(), handle) {
        (Control::Keys, true, _) => "keys w a s d or arrows",
        (Control::Keys, false, 0) => "keys w a s d",
        (Control::Keys, false, _) => "arrow keys",
        (Control::Bot, ..) => "bot",
        (Control::Remote, ..) => "the other process",
    }
}

fn draw_peer(
    frame: &mut Frame<'_>,
    area: Rect,
    lab: &Lab,
    peer: &PeerView<'_>,
    worlds: &[&dyn crate::sim::Sim],
    theme: Theme,
) {
    let n = peer.handle + 1;
    let who = if lab.endpoint().is_some() { "this peer".to_owned() } else { format!("peer {n}") };
    let title = format!(" {who} · player {n}: {} ", control(lab, peer.handle));
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [world, stats] = Layout::vertical([Constraint::Min(1), Constraint::Length(STAT_ROWS)]).areas(inner);
    let camera = Camera::fitting(shapes_bounds(worlds), world);
    canvas::draw_world(frame, world, &camera, peer.world, peer.players, theme);
    let mut lines = Vec::new();
    if peer.running {
        let ping = peer.ping_ms.map_or_else(|| "ping …".to_owned(), |p| format!("ping {p} ms"));
        lines.extend(
            [
                format!("frame {} · confirmed {}", peer.frame, peer.confirmed),
                format!(
                    "{} predicted · {} · {}",
                    peer.frame - peer.confirmed,
                    count(peer.rollbacks, "rollback"),
                    count(peer.stalls, "wait")
                ),
                format!("re-simulated {} ticks/s · {ping}", peer.resimulated_per_second),
            ]
            .map(Line::from),
        );
        if let Some((at, checksum)) = peer.compared {
            lines.push(Line::from(format!("checksum of {at}: {checksum:016x}")));
        }
    } else {
        lines.push(Line::from("synchronising with the other peer…"));
    }
    if let Some(d) = peer.desync {
        lines.push(Line::from(Span::styled(
            format!("DESYNC {}: {:016x} ≠ {:016x}", d.frame, d.local, d.remote),
            theme.error(),
        )));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), stats);
}

/// The bottom lines: what stopped the game, the desync and where the
/// worlds first differ, a peer that waits, the last message, or that all
/// is well; then the keys.
fn draw_footer(frame: &mut Frame<'_>, area: Rect, lab: &Lab, peers: &[PeerView<'_>], theme: Theme) {
    let udp = lab.endpoint();
    let detected: Vec<String> =
        peers.iter().filter_map(|p| p.desync.map(|d| format!("{} (peer {})", d.frame, p.handle + 1))).collect();
    let waiting = peers.iter().find(|p| p.waiting >= WAIT_NOTED);
    let (text, style) = if let Some(failure) = &lab.failure {
        (failure.clone(), theme.error())
    } else if !detected.is_empty() {
        let differ = match lab.divergence {
            Some(d) => {
                // The nudge that made the difference: the last before the
                // first frame saved with it.
                let forced = lab
                    .nudges
                    .iter()
                    .rev()
                    .find(|&&f| i64::from(f) < i64::try_from(d.tick).unwrap_or(i64::MAX))
                    .map(|f| format!(", nudged at {f}"))
                    .unwrap_or_default();
                let body = d.body.map(|b| format!("body {}, ", b.index())).unwrap_or_default();
                format!("; the worlds first differ at frame {}{forced}: {body}{} apart", d.tick, significant(d.gap))
            }
            None if udp.is_some() => "; the other world is in the other process".to_owned(),
            None => String::new(),
        };
        (format!("desync caught at frame {}{differ}", detected.join(", ")), theme.error())
    } else if let Some(e) = udp.filter(|_| peers.iter().any(|p| !p.running)) {
        let text = format!(
            "waiting for the peer at {}: start it with geom-tui net --local {} --remote <this machine>:{}, or \
             press n there if it still plays the game before",
            e.remote,
            e.remote.port(),
            e.local_port
        );
        (text, theme.fg(Color::Gray))
    } else if let Some(peer) = waiting {
        let secs = peer.waiting / 60;
        let text = format!(
            "peer {} has waited {secs} s for the other's inputs: none get through (packet loss {}%?)",
            peer.handle + 1,
            lab.conditions.loss_percent
        );
        (text, theme.error())
    } else if let Some(note) = &lab.view.note {
        (note.text.clone(), if note.error { theme.error() } else { theme.fg(Color::Green) })
    } else if udp.is_some() {
        ("no desync reported so far".to_owned(), theme.fg(Color::Gray))
    } else {
        ("both peers agree on every checksum compared so far".to_owned(), theme.fg(Color::Gray))
    };
    let width = usize::from(area.width);
    let mut lines: Vec<Line<'_>> =
        wrap(&text, width).into_iter().take(usize::from(FOOTER_ROWS - 1)).map(|l| Line::styled(l, style)).collect();
    lines.resize(usize::from(FOOTER_ROWS - 1), Line::default());
    let hint = if udp.is_some() { UDP_KEYS_HINT } else { KEYS_HINT };
    let keys = if width >= hint.chars().count() { hint } else { "x desync · ? keys · q quit" };
    lines.push(Line::styled(keys, theme.fg(Color::Gray)));
    frame.render_widget(Paragraph::new(lines), area);
}

/// The keys in a box, from line `top` on; ↑ and ↓ scroll it when it does
/// not fit.
fn draw_help(frame: &mut Frame<'_>, area: Rect, top: u16, theme: Theme) {
    let width = help_width(area.width);
    draw_key_box(frame, area, width, help_lines(width, theme), top);
}

/// The keys box's width in a terminal `width` wide.
fn help_width(width: u16) -> u16 {
    76.min(width)
}

/// The keys box's lines in a box `width` wide: each key beside what it
/// does, which wraps under it.
fn help_lines(width: u16, theme: Theme) -> Vec<Line<'static>> {
    let key_width = LAB_KEYS.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let beside = usize::from(width.saturating_sub(4)).saturating_sub(key_width + 2).max(8);
    let mut lines = Vec::new();
    for (key, what) in LAB_KEYS {
        for (i, text) in wrap(what, beside).into_iter().enumerate() {
            let key = if i == 0 { format!("{key:>key_width$}  ") } else { " ".repeat(key_width + 2) };
            lines.push(Line::from(vec![Span::styled(key, theme.fg(Color::Yellow)), Span::raw(text)]));
        }
    }
    lines
}

/// The last first line the keys box can show in a terminal of `width` ×
/// `height`: its lines less those it shows at once.
pub(crate) fn help_last_top(width: u16, height: u16) -> u16 {
    let lines = u16::try_from(help_lines(help_width(width), Theme { colors: false }).len()).unwrap_or(u16::MAX);
    lines.saturating_sub(height.saturating_sub(2))
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::ScalarKind;
    use crate::net::{Conditions, Endpoint};
    use crate::scene::{DEFAULT_SCENE, Scene};

    fn render(lab: &Lab, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
        terminal.draw(|frame| draw(frame, lab)).expect("drawn");
        let buffer = terminal.backend().buffer();
        (0..height).map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n").collect()
    }

    fn lab() -> Lab {
        let conditions = Conditions { latency_ms: 20, ..Conditions::default() };
        Lab::new(Scene::parse(DEFAULT_SCENE).unwrap(), ScalarKind::I16F16, conditions, 2).unwrap()
    }

    #[test]
    fn a_terminal_too_small_for_the_lab_says_so_down_to_one_cell_and_the_smallest_shows_every_figure() {
        let lab = lab();
        render(&lab, 1, 1);
        let screen = render(&lab, 79, 20);
        assert!(screen.starts_with("terminal too small: 79×20, the lab needs 80×16 · q quits"), "{screen}");
        let screen = render(&lab, 100, 15);
        assert!(screen.contains("terminal too small: 100×15, the lab needs 80×16 · q quits"), "{screen}");
        // At the smallest size, both panels' figures fit, and some world.
        let mut lab = lab;
        for _ in 0..60 {
            lab.play_frame();
        }
        let screen = render(&lab, 80, 16);
        assert_eq!(screen.matches("checksum of ").count(), 2, "{screen}");
        assert!(screen.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)), "{screen}");
    }

    #[test]
    fn a_caught_desync_shows_on_both_panels_and_the_bottom_line_names_where_the_worlds_differ() {
        let mut lab = lab();
        for _ in 0..90 {
            lab.play_frame();
        }
        lab.handle(&Event::Key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE)));
        for _ in 0..90 {
            lab.play_frame();
        }
        let screen = render(&lab, 120, 36);
        assert_eq!(screen.matches("DESYNC ").count(), 2, "{screen}");
        let first = lab.divergence.expect("traced");
        let line = format!("the worlds first differ at frame {}, nudged at {}", first.tick, lab.nudges[0]);
        assert!(screen.contains(&line), "{screen}");
    }

    #[test]
    fn over_udp_the_one_panel_is_this_peers_and_the_status_names_both_ends() {
        let port = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let endpoint = Endpoint::new(port, "127.0.0.1:9".parse().unwrap(), Some(2)).unwrap();
        let lab = Lab::over_udp(Scene::parse(DEFAULT_SCENE).unwrap(), ScalarKind::I48F16, endpoint).unwrap();
        let screen = render(&lab, 100, 30);
        assert!(
            screen.contains(&format!("▶ I48F16 │ input delay 0 │ UDP port {port} ↔ 127.0.0.1:9 │ netcode lab")),
            "{screen}"
        );
        assert!(screen.contains("this peer · player 2: keys w a s d or arrows"), "{screen}");
        assert!(screen.contains("synchronising with the other peer…"), "{screen}");
        assert!(!screen.contains("peer 1"), "{screen}");
    }

    #[test]
    fn the_sandbox_page_lists_every_key_of_the_lab() {
        let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/SANDBOX.md"))
            .expect("docs/SANDBOX.md");
        for (key, what) in LAB_KEYS {
            let row = format!("| `{key}` | {what} |");
            assert!(page.contains(&row), "docs/SANDBOX.md lacks the row `{row}`");
        }
    }
}
