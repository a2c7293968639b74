//! The one writer of the engine's output, shared by the command loop and the search thread.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A cloneable handle to the engine's output (stdout in the binary). Every line is written whole under a lock
/// and flushed at once, so lines from the loop (`readyok`) and from the search (`info`, `bestmove`) never
/// interleave and the GUI sees each as soon as it is written.
///
/// A failed write (the GUI closed the pipe) is remembered: [`is_broken`](Output::is_broken) tells the loop to
/// end, and later writes are skipped.
///
/// # Examples
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use eldest_uci::Output;
///
/// /// Collects what is written, for the example to read back.
/// #[derive(Clone, Default)]
/// struct Transcript(Arc<Mutex<Vec<u8>>>);
/// impl std::io::Write for Transcript {
///     fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(bytes) }
///     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// }
///
/// let transcript = Transcript::default();
/// let out = Output::new(transcript.clone());
/// // The search thread gets a clone: both write through the one lock, so lines never interleave.
/// let for_search = out.clone();
/// out.send("readyok");
/// for_search.send("bestmove e2e4");
/// assert_eq!(*transcript.0.lock().unwrap(), b"readyok\nbestmove e2e4\n");
/// ```
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("broken", &self.is_broken())
            .finish_non_exhaustive()
    }
}

impl Output {
    /// Wraps a writer.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::Output;
    ///
    /// // Any writer will do: the binary passes stdout, tests a buffer.
    /// let out = Output::new(std::io::sink());
    /// assert!(out.line("uciok").is_ok());
    /// assert!(!out.is_broken());
    /// ```
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            writer: Arc::new(Mutex::new(Box::new(writer))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes `text` and a newline, then flushes. `text` may hold several lines (a board, a perft divide): they
    /// are written together.
    ///
    /// # Errors
    /// The writer's error; the output is then [broken](Output::is_broken).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[derive(Clone, Default)]
    /// # struct Transcript(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    /// # impl std::io::Write for Transcript {
    /// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
    /// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// # }
    /// # impl Transcript {
    /// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
    /// # }
    /// use eldest_uci::Output;
    ///
    /// let transcript = Transcript::default();
    /// let out = Output::new(transcript.clone());
    /// // A text of several lines (a board, a perft divide) goes out whole, with one final newline.
    /// out.line("a2a3: 20\na2a4: 20")?;
    /// assert_eq!(transcript.text(), "a2a3: 20\na2a4: 20\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn line(&self, text: &str) -> io::Result<()> {
        if self.is_broken() {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the output failed earlier",
            ));
        }
        for line in text.lines() {
            tracing::debug!(target: "eldest_uci::io", ">> {line}");
        }
        let mut writer = self
            .writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let written = writer
            .write_all(text.as_bytes())
            .and_then(|()| writer.write_all(b"\n"))
            .and_then(|()| writer.flush());
        if let Err(error) = &written {
            tracing::warn!("output failed: {error}");
            self.broken.store(true, Ordering::Release);
        }
        written
    }

    /// [`line`](Output::line) for callers that cannot act on a failure (the search thread): the failure is
    /// remembered and ends the command loop.
    ///
    /// # Examples
    ///
    /// ```
    /// # struct Closed;
    /// # impl std::io::Write for Closed {
    /// #     fn write(&mut self, _: &[u8]) -> std::io::Result<usize> { Err(std::io::Error::other("closed")) }
    /// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// # }
    /// use eldest_uci::Output;
    ///
    /// let out = Output::new(Closed);
    /// // No error to handle: the failure is remembered and ends the command loop.
    /// out.send("bestmove e2e4");
    /// assert!(out.is_broken());
    /// ```
    pub fn send(&self, text: &str) {
        let _ = self.line(text);
    }

    /// An `info string` line.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[derive(Clone, Default)]
    /// # struct Transcript(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    /// # impl std::io::Write for Transcript {
    /// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
    /// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// # }
    /// # impl Transcript {
    /// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
    /// # }
    /// use eldest_uci::Output;
    ///
    /// let transcript = Transcript::default();
    /// let out = Output::new(transcript.clone());
    /// // A newline would start a line the GUI cannot parse: it becomes a space.
    /// out.info_string("bad value\nunchanged");
    /// assert_eq!(transcript.text(), "info string bad value unchanged\n");
    /// ```
    pub fn info_string(&self, text: &str) {
        // An info string is one line: a newline inside it would start a line the GUI cannot parse.
        let single: String = text
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        self.send(&format!("info string {single}"));
    }

    /// Whether a write has failed.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::Output;
    ///
    /// /// A GUI that has closed its end of the pipe.
    /// struct Closed;
    /// impl std::io::Write for Closed {
    ///     fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
    ///         Err(std::io::ErrorKind::BrokenPipe.into())
    ///     }
    ///     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// }
    ///
    /// let out = Output::new(Closed);
    /// assert!(!out.is_broken());
    /// assert!(out.line("readyok").is_err());
    /// assert!(out.is_broken());
    /// ```
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer into a shared buffer.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_are_terminated_and_info_strings_kept_on_one_line() {
        let buffer = Shared::default();
        let output = Output::new(buffer.clone());
        output.line("readyok").unwrap();
        output.info_string("bad\nthing");
        assert_eq!(
            String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap(),
            "readyok\ninfo string bad thing\n"
        );
    }

    #[test]
    fn a_failed_write_breaks_the_output() {
        let output = Output::new(Closed);
        assert!(!output.is_broken());
        output.send("bestmove e2e4");
        assert!(output.is_broken());
        assert!(output.line("readyok").is_err());
    }
}
