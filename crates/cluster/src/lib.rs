//! Eldest over MPI: one UCI engine spread over processes (ranks), each with its own threads, its own
//! transposition table and the `ParallelAlgorithm` of the options, sharing deep table entries with the others.
//!
//! The first rank speaks UCI, keeps the clock and decides: it passes every input line on to the other ranks'
//! sessions, so their positions and options follow its own; a `go` starts a search on every rank (the other
//! ranks without a clock); when the first rank's search ends it stops the others, collects their results and
//! reports the move the ranks' depth-and-score vote chooses. Meanwhile one communication thread per rank runs
//! exchange rounds back to back: each rank contributes up to 256 of the entries its search stored at least
//! the floor deep (full keys, 16 bytes each), receives everyone's, and the main search thread stores them.
//! The floor adapts so the rounds carry the deepest entries the link can take; one round is in flight at a
//! time. A rank that sends no result within [`RESULT_TIMEOUT`] of a stop is left out of that search and not
//! waited for again: the first rank always answers `bestmove`.
//!
//! The transport is a trait: [`LocalTransport`] runs ranks as threads of one process (the tests and the
//! example below), the `mpi` feature adds `MpiTransport` over any MPI library (Open MPI in CI). See
//! `docs/cluster.md`.
//!
//! ```
//! use eldest_cluster::{Cluster, LocalTransport};
//! use std::sync::{Arc, Mutex};
//!
//! #[derive(Clone, Default)]
//! struct Transcript(Arc<Mutex<Vec<u8>>>);
//! impl std::io::Write for Transcript {
//!     fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(bytes) }
//!     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! }
//!
//! // Two ranks as two threads: the second follows the first's input and searches with it.
//! let mut ranks = LocalTransport::group(2).into_iter();
//! let (first, second) = (ranks.next().unwrap(), ranks.next().unwrap());
//! let other = std::thread::spawn(move || {
//!     let cluster = Cluster::start(move || Ok(second)).unwrap();
//!     cluster.run_uci(std::io::empty(), std::io::sink(), Default::default())
//! });
//! let cluster = Cluster::start(move || Ok(first)).unwrap();
//! let transcript = Transcript::default();
//! let input = "position startpos moves e2e4\ngo depth 6\nisready\n";
//! cluster.run_uci(input.as_bytes(), transcript.clone(), Default::default())?;
//! other.join().unwrap()?;
//! let text = String::from_utf8(transcript.0.lock().unwrap().clone()).unwrap();
//! assert!(text.lines().any(|line| line.starts_with("bestmove ")));
//! # Ok::<(), std::io::Error>(())
//! ```
#![deny(missing_docs)]
// Only the MPI transport's one-sided window needs `unsafe` (raw MPI calls rsmpi does not wrap); it says why each
// use is sound.
#![deny(unsafe_code)]

mod exchange;
mod lines;
#[cfg(feature = "mpi")]
#[allow(unsafe_code)]
mod mpi_transport;
mod node;
mod owners;
mod runner;
mod transport;
pub mod wire;

pub use exchange::{ADAPT_ROUNDS, BUSY_ROUNDS, ClusterExchange, INITIAL_FLOOR, MAX_FLOOR, MIN_FLOOR};
pub use lines::{LineChannel, LineWriter};
#[cfg(feature = "mpi")]
pub use mpi_transport::MpiTransport;
pub use node::ClusterLink;
pub use owners::{BusyOwners, LocalCounters, OWNER_SLOTS, RemoteCounters};
pub use runner::{FirstRankRunner, OtherRankRunner, RESULT_TIMEOUT, choose, without_clock};
pub use transport::{LocalTransport, Transport};

use node::Outgoing;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use wire::Control;

/// How long a rank that quits waits for the other ranks to leave the exchange with it.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, LocalTransport, SHUTDOWN_TIMEOUT};
///
/// let mut ranks = LocalTransport::group(2);
/// // The second rank never starts, as if its process had died: no round can complete.
/// let _dead = ranks.pop();
/// let first = ranks.pop().unwrap();
/// let cluster = Cluster::start(move || Ok(first))?;
/// let started = std::time::Instant::now();
/// cluster.run_uci("isready\n".as_bytes(), std::io::sink(), Default::default())?;
/// assert!(started.elapsed() >= SHUTDOWN_TIMEOUT);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const SHUTDOWN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// A started rank: its communication thread runs; [`Cluster::run_uci`] runs its session.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, LineWriter, LocalTransport};
///
/// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
/// let (sender, lines) = std::sync::mpsc::channel();
/// cluster.run_uci("isready\n".as_bytes(), LineWriter::new(sender), Default::default())?;
/// assert_eq!(lines.try_iter().collect::<Vec<_>>(), ["readyok"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Cluster {
    link: Arc<ClusterLink>,
    /// The forwarded lines, on every rank but the first.
    lines: Option<Receiver<String>>,
    thread: JoinHandle<()>,
}

