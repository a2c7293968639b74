//! Sessions fed and read line by line over channels: [`LineChannel`], the input of a rank other than the first
//! (the lines the first rank forwards, read by the rank's UCI session as a GUI's lines would be), and
//! [`LineWriter`], a session's output passed on line by line (the cluster bench reads the first rank's answers so).

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender};

/// A [`BufRead`] over lines arriving on a channel; the channel's end is the input's end.
///
/// # Examples
/// ```
/// use std::io::BufRead;
/// let (sender, receiver) = std::sync::mpsc::channel();
/// sender.send("isready".to_string()).unwrap();
/// drop(sender);
/// let lines: Vec<String> = eldest_cluster::LineChannel::new(receiver).lines().map(Result::unwrap).collect();
/// assert_eq!(lines, ["isready"]);
/// ```
#[derive(Debug)]
pub struct LineChannel {
    receiver: Receiver<String>,
    current: Vec<u8>,
    position: usize,
}

impl LineChannel {
    /// Reads the lines `receiver` gets.
    ///
    /// # Examples
    /// ```
    /// use std::io::BufRead;
    ///
    /// let (sender, receiver) = std::sync::mpsc::channel();
    /// let mut input = eldest_cluster::LineChannel::new(receiver);
    /// sender.send("go depth 1".to_string()).unwrap();
    /// let mut line = String::new();
    /// input.read_line(&mut line)?;
    /// // The newline comes back, as a session reading a pipe expects.
    /// assert_eq!(line, "go depth 1\n");
    /// drop(sender);
    /// assert_eq!(input.read_line(&mut line)?, 0);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(receiver: Receiver<String>) -> LineChannel {
        LineChannel {
            receiver,
            current: Vec::new(),
            position: 0,
        }
    }
}

impl Read for LineChannel {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let count = available.len().min(buffer.len());
        buffer[..count].copy_from_slice(&available[..count]);
        self.consume(count);
        Ok(count)
    }
}

impl BufRead for LineChannel {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.position == self.current.len() {
            match self.receiver.recv() {
                Ok(line) => {
                    self.current = line.into_bytes();
                    self.current.push(b'\n');
                    self.position = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.current[self.position..])
    }

    fn consume(&mut self, amount: usize) {
        self.position = (self.position + amount).min(self.current.len());
    }
}

/// A [`Write`] that sends every complete line written to it (without its newline) down a channel; writing fails
/// once the receiving end is gone, as a closed pipe does.
///
/// # Examples
/// ```
/// use std::io::Write;
/// let (sender, receiver) = std::sync::mpsc::channel();
/// let mut writer = eldest_cluster::LineWriter::new(sender);
/// write!(writer, "readyok\nbest")?;
/// writeln!(writer, "move e2e4")?;
/// assert_eq!(receiver.try_iter().collect::<Vec<_>>(), ["readyok", "bestmove e2e4"]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct LineWriter {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl LineWriter {
    /// Sends the lines written to `lines`.
    ///
    /// # Examples
    /// ```
    /// use std::io::Write;
    ///
    /// let (sender, receiver) = std::sync::mpsc::channel();
    /// let mut writer = eldest_cluster::LineWriter::new(sender);
    /// writeln!(writer, "uciok")?;
    /// assert_eq!(receiver.recv().unwrap(), "uciok");
    /// // With the reader gone the session sees a broken pipe and ends.
    /// drop(receiver);
    /// let error = writeln!(writer, "readyok").unwrap_err();
    /// assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(lines: Sender<String>) -> LineWriter {
        LineWriter {
            lines,
            partial: Vec::new(),
        }
    }
}

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_string();
            self.lines
                .send(text)
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "nobody reads the lines any more"))?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
