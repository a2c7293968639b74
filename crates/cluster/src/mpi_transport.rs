//! [`MpiTransport`]: the ranks of an MPI job (`mpirun -np N eldest`), and the owner ranks' counters of
//! `ClusterBusyOwners` as one MPI window reached with one-sided atomics.

use crate::owners::{BusyOwners, OWNER_SLOTS, RemoteCounters};
use crate::transport::Transport;
use mpi::Threading;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::os::raw::{c_int, c_void};
use std::sync::{Arc, RwLock};

/// The tag of control messages; the exchange rounds are collectives and need none.
const CONTROL_TAG: mpi::Tag = 7;

/// This process's rank in `MPI_COMM_WORLD`. MPI is initialised by [`MpiTransport::connect`] and finalised
/// when the transport is dropped, both on the communication thread, which makes every MPI call but those of
/// the owner counters (`ClusterBusyOwners`): those come from the search threads, and exist only where the
/// library gives `MPI_THREAD_MULTIPLE`.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, MpiTransport};
///
/// // MPI belongs to the thread that makes every MPI call: the communication thread connects.
/// let cluster = Cluster::start(MpiTransport::connect)?;
/// // Started without `mpirun`, the process is a world of one.
/// assert_eq!((cluster.link().rank(), cluster.link().size()), (0, 1));
/// # Ok::<(), String>(())
/// ```
pub struct MpiTransport {
    /// The owner counters' window; closed (freed, collectively) in `drop`, before MPI is finalised.
    counters: Option<Arc<CounterWindow>>,
    // Dropped first: the world before the universe, whose drop finalises MPI.
    world: SimpleCommunicator,
    _universe: mpi::environment::Universe,
}

impl Drop for MpiTransport {
    fn drop(&mut self) {
        if let Some(counters) = &self.counters {
            counters.close();
        }
    }
}

impl std::fmt::Debug for MpiTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MpiTransport")
            .field("rank", &self.world.rank())
            .field("size", &self.world.size())
            .finish()
    }
}

impl MpiTransport {
    /// Initialises MPI and joins `MPI_COMM_WORLD` (a process started without `mpirun` is a world of one).
    ///
    /// Where the library gives `MPI_THREAD_MULTIPLE`, every rank also allocates its slice of the owner counters
    /// (a window of [`OWNER_SLOTS`] 64-bit integers; collective), for searches with `ClusterBusyOwners`.
    ///
    /// # Errors
    /// MPI was already initialised, or the library cannot give the funneled threading the rank needs.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{MpiTransport, Transport};
    ///
    /// let transport = MpiTransport::connect()?;
    /// assert!(transport.rank() < transport.size());
    /// // MPI is initialised once per process: a second transport is refused, not a second world.
    /// assert!(MpiTransport::connect().is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn connect() -> Result<MpiTransport, String> {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Multiple)
            .ok_or_else(|| "MPI was already initialised in this process".to_string())?;
        if threading == Threading::Single {
            return Err("the MPI library offers no thread support (MPI_THREAD_FUNNELED needed)".to_string());
        }
        let world = universe.world();
        // Every rank gets the same threading level from the same library, so all or none take part in this
        // collective allocation.
        let counters = (threading == Threading::Multiple).then(|| Arc::new(CounterWindow::allocate(&world)));
        Ok(MpiTransport {
            counters,
            world,
            _universe: universe,
        })
    }
}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&self, to: usize, message: &[u8]) {
        self.world
            .process_at_rank(to as mpi::Rank)
            .send_with_tag(message, CONTROL_TAG);
    }

    fn try_receive(&self) -> Option<(usize, Vec<u8>)> {
        let probed = self
            .world
            .any_process()
            .immediate_matched_probe_with_tag(CONTROL_TAG)?;
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        Some((status.source_rank() as usize, bytes))
    }

    fn busy_owners(&self) -> Option<BusyOwners> {
        self.counters
            .as_ref()
            .map(|window| BusyOwners::new(Arc::clone(window)))
    }

    fn all_gather(&self, batch: &[u8], gathered: &mut [u8], meanwhile: &mut dyn FnMut()) {
        mpi::request::scope(|scope| {
            let mut request = self.world.immediate_all_gather_into(scope, batch, gathered);
            loop {
                match request.test() {
                    Ok(_) => break,
                    Err(pending) => {
                        request = pending;
                        meanwhile();
                    }
                }
            }
        });
    }
}

/// Every rank's slice of the owner counters: an MPI window of [`OWNER_SLOTS`] `i64` a rank, inside one
/// passive-target access epoch (`MPI_Win_lock_all`) from its allocation to [`close`](CounterWindow::close), so
/// that each addition is one `MPI_Fetch_and_op` and one `MPI_Win_flush` to its owner: a round trip that the
/// owner's threads take no part in.
struct CounterWindow {
    /// The window; `None` once closed. Read-locked by every addition, write-locked to close.
    window: RwLock<Option<ffi::MPI_Win>>,
    ranks: usize,
}

