//! How ranks reach each other. [`Transport`] is all the cluster needs: small control messages between two ranks,
//! and a gather round in which every rank contributes one fixed-size batch and receives everyone's. The MPI
//! transport (feature `mpi`) is the real one; [`LocalTransport`] runs ranks as threads of one process, so the
//! protocol is tested without MPI.

use crate::owners::{BusyOwners, LocalCounters};
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What the communication thread of a rank uses to reach the others. All calls come from that one thread.
///
/// # Examples
/// ```
/// use eldest_cluster::{LocalTransport, Transport};
///
/// // Written against the trait, so it runs over MPI as over threads.
/// fn report_to_first(transport: &impl Transport) {
///     if transport.rank() != 0 {
///         transport.send(0, &[transport.rank() as u8]);
///     }
/// }
/// let ranks = LocalTransport::group(3);
/// ranks.iter().for_each(report_to_first);
/// let mut heard: Vec<_> = std::iter::from_fn(|| ranks[0].try_receive()).collect();
/// heard.sort();
/// assert_eq!(heard, [(1, vec![1]), (2, vec![2])]);
/// ```
pub trait Transport {
    /// This rank's number, from 0.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Sends a control message to rank `to`; returns once the transport holds it.
    fn send(&self, to: usize, message: &[u8]);
    /// A control message that has arrived, with its sender, if any.
    fn try_receive(&self) -> Option<(usize, Vec<u8>)>;
    /// One gather round: every rank contributes `batch` (all of the same length) and `gathered` receives them all
    /// in rank order. `meanwhile` is called again and again until the round completes (it serves the control
    /// messages; it may sleep).
    fn all_gather(&self, batch: &[u8], gathered: &mut [u8], meanwhile: &mut dyn FnMut());
    /// The counters of the owner ranks (`ClusterBusyOwners`), reachable from every search thread, if this
    /// transport has them. Called once, when the rank starts.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{LocalTransport, Transport};
    ///
    /// let ranks = LocalTransport::group(2);
    /// let (first, second) = (ranks[0].busy_owners().unwrap(), ranks[1].busy_owners().unwrap());
    /// first.enter(42);
    /// assert!(second.busy(42));
    /// ```
    fn busy_owners(&self) -> Option<BusyOwners> {
        None
    }
}

/// One round of a local group until every rank has read its result.
#[derive(Debug)]
struct OpenRound {
    /// The batches, by rank, as they arrive.
    contributions: Vec<Option<Vec<u8>>>,
    /// Ranks that have read the gathered batches.
    readers: usize,
}

/// The rounds of a group of local ranks, by round number.
#[derive(Debug, Default)]
struct Rounds {
    open: HashMap<u64, OpenRound>,
}

/// What the ranks of one local group share.
#[derive(Debug)]
struct Group {
    size: usize,
    rounds: Mutex<Rounds>,
    round_done: Condvar,
    mailboxes: Vec<Sender<(usize, Vec<u8>)>>,
}

/// A rank of a group of threads in one process: the protocol without MPI, for tests and examples.
///
/// # Examples
/// ```
/// use eldest_cluster::{LocalTransport, Transport};
/// let mut ranks = LocalTransport::group(2);
/// let second = ranks.pop().unwrap();
/// let first = ranks.pop().unwrap();
/// first.send(1, b"hello");
/// assert_eq!(second.try_receive(), Some((0, b"hello".to_vec())));
/// let other = std::thread::spawn(move || {
///     let mut gathered = [0; 4];
///     second.all_gather(&[2, 2], &mut gathered, &mut || {});
///     gathered
/// });
/// let mut gathered = [0; 4];
/// first.all_gather(&[1, 1], &mut gathered, &mut || {});
/// assert_eq!(gathered, [1, 1, 2, 2]);
/// assert_eq!(other.join().unwrap(), [1, 1, 2, 2]);
/// ```
#[derive(Debug)]
pub struct LocalTransport {
    rank: usize,
    group: Arc<Group>,
    mailbox: Mutex<Receiver<(usize, Vec<u8>)>>,
    round: Mutex<u64>,
    counters: LocalCounters,
}

impl LocalTransport {
    /// The ranks of a new group of `size`, rank 0 first; each goes to its own thread.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{LocalTransport, Transport};
    ///
    /// let ranks = LocalTransport::group(3);
    /// let numbers: Vec<usize> = ranks.iter().map(Transport::rank).collect();
    /// assert_eq!(numbers, [0, 1, 2]);
    /// assert!(ranks.iter().all(|rank| rank.size() == 3));
    /// ```
    pub fn group(size: usize) -> Vec<LocalTransport> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..size).map(|_| channel()).unzip();
        let group = Arc::new(Group {
            size,
            rounds: Mutex::new(Rounds::default()),
            round_done: Condvar::new(),
            mailboxes: senders,
        });
        receivers
            .into_iter()
            .zip(LocalCounters::group(size))
            .enumerate()
            .map(|(rank, (receiver, counters))| LocalTransport {
                rank,
                group: Arc::clone(&group),
                mailbox: Mutex::new(receiver),
                round: Mutex::new(0),
                counters,
            })
            .collect()
    }
}

impl LocalTransport {
    /// The owner counters of the rank's group (`ClusterBusyOwners`), to look at what the searches left there.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::LocalTransport;
    /// let ranks = LocalTransport::group(2);
    /// assert_eq!((ranks[0].counters().additions(), ranks[1].counters().open_searchers()), (0, 0));
    /// ```
    pub fn counters(&self) -> &LocalCounters {
        &self.counters
    }
}

impl Transport for LocalTransport {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.group.size
    }

    fn send(&self, to: usize, message: &[u8]) {
        // A rank whose thread has ended receives nothing, as a process that has exited would.
        let _ = self.group.mailboxes[to].send((self.rank, message.to_vec()));
    }

    fn try_receive(&self) -> Option<(usize, Vec<u8>)> {
        self.mailbox.lock().ok()?.try_recv().ok()
    }

    fn all_gather(&self, batch: &[u8], gathered: &mut [u8], meanwhile: &mut dyn FnMut()) {
        let round = {
            let mut round = self.round.lock().unwrap_or_else(|e| e.into_inner());
            *round += 1;
            *round
        };
        let size = self.group.size;
        let mut rounds = self.group.rounds.lock().unwrap_or_else(|e| e.into_inner());
        rounds
            .open
            .entry(round)
            .or_insert_with(|| OpenRound {
                contributions: vec![None; size],
                readers: 0,
            })
            .contributions[self.rank] = Some(batch.to_vec());
        loop {
            let contributions = &rounds.open[&round].contributions;
            if contributions.iter().all(Option::is_some) {
                for (slot, contribution) in gathered.chunks_exact_mut(batch.len()).zip(contributions) {
                    slot.copy_from_slice(contribution.as_deref().unwrap_or_default());
                }
                let all_read = rounds.open.get_mut(&round).is_some_and(|open| {
                    open.readers += 1;
                    open.readers == size
                });
                if all_read {
                    rounds.open.remove(&round);
                }
                self.group.round_done.notify_all();
                return;
            }
            drop(rounds);
            meanwhile();
            rounds = self.group.rounds.lock().unwrap_or_else(|e| e.into_inner());
            rounds = self
                .group
                .round_done
                .wait_timeout(rounds, Duration::from_micros(200))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    fn busy_owners(&self) -> Option<BusyOwners> {
        Some(BusyOwners::new(self.counters.clone()))
    }
}
