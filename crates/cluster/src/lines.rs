//! [`LineChannel`]: the input of a rank other than the first, the lines the first rank forwards, read by the
//! rank's UCI session as a GUI's lines would be.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::Receiver;

/// A [`BufRead`] over lines arriving on a channel; the channel's end is the input's end.
///
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
