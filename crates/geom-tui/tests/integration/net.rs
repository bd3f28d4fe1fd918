//! Two peers of a rollback game on the built-in scene, over a simulated
//! network as bad as a poor mobile link: they must end on the same
//! checksum in every scalar type, and a desync forced on one of them must
//! be caught, at its frame.

use std::process::Command;

use geom_tui::ScalarKind;
use geom_tui::net::{Conditions, Options, checksums_without_network, run};
use geom_tui::scene::{DEFAULT_SCENE, Scene};

/// 100 ms latency, 20 ms jitter, 10% of packets lost.
const POOR: Conditions = Conditions { latency_ms: 100, jitter_ms: 20, loss_percent: 10, reorder_percent: 0 };

fn options(kind: ScalarKind, frames: u32, desync_at: Option<u32>) -> Options {
    Options { kind, frames, conditions: POOR, seed: 11, desync_at }
}

#[test]
fn both_peers_agree_after_three_thousand_frames_of_a_poor_network_in_every_type() {
    let scene = Scene::parse(DEFAULT_SCENE).expect("the built-in scene");
    for kind in ScalarKind::ALL {
        let report = run(&scene, &options(kind, 3000, None)).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let [a, b] = &report.peers;
        assert!(report.agree(), "{kind}: {report:?}");
        // And on the checksum the same game has without a network: the
        // rollbacks changed nothing.
        let alone = checksums_without_network(&scene, &options(kind, 3000, None), false).expect("the same game");
        assert_eq!(a.checksum, alone[3000], "{kind}");
        assert!(a.frames >= 3000 && b.frames >= 3000, "{kind}: {report:?}");
        // The network was as bad as asked, and the peers rolled back for it.
        assert!(report.lost * 100 > report.packets * 8, "{kind}: {report:?}");
        assert!(a.rollbacks > 100 && b.rollbacks > 100, "{kind}: {report:?}");
        assert!(a.worst_prediction > 4, "{kind}: {report:?}");
        eprintln!("{kind}: {report:?}");
    }
}

/// Over a network that delays and jitters but loses nothing, so that every
/// checksum report arrives (a lost one delays the detection to a later
/// frame, and a one-step nudge may be rounded away by then).
#[test]
fn a_desync_forced_on_one_peer_is_detected_with_both_worlds_checksums_in_every_type() {
    let scene = Scene::parse(DEFAULT_SCENE).expect("the built-in scene");
    let lossless = Conditions { loss_percent: 0, ..POOR };
    for kind in ScalarKind::ALL {
        let options = Options { conditions: lossless, ..options(kind, 900, Some(600)) };
        let report = run(&scene, &options).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert!(!report.agree(), "{kind}: {report:?}");
        // Nudged while simulating frame 600, the worlds first differ at
        // 601 or, where the step rounds the nudge away at first, later:
        // where the same game played alone, nudged and not, first differs.
        let plain = checksums_without_network(&scene, &options, false).expect("the same game");
        let nudged = checksums_without_network(&scene, &options, true).expect("the same game");
        let first = plain.iter().zip(&nudged).position(|(p, n)| p != n).expect("the nudge shows");
        assert!(first >= 601, "{kind}: {first}");
        // ggrs compares one confirmed frame's checksums per frame it
        // advances, skipping to the latest saved one when it falls behind:
        // it catches the desync at the first difference or a few frames
        // on, with each world's own checksum of that frame.
        for (peer, (own, other)) in [(&plain, &nudged), (&nudged, &plain)].into_iter().enumerate() {
            let desync = report.peers[peer].desync.unwrap_or_else(|| panic!("{kind}: {report:?}"));
            let frame = usize::try_from(desync.frame).expect("a frame");
            assert!((first..first + 10).contains(&frame), "{kind}: first {first}, {report:?}");
            assert_eq!((desync.local, desync.remote), (own[frame], other[frame]), "{kind}: peer {peer}");
        }
    }
}

