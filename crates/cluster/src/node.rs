//! A rank of the cluster: its communication thread (the only thread that touches the transport) and the link
//! through which the rank's UCI session and searches reach it.
//!
//! The communication thread runs exchange rounds back to back for the life of the process (one round in
//! flight at a time, paced so that it never takes a core from the search), and between and during rounds
//! serves the control messages: the first rank's input lines go to every other rank's session, a `Stop` becomes
//! a `stop` line there, and the other ranks' results go to the first rank's search thread. A rank that shuts
//! down says so in its next round; every rank leaves the rounds after the round in which any rank said it.

use crate::exchange::ClusterExchange;
use crate::transport::Transport;
use crate::wire::{BATCH_BYTES, Control, RankResult, decode_batch, encode_batch};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Pause between control polls and rounds while a search runs: the latency a stop adds.
const SEARCH_POLL: Duration = Duration::from_micros(250);
/// The same between searches.
const IDLE_POLL: Duration = Duration::from_millis(2);

/// What the rank's other threads ask the communication thread to do.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// Send to every other rank (the first rank's lines and stops).
    ToOthers(Control),
    /// Send to the first rank (another rank's result).
    ToFirst(Control),
    /// The session has ended: leave the rounds.
    Shutdown,
}

/// The rank's side of the cluster, shared by its session, its searches and its communication thread.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, LocalTransport};
///
/// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
/// let link = cluster.link();
/// std::thread::sleep(std::time::Duration::from_millis(10));
/// // Alone, the rank has nobody to exchange with: no round ever runs.
/// assert_eq!((link.rank(), link.size(), link.exchange().snapshot().rounds), (0, 1, 0));
/// # Ok::<(), String>(())
/// ```
#[derive(Debug)]
pub struct ClusterLink {
    rank: usize,
    size: usize,
    exchange: Arc<ClusterExchange>,
    outgoing: Sender<Outgoing>,
    results: Mutex<Receiver<RankResult>>,
    searches: AtomicU64,
    searching: AtomicBool,
    /// Ranks that missed a result deadline: not waited for again.
    lost: Mutex<Vec<bool>>,
}

impl ClusterLink {
    pub(crate) fn new(
        rank: usize,
        size: usize,
        outgoing: Sender<Outgoing>,
        results: Receiver<RankResult>,
    ) -> ClusterLink {
        ClusterLink {
            rank,
            size,
            exchange: Arc::new(ClusterExchange::new()),
            outgoing,
            results: Mutex::new(results),
            searches: AtomicU64::new(0),
            searching: AtomicBool::new(false),
            lost: Mutex::new(vec![false; size]),
        }
    }

