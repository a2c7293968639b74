//! [`MpiTransport`]: the ranks of an MPI job (`mpirun -np N eldest`).

use crate::transport::Transport;
use mpi::Threading;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// The tag of control messages; the exchange rounds are collectives and need none.
const CONTROL_TAG: mpi::Tag = 7;

/// This process's rank in `MPI_COMM_WORLD`. MPI is initialised by [`MpiTransport::connect`] and finalised
/// when the transport is dropped, both on the communication thread, the only thread that calls MPI
/// (`MPI_THREAD_FUNNELED`).
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
    // Dropped first: the world before the universe, whose drop finalises MPI.
    world: SimpleCommunicator,
    _universe: mpi::environment::Universe,
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
        let (universe, threading) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| "MPI was already initialised in this process".to_string())?;
        if threading == Threading::Single {
            return Err("the MPI library offers no thread support (MPI_THREAD_FUNNELED needed)".to_string());
        }
        let world = universe.world();
        Ok(MpiTransport {
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
