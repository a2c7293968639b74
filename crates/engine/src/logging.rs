//! Diagnostics through `tracing`, never on stdout (which belongs to the UCI protocol).
//!
//! Events go to stderr when `RUST_LOG` is set (with its filter), or to the file named by the UCI option
//! `Debug Log File` (at `debug` level unless `RUST_LOG` says otherwise), which replaces stderr while it is set.
//! With neither, every event is dropped by a dynamic filter that costs one atomic load.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tracing_subscriber::filter::{EnvFilter, dynamic_filter_fn};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::prelude::*;

/// Where log lines go now.
#[derive(Debug)]
enum Target {
    /// Nowhere: logging is off.
    Off,
    /// Standard error (`RUST_LOG` is set).
    Stderr,
    /// The `Debug Log File`.
    File(File),
}

#[derive(Debug)]
struct Shared {
    target: Mutex<Target>,
    /// Whether `target` is not `Off`, readable without the lock.
    active: AtomicBool,
    /// Whether `RUST_LOG` asked for stderr (the target to return to when the log file is unset).
    stderr: bool,
}

/// A handle to the switchable log destination, cheap to clone.
#[derive(Debug, Clone)]
pub struct LogDestination(Arc<Shared>);

impl LogDestination {
    /// Installs the global subscriber and returns the handle through which `Debug Log File` switches its
    /// destination. Call once, before anything logs.
    pub fn install() -> LogDestination {
        let rust_log = std::env::var("RUST_LOG").ok().filter(|v| !v.trim().is_empty());
        let stderr = rust_log.is_some();
        let shared = Arc::new(Shared {
            target: Mutex::new(if stderr { Target::Stderr } else { Target::Off }),
            active: AtomicBool::new(stderr),
            stderr,
        });
        let filter = match &rust_log {
            Some(directives) => EnvFilter::try_new(directives).unwrap_or_else(|error| {
                eprintln!("warning: RUST_LOG {directives:?} is invalid ({error}); logging at debug level");
                EnvFilter::new("debug")
            }),
            None => EnvFilter::new("debug"),
        };
        let destination = LogDestination(shared);
        let active = destination.clone();
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(destination.clone())
            .with_ansi(false)
            .with_thread_names(true)
            .with_filter(filter)
            // Dynamic: a plain `filter_fn` would cache "never" for every callsite first hit while logging is off.
            .with_filter(dynamic_filter_fn(move |_, _| {
                active.0.active.load(Ordering::Relaxed)
            }));
        // Another subscriber may already be installed (in tests); then it keeps the events.
        let _ = tracing_subscriber::registry().with(layer).try_init();
        destination
    }

    /// Sends the log to `path` (appending), or back to its default (stderr with `RUST_LOG`, else off) when
    /// `path` is empty.
    ///
    /// # Errors
    /// A message when the file cannot be opened; the destination is then unchanged.
    pub fn set_file(&self, path: &str) -> Result<(), String> {
        let target = if path.is_empty() {
            if self.0.stderr {
                Target::Stderr
            } else {
                Target::Off
            }
        } else {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|error| format!("cannot open '{path}': {error}"))?;
            Target::File(file)
        };
        let active = !matches!(target, Target::Off);
        *self.0.target.lock().unwrap_or_else(PoisonError::into_inner) = target;
        self.0.active.store(active, Ordering::Relaxed);
        tracing::debug!(path, "debug log file set");
        Ok(())
    }
}

/// Writes one formatted event to the current target.
#[derive(Debug)]
pub struct LogWriter<'a>(&'a Shared);

impl Write for LogWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut *self.0.target.lock().unwrap_or_else(PoisonError::into_inner) {
            Target::Off => Ok(bytes.len()),
            Target::Stderr => io::stderr().write(bytes),
            Target::File(file) => file.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut *self.0.target.lock().unwrap_or_else(PoisonError::into_inner) {
            Target::Off => Ok(()),
            Target::Stderr => io::stderr().flush(),
            Target::File(file) => file.flush(),
        }
    }
}

impl<'a> MakeWriter<'a> for LogDestination {
    type Writer = LogWriter<'a>;

    fn make_writer(&'a self) -> LogWriter<'a> {
        LogWriter(&self.0)
    }
}
