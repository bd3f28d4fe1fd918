//! The simulated network between the two in-process peers: every packet
//! is delayed by the latency plus or minus the jitter, some are lost, some
//! held back past the ones sent after them, all decided by a seeded hash of
//! the packet's number, and delivered by a clock the run advances itself.

use std::cell::RefCell;
use std::rc::Rc;

use ggrs::{Message, NonBlockingSocket};

/// How bad the network is.
///
/// # Examples
///
/// ```
/// use geom_tui::net::Conditions;
///
/// let lossy = Conditions { latency_ms: 100, jitter_ms: 20, loss_percent: 10, reorder_percent: 0 };
/// assert_eq!(Conditions::default().latency_ms, 0);
/// assert_ne!(lossy, Conditions::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conditions {
    /// Each packet's delay, in milliseconds, before jitter.
    pub latency_ms: u32,
    /// The most a packet's delay differs from the latency, either way (a
    /// delay is never below zero).
    pub jitter_ms: u32,
    /// The share of packets lost, 0 to 100.
    pub loss_percent: u32,
    /// The share of packets held back one more latency (so that packets
    /// sent after them overtake them), 0 to 100.
    pub reorder_percent: u32,
}

/// A peer's address on the simulated network: 0 or 1.
pub(crate) type Address = u8;

/// A packet on its way, carrying `M`.
struct Packet<M> {
    /// When it arrives, in microseconds of the run's clock.
    at_us: u64,
    /// Its number: ties in arrival time go in sending order.
    number: u64,
    from: Address,
    to: Address,
    message: M,
}

/// The network: the run's clock, and the packets (of `M`: ggrs's
/// messages) in flight.
pub(crate) struct Wire<M = Message> {
    conditions: Conditions,
    seed: u64,
    now_us: u64,
    in_flight: Vec<Packet<M>>,
    /// Packets sent, and of them lost.
    pub(crate) sent: u64,
    pub(crate) lost: u64,
}

impl<M> Wire<M> {
    pub(crate) fn new(conditions: Conditions, seed: u64) -> Self {
        Self { conditions, seed, now_us: 0, in_flight: Vec::new(), sent: 0, lost: 0 }
    }

    /// Makes the network this bad from now on: packets in flight keep
    /// their fates.
    pub(crate) fn set_conditions(&mut self, conditions: Conditions) {
        self.conditions = conditions;
    }

    /// Moves the clock on by `us` microseconds.
    pub(crate) fn advance(&mut self, us: u64) {
        self.now_us += us;
    }

    /// A number from 0 to `n − 1` for this packet and purpose: a hash of
    /// the seed, the packet's number and the purpose.
    fn roll(&self, number: u64, purpose: u8, n: u64) -> u64 {
        let mut bytes = [0_u8; 17];
        bytes[..8].copy_from_slice(&self.seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&number.to_le_bytes());
        bytes[16] = purpose;
        seahash::hash(&bytes) % n.max(1)
    }

    fn send(&mut self, from: Address, to: Address, message: M) {
        let number = self.sent;
        self.sent += 1;
        let c = self.conditions;
        if self.roll(number, 0, 100) < u64::from(c.loss_percent) {
            self.lost += 1;
            return;
        }
        let (latency, jitter) = (u64::from(c.latency_ms) * 1000, u64::from(c.jitter_ms) * 1000);
        // Latency + jitter·(2u − 1) for u uniform in [0, 1], never below 0.
        let mut delay = (latency + self.roll(number, 1, 2 * jitter + 1)).saturating_sub(jitter);
        if self.roll(number, 2, 100) < u64::from(c.reorder_percent) {
            delay += latency.max(1000);
        }
        self.in_flight.push(Packet { at_us: self.now_us + delay, number, from, to, message });
    }

    /// The packets for `to` that have arrived, in order of arrival.
    fn receive(&mut self, to: Address) -> Vec<(Address, M)> {
        let now = self.now_us;
        let (mut arrived, waiting): (Vec<Packet<M>>, Vec<Packet<M>>) =
            self.in_flight.drain(..).partition(|p| p.to == to && p.at_us <= now);
        self.in_flight = waiting;
        arrived.sort_by_key(|p| (p.at_us, p.number));
        arrived.into_iter().map(|p| (p.from, p.message)).collect()
    }
}

/// One peer's end of the [`Wire`]: ggrs's socket.
pub(crate) struct Socket {
    pub(crate) wire: Rc<RefCell<Wire>>,
    pub(crate) address: Address,
}

impl NonBlockingSocket<Address> for Socket {
    fn send_to(&mut self, message: &Message, to: &Address) {
        self.wire.borrow_mut().send(self.address, *to, message.clone());
    }

    fn receive_all_messages(&mut self) -> Vec<(Address, Message)> {
        self.wire.borrow_mut().receive(self.address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sends 4,000 packets from 0 to 1, one a millisecond, each carrying
    /// its sending time, and returns each one's delay in milliseconds in
    /// order of arrival, with how many were lost.
    fn delays(conditions: Conditions) -> (Vec<u64>, u64) {
        let mut wire = Wire::new(conditions, 7);
        let mut delays = Vec::new();
        for ms in 0..6000 {
            if ms < 4000 {
                wire.send(0, 1, ms);
            }
            delays.extend(wire.receive(1).into_iter().map(|(from, sent)| {
                assert_eq!(from, 0);
                ms - sent
            }));
            wire.advance(1000);
        }
        assert!(wire.receive(0).is_empty(), "nothing was sent to 0");
        (delays, wire.lost)
    }

    /// The property: every packet arrives, in order, after exactly the
    /// latency on a perfect network; with jitter within latency ± jitter;
    /// the losses and the reordering near their shares; and the same seed
    /// decides the same fates.
    #[test]
    fn packets_arrive_within_the_latency_and_jitter_and_are_lost_or_reordered_at_their_rates() {
        let (perfect, lost) = delays(Conditions { latency_ms: 100, ..Conditions::default() });
        assert_eq!((perfect.len(), lost), (4000, 0));
        assert!(perfect.iter().all(|&d| d == 100), "{perfect:?}");
        let bad = Conditions { latency_ms: 100, jitter_ms: 20, loss_percent: 10, reorder_percent: 0 };
        let (jittered, lost) = delays(bad);
        assert_eq!(jittered.len() as u64 + lost, 4000);
        assert!((300..500).contains(&lost), "{lost} of 4000 lost at 10%");
        assert!(jittered.iter().all(|d| (80..=120).contains(d)), "{jittered:?}");
        assert!(jittered.iter().any(|&d| d < 90) && jittered.iter().any(|&d| d > 110));
        assert_eq!(delays(bad), (jittered, lost), "the same seed, the same fates");
        let (reordered, _) = delays(Conditions { latency_ms: 50, reorder_percent: 20, ..Conditions::default() });
        let late = reordered.iter().filter(|&&d| d == 100).count();
        assert!((600..1000).contains(&late), "{late} of 4000 held back at 20%");
    }
}
