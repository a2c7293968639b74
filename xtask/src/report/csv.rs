//! CSV writing (RFC 4180 quoting) for spreadsheets and plotting scripts.

use std::fmt::Write as _;

/// A CSV document built row by row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Csv {
    text: String,
    columns: usize,
}

impl Csv {
    /// A document with this header row.
    pub fn new<S: AsRef<str>>(header: &[S]) -> Csv {
        let mut csv = Csv {
            text: String::new(),
            columns: header.len(),
        };
        csv.row(header);
        csv
    }

    /// Appends a row; it must have as many cells as the header.
    ///
    /// # Panics
    /// When the row's length differs from the header's (a programming error in the caller).
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        assert_eq!(cells.len(), self.columns, "a CSV row must match its header");
        let quoted: Vec<String> = cells.iter().map(|c| quote(c.as_ref())).collect();
        let _ = writeln!(self.text, "{}", quoted.join(","));
    }

    /// The document.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// A cell, quoted when it holds a comma, a quote or a line break.
fn quote(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_only_when_needed() {
        let mut csv = Csv::new(&["name", "value"]);
        csv.row(&["plain", "1.5"]);
        csv.row(&["with, comma", "say \"hi\""]);
        assert_eq!(
            csv.text(),
            "name,value\nplain,1.5\n\"with, comma\",\"say \"\"hi\"\"\"\n"
        );
    }
}