impl Cluster {
    /// Starts the rank's communication thread, which calls `connect` to join the cluster (MPI's initialisation
    /// belongs to the thread that will make every MPI call) and keeps the transport until the rank shuts down.
    ///
    /// # Errors
    /// `connect`'s error, or the thread could not be started.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LocalTransport};
    ///
    /// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
    /// assert_eq!((cluster.link().rank(), cluster.link().size()), (0, 1));
    /// let refused = Cluster::start(|| Err::<LocalTransport, _>("no MPI library".to_string()));
    /// assert_eq!(refused.unwrap_err(), "no MPI library");
    /// # Ok::<(), String>(())
    /// ```
    pub fn start<T, F>(connect: F) -> Result<Cluster, String>
    where
        T: Transport + 'static,
        F: FnOnce() -> Result<T, String> + Send + 'static,
    {
        let (ready_sender, ready) = channel();
        let (outgoing_sender, outgoing) = channel();
        let (result_sender, results) = channel();
        let (line_sender, lines) = channel();
        let thread = std::thread::Builder::new()
            .name("eldest-cluster".to_string())
            .spawn(move || {
                let transport = match connect() {
                    Ok(transport) => transport,
                    Err(error) => {
                        let _ = ready_sender.send(Err(error));
                        return;
                    }
                };
                let (rank, size) = (transport.rank(), transport.size());
                let link = Arc::new(ClusterLink::new(rank, size, outgoing_sender, results));
                if let Some(owners) = transport.busy_owners() {
                    link.exchange().set_owners(owners);
                }
                let _ = ready_sender.send(Ok(Arc::clone(&link)));
                let lines = (rank != 0).then_some(line_sender);
                node::serve(&transport, &link, &outgoing, &result_sender, lines.as_ref());
                tracing::debug!(rank, "the rank leaves the cluster");
            })
            .map_err(|error| format!("cannot start the communication thread: {error}"))?;
        let link = ready
            .recv()
            .map_err(|_| "the communication thread ended before joining the cluster".to_string())??;
        let lines = (link.rank() != 0).then_some(lines);
        Ok(Cluster { link, lines, thread })
    }

    /// The rank's link: its number, the cluster's size, its exchange counters.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LocalTransport};
    ///
    /// let mut ranks = LocalTransport::group(2).into_iter().map(|rank| Cluster::start(move || Ok(rank)));
    /// let (first, second) = (ranks.next().unwrap()?, ranks.next().unwrap()?);
    /// assert_eq!((first.link().rank(), second.link().rank()), (0, 1));
    /// assert_eq!(second.link().size(), 2);
    /// # Ok::<(), String>(())
    /// ```
    pub fn link(&self) -> &Arc<ClusterLink> {
        &self.link
    }

    /// Runs the rank's UCI session until `quit` (or the end of the input) and leaves the cluster.
    ///
    /// On the first rank the session reads `input`, answers on `output` and uses `hooks`; on every other rank it
    /// reads the lines the first rank forwards and its output goes nowhere (`input`, `output` and `hooks` are
    /// not used there: a `Debug Log File` shared by every rank would mix their logs).
    ///
    /// # Errors
    /// As [`eldest_uci::run_with`].
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LineWriter, LocalTransport};
    ///
    /// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
    /// let (sender, lines) = std::sync::mpsc::channel();
    /// let input = "position startpos moves e2e4 e7e5\ngo depth 3\n";
    /// cluster.run_uci(input.as_bytes(), LineWriter::new(sender), Default::default())?;
    /// // The end of the input stops the search, which still answers.
    /// let answers: Vec<String> = lines.try_iter().collect();
    /// assert!(answers.last().unwrap().starts_with("bestmove "));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_uci(
        self,
        input: impl BufRead,
        output: impl Write + Send + 'static,
        hooks: eldest_uci::SessionHooks,
    ) -> io::Result<()> {
        let Cluster { link, lines, thread } = self;
        let result = match lines {
            None => {
                let forward = Arc::clone(&link);
                let hooks = hooks
                    .on_input_line(move |line| {
                        if forward.size() > 1 {
                            forward.send(Outgoing::ToOthers(Control::Line(line.to_string())));
                        }
                    })
                    .search_runner(Arc::new(FirstRankRunner::new(Arc::clone(&link))));
                let result = eldest_uci::run_with(input, output, hooks);
                if link.size() > 1 {
                    link.send(Outgoing::ToOthers(Control::Line("quit".to_string())));
                }
                result
            }
            Some(lines) => {
                let hooks = eldest_uci::SessionHooks::new()
                    .search_runner(Arc::new(OtherRankRunner::new(Arc::clone(&link))));
                eldest_uci::run_with(LineChannel::new(lines), io::sink(), hooks)
            }
        };
        link.send(Outgoing::Shutdown);
        // Every rank leaves the rounds together; a rank that died or hangs never completes the round in flight,
        // and then the communication thread is left behind rather than the process hanging in its exit.
        let deadline = std::time::Instant::now() + SHUTDOWN_TIMEOUT;
        while !thread.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        if !thread.is_finished() {
            tracing::warn!(
                rank = link.rank(),
                "the exchange did not end within {} ms (a rank is gone); leaving without it",
                SHUTDOWN_TIMEOUT.as_millis()
            );
            return result;
        }
        if thread.join().is_err() {
            return Err(io::Error::other("the communication thread failed"));
        }
        result
    }
}
