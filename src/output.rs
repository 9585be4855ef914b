//! Participant output: one reader thread per pipe turns bytes into lines for the
//! supervisor, and each participant keeps its last lines for the failure report.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::Sender;

/// Which of a participant's pipes a line came from (it is echoed to the same one of ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
}

/// What reader threads send to the supervisor; `who` indexes the launched participants.
pub enum Event {
    Line { who: usize, stream: Stream, text: String },
    Closed { who: usize },
}

/// Forwards the lines of `pipe` until it closes (invalid UTF-8 is replaced, never fatal).
pub fn forward(who: usize, stream: Stream, pipe: impl Read + Send + 'static, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Event::Line { who, stream, text }).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Event::Closed { who });
    });
}

/// The last `cap` lines a participant printed, for the message when it fails.
pub struct Tail {
    lines: VecDeque<String>,
    cap: usize,
}

impl Tail {
    pub fn new(cap: usize) -> Self {
        Tail { lines: VecDeque::with_capacity(cap), cap }
    }
    pub fn push(&mut self, line: &str) {
        if self.lines.len() == self.cap {
            self.lines.pop_front();
        }
        self.lines.push_back(line.to_string());
    }
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(String::as_str)
    }
}