// SAFETY: `ffi::MPI_Win` is a handle (a pointer into the MPI library) with no thread affinity of its own. A
// `CounterWindow` exists only when MPI was initialised with `MPI_THREAD_MULTIPLE` (`MpiTransport::connect`), under
// which any thread may call MPI, concurrently, on the same window; the handle is used only in such calls, while
// a read lock shows the window open, and freed under the write lock, after which nobody uses it.
unsafe impl Send for CounterWindow {}
// SAFETY: as for `Send`: shared use is concurrent MPI calls, which `MPI_THREAD_MULTIPLE` allows.
unsafe impl Sync for CounterWindow {}

impl CounterWindow {
    /// Allocates this rank's slice (collective over `world`), zeroes it, and opens the epoch once every rank
    /// has zeroed its own.
    fn allocate(world: &SimpleCommunicator) -> CounterWindow {
        let mut base: *mut i64 = std::ptr::null_mut();
        // SAFETY: reading an initialised extern constant of the MPI shim.
        let mut window = unsafe { ffi::RSMPI_WIN_NULL };
        let element = std::mem::size_of::<i64>();
        // SAFETY: MPI is initialised and `world` is a valid communicator every rank passes, in the same order
        // of collective calls (`connect`, on each rank's communication thread); `baseptr` is a `void **` in the
        // C prototype, pointed at `base`, which receives the address of `OWNER_SLOTS * 8` bytes MPI allocates
        // for this rank; `window` receives the handle. MPI's default error handler ends the job on failure.
        unsafe {
            ffi::MPI_Win_allocate(
                (OWNER_SLOTS * element) as ffi::MPI_Aint,
                element as c_int,
                ffi::RSMPI_INFO_NULL,
                world.as_raw(),
                (&mut base as *mut *mut i64).cast::<c_void>(),
                &mut window,
            );
        }
        // SAFETY: `base` points to the `OWNER_SLOTS` `i64` just allocated for this process, which no other rank
        // reaches before the barrier below (no epoch is open yet).
        unsafe { std::ptr::write_bytes(base, 0, OWNER_SLOTS) };
        world.barrier();
        // SAFETY: `window` is the valid window just created; a shared lock of every rank's slice, held until
        // `close` unlocks it.
        unsafe { ffi::MPI_Win_lock_all(0, window) };
        CounterWindow {
            window: RwLock::new(Some(window)),
            ranks: world.size() as usize,
        }
    }

    /// Ends the epoch and frees the window (collective: every rank's communication thread calls it as it
    /// leaves the cluster). Additions after it return 0.
    fn close(&self) {
        let mut window = self.window.write().unwrap_or_else(|e| e.into_inner());
        if let Some(mut open) = window.take() {
            // SAFETY: `open` is the valid window whose epoch `allocate` opened; no addition is in flight (they
            // hold the read lock) and none will use it again (it is taken out under the write lock).
            unsafe {
                ffi::MPI_Win_unlock_all(open);
                ffi::MPI_Win_free(&mut open);
            }
        }
    }

    fn fetch_add(&self, owner: usize, slot: usize, delta: i64) -> i64 {
        let window = self.window.read().unwrap_or_else(|e| e.into_inner());
        let Some(open) = *window else {
            return 0;
        };
        let mut before: i64 = 0;
        // SAFETY: `open` is a valid window inside its epoch (read lock held); `owner` is a rank of the window's
        // communicator and `slot` a displacement inside its slice (`BusyOwners::place` keeps both in range,
        // and a displacement counts `i64` elements, the window's unit); the origin and result buffers are two
        // distinct live `i64` of this frame, and the flush completes the operation before they go out of scope.
        unsafe {
            ffi::MPI_Fetch_and_op(
                (&delta as *const i64).cast::<c_void>(),
                (&mut before as *mut i64).cast::<c_void>(),
                ffi::RSMPI_INT64_T,
                owner as c_int,
                slot as ffi::MPI_Aint,
                ffi::RSMPI_SUM,
                open,
            );
            ffi::MPI_Win_flush(owner as c_int, open);
        }
        before
    }
}

impl std::fmt::Debug for CounterWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CounterWindow")
            .field("ranks", &self.ranks)
            .finish_non_exhaustive()
    }
}

/// One rank's exchange reaches the window through a shared handle; the transport keeps another to close it.
impl RemoteCounters for Arc<CounterWindow> {
    fn ranks(&self) -> usize {
        self.ranks
    }

    fn fetch_add(&self, owner: usize, slot: usize, delta: i64) -> i64 {
        CounterWindow::fetch_add(self, owner, slot, delta)
    }
}