    /// This rank's number.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LocalTransport};
    ///
    /// let clusters = LocalTransport::group(2)
    ///     .into_iter()
    ///     .map(|rank| Cluster::start(move || Ok(rank)))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let numbers: Vec<usize> = clusters.iter().map(|cluster| cluster.link().rank()).collect();
    /// assert_eq!(numbers, [0, 1]);
    /// # Ok::<(), String>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LocalTransport};
    ///
    /// let clusters = LocalTransport::group(3)
    ///     .into_iter()
    ///     .map(|rank| Cluster::start(move || Ok(rank)))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// assert!(clusters.iter().all(|cluster| cluster.link().size() == 3));
    /// # Ok::<(), String>(())
    /// ```
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rank's exchange (its counters, its floor).
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LocalTransport};
    /// use eldest_search::{EntryExchange, TableEntry};
    /// use eldest_tt::{Bound, Record};
    ///
    /// let clusters = LocalTransport::group(2)
    ///     .into_iter()
    ///     .map(|rank| Cluster::start(move || Ok(rank)))
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let record = Record { best_move: 0, score: 7, static_eval: None, depth: 10, bound: Bound::EXACT };
    /// clusters[0].link().exchange().offer(TableEntry::new(77, 0, &record));
    /// // The rounds run on the communication threads: wait for one to carry the entry.
    /// let second = clusters[1].link().exchange();
    /// while second.snapshot().received == 0 {
    ///     std::thread::sleep(std::time::Duration::from_millis(1));
    /// }
    /// let mut stored = Vec::new();
    /// second.deliver(&mut |entry| stored.push(entry.key));
    /// assert_eq!(stored, [77]);
    /// # Ok::<(), String>(())
    /// ```
    pub fn exchange(&self) -> &Arc<ClusterExchange> {
        &self.exchange
    }

    pub(crate) fn send(&self, message: Outgoing) {
        // After the communication thread has ended there is nobody left to tell.
        let _ = self.outgoing.send(message);
    }

    /// Marks the start of a search and returns its number (the first is 1).
    pub(crate) fn begin_search(&self) -> u64 {
        self.searching.store(true, Ordering::Relaxed);
        self.searches.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub(crate) fn end_search(&self) {
        self.searching.store(false, Ordering::Relaxed);
    }

    fn poll_interval(&self) -> Duration {
        if self.searching.load(Ordering::Relaxed) {
            SEARCH_POLL
        } else {
            IDLE_POLL
        }
    }

    /// While this rank's own search runs (until `own_done`), collects the results of search `search` that other
    /// ranks send because their search ended on its own (a depth, node or mate limit), calling `ended_elsewhere`
    /// for each: a search limited so is complete as soon as one rank completes it.
    pub(crate) fn watch_results(
        &self,
        search: u64,
        own_done: &AtomicBool,
        ended_elsewhere: &dyn Fn(),
    ) -> Vec<RankResult> {
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        let mut collected = Vec::new();
        while !own_done.load(Ordering::Acquire) {
            match results.recv_timeout(Duration::from_millis(1)) {
                Ok(result) if result.search == search => {
                    collected.push(result);
                    ended_elsewhere();
                }
                Ok(stale) => tracing::debug!(rank = stale.rank, search = stale.search, "late result dropped"),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        collected
    }

    /// Waits for the results of search `search` from every rank not yet lost and not among `collected`, until
    /// `timeout`; a rank that misses it is marked lost and named in the log.
    pub(crate) fn collect_results(
        &self,
        search: u64,
        timeout: Duration,
        mut collected: Vec<RankResult>,
    ) -> Vec<RankResult> {
        let deadline = Instant::now() + timeout;
        let mut lost = self.lost.lock().unwrap_or_else(|e| e.into_inner());
        let mut awaited: Vec<bool> = (0..self.size)
            .map(|r| r != self.rank && !lost[r] && !collected.iter().any(|c| c.rank as usize == r))
            .collect();
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        while awaited.contains(&true) {
            let left = deadline.saturating_duration_since(Instant::now());
            match results.recv_timeout(left) {
                Ok(result) if result.search == search => {
                    let rank = result.rank as usize;
                    if awaited.get(rank) == Some(&true) || lost.get(rank) == Some(&true) {
                        if let Some(flag) = awaited.get_mut(rank) {
                            *flag = false;
                        }
                        lost[rank] = false;
                        collected.push(result);
                    }
                }
                Ok(stale) => tracing::debug!(rank = stale.rank, search = stale.search, "late result dropped"),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        for (rank, _) in awaited.iter().enumerate().filter(|(_, waiting)| **waiting) {
            lost[rank] = true;
            tracing::warn!(
                rank,
                search,
                "rank {rank} sent no result within {} ms; it is not waited for again",
                timeout.as_millis()
            );
        }
        collected
    }
}

/// The communication thread's loop: rounds and control messages until every rank leaves.
pub(crate) fn serve<T: Transport>(
    transport: &T,
    link: &ClusterLink,
    outgoing: &Receiver<Outgoing>,
    results: &Sender<RankResult>,
    lines: Option<&Sender<String>>,
) {
    let size = transport.size();
    let rank = transport.rank();
    let mut quitting = false;
    let mut send = vec![0; BATCH_BYTES];
    let mut gathered = vec![0; BATCH_BYTES * size];
    let poll = |quitting: &mut bool| {
        serve_control(transport, outgoing, results, lines, quitting);
    };
    if size == 1 {
        while !quitting {
            poll(&mut quitting);
            std::thread::sleep(IDLE_POLL);
        }
        return;
    }
    loop {
        let batch = link.exchange.take_batch();
        let busy = link.exchange.take_busy();
        encode_batch(&mut send, quitting, &batch, &busy);
        transport.all_gather(&send, &mut gathered, &mut || {
            poll(&mut quitting);
            std::thread::sleep(link.poll_interval());
        });
        let mut leave = false;
        for (from, share) in gathered.chunks_exact(BATCH_BYTES).enumerate() {
            let Some(received) = decode_batch(share) else {
                tracing::warn!(from, "a corrupt batch dropped");
                continue;
            };
            leave |= received.quit;
            if received.corrupt > 0 {
                tracing::warn!(from, corrupt = received.corrupt, "corrupt entries dropped");
            }
            if from != rank {
                link.exchange.receive(received.entries);
                link.exchange.receive_busy(received.busy);
            }
        }
        link.exchange.finish_round(batch.len());
        if leave {
            break;
        }
        poll(&mut quitting);
        std::thread::sleep(link.poll_interval());
    }
}

/// Sends what the rank's threads queued and routes what arrived.
fn serve_control<T: Transport>(
    transport: &T,
    outgoing: &Receiver<Outgoing>,
    results: &Sender<RankResult>,
    lines: Option<&Sender<String>>,
    quitting: &mut bool,
) {
    loop {
        match outgoing.try_recv() {
            Ok(Outgoing::ToOthers(message)) => {
                let bytes = message.encode();
                (0..transport.size())
                    .filter(|&to| to != transport.rank())
                    .for_each(|to| transport.send(to, &bytes));
            }
            Ok(Outgoing::ToFirst(message)) => transport.send(0, &message.encode()),
            Ok(Outgoing::Shutdown) => *quitting = true,
            Err(std::sync::mpsc::TryRecvError::Empty) => break,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                *quitting = true;
                break;
            }
        }
    }
    while let Some((from, bytes)) = transport.try_receive() {
        match (Control::decode(&bytes), lines) {
            (Some(Control::Line(line)), Some(lines)) if from == 0 => {
                let _ = lines.send(line);
            }
            (Some(Control::Stop(_)), Some(lines)) if from == 0 => {
                let _ = lines.send("stop".to_string());
            }
            (Some(Control::Result(result)), None) if result.rank as usize == from => {
                let _ = results.send(result);
            }
            (message, _) => tracing::warn!(from, ?message, "an unexpected control message dropped"),
        }
    }
}
