//! CSV documents for spreadsheets and plotting scripts, built row by row on the `csv` crate (RFC 4180 quoting).

/// A CSV document built row by row.
#[derive(Debug)]
pub struct Csv {
    writer: csv::Writer<Vec<u8>>,
    columns: usize,
}

impl Csv {
    /// A document with this header row.
    pub fn new<S: AsRef<str>>(header: &[S]) -> Csv {
        let mut csv = Csv {
            writer: csv::Writer::from_writer(Vec::new()),
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
        // Writing to a Vec cannot fail, and every row has the header's length (checked above).
        self.writer
            .write_record(cells.iter().map(AsRef::as_ref))
            .expect("a CSV row written to memory");
    }

    /// The document.
    pub fn text(self) -> String {
        // Flushing into a Vec cannot fail; the cells were &str, so the bytes are UTF-8.
        let bytes = self.writer.into_inner().expect("a CSV document in memory");
        String::from_utf8_lossy(&bytes).into_owned()
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