/// `geom-tui run --net` as a script uses it: text lines per peer and a
/// verdict, or one JSON document; success when the peers agree, and when a
/// forced desync is caught.
#[test]
fn the_headless_runner_plays_the_net_game_and_says_whether_the_peers_agree() {
    let run =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_geom-tui")).args(args).output().expect("the binary runs");
    let poor = ["run", "default", "--net", "--latency", "100", "--jitter", "20", "--loss", "10", "--ticks", "600"];
    let text = run(&poor);
    assert!(text.status.success(), "{text:?}");
    let out = String::from_utf8(text.stdout).expect("text");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("peer 1: ") && lines[1].starts_with("peer 2: "), "{out}");
    assert!(lines[3].starts_with("agree: both peers' checksum of frame 600 is "), "{out}");
    let json = run(&[&poor[..], &["--json", "--scalar", "I16F16"]].concat());
    assert!(json.status.success(), "{json:?}");
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).expect("one JSON document");
    assert_eq!((document["agree"].as_bool(), document["scalar"].as_str()), (Some(true), Some("I16F16")));
    assert_eq!(document["peers"][0]["checksum"], document["peers"][1]["checksum"]);
    assert!(document["lost"].as_u64() > Some(0), "{document}");
    let forced = run(&["run", "default", "--net", "--latency", "50", "--ticks", "400", "--desync", "300"]);
    assert!(forced.status.success(), "{forced:?}");
    let verdict = String::from_utf8(forced.stdout).expect("text");
    assert!(verdict.lines().last().is_some_and(|l| l.starts_with("desync: detected by peer 1 at frame ")), "{verdict}");
    let refused = run(&["run", "default", "--latency", "5", "--ticks", "3"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--net"));
    // A desync forced at a frame never played is refused before playing.
    let beyond = run(&["run", "default", "--net", "--ticks", "600", "--desync", "600"]);
    assert_eq!(beyond.status.code(), Some(1));
    assert!(beyond.stdout.is_empty(), "{beyond:?}");
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("give one below --ticks 600"), "{beyond:?}");
}

/// A UDP port free on this machine a moment ago.
fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0").and_then(|s| s.local_addr()).expect("a free port").port()
}

/// Two processes, one peer each, over real UDP on localhost, as two
/// terminals on one machine play: both confirm 1,000 frames and end on the
/// same checksum, the one the game has without a network.
#[test]
fn two_processes_over_udp_on_localhost_agree_for_a_thousand_frames() {
    let ports = [free_port(), free_port()];
    let peers: Vec<_> = (0..2)
        .map(|i| {
            let (local, remote) = (ports[i].to_string(), format!("127.0.0.1:{}", ports[1 - i]));
            Command::new(env!("CARGO_BIN_EXE_geom-tui"))
                .args(["run", "default", "--net", "--ticks", "1000", "--bots", "9", "--scalar", "I16F16"])
                .args(["--local", &local, "--remote", &remote, "--player", &(i + 1).to_string()])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the binary starts")
        })
        .collect();
    let outputs: Vec<String> = peers
        .into_iter()
        .map(|p| {
            let out = p.wait_with_output().expect("the binary runs");
            assert!(out.status.success(), "{out:?}");
            String::from_utf8(out.stdout).expect("text")
        })
        .collect();
    let checksum = |out: &str| {
        let verdict = out.lines().last().unwrap_or_default();
        verdict
            .strip_prefix("no desync: this peer's checksum of frame 1000 is ")
            .unwrap_or_else(|| panic!("{out}"))
            .to_owned()
    };
    assert_eq!(checksum(&outputs[0]), checksum(&outputs[1]), "{outputs:?}");
    assert!(outputs[0].starts_with("peer 1: ") && outputs[1].starts_with("peer 2: "), "{outputs:?}");
    let scene = Scene::parse(DEFAULT_SCENE).expect("the built-in scene");
    let options =
        Options { kind: ScalarKind::I16F16, frames: 1000, conditions: Conditions::default(), seed: 9, desync_at: None };
    let alone = checksums_without_network(&scene, &options, false).expect("the same game");
    assert_eq!(checksum(&outputs[0]), format!("{:016x}", alone[1000]));
}

/// A port another program holds is refused by name, at once, before any
/// waiting for the other peer.
#[test]
fn a_udp_port_in_use_is_a_clear_error() {
    let taken = std::net::UdpSocket::bind("0.0.0.0:0").expect("a port");
    let port = taken.local_addr().expect("its address").port().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_geom-tui"))
        .args([
            "run",
            "default",
            "--net",
            "--ticks",
            "10",
            "--local",
            &port,
            "--remote",
            "127.0.0.1:9",
            "--player",
            "1",
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("cannot listen on UDP port {port}")), "{stderr}");
}
