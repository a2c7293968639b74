//! Plain-text tables for the terminal and Markdown tables for the docs, from the same rows.

/// A table: a header and rows of cells, every row as long as the header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names.
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Table {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row; missing cells are left blank and extra cells dropped, so the shape always holds.
    pub fn push<S: Into<String>>(&mut self, row: impl IntoIterator<Item = S>) {
        let mut cells: Vec<String> = row.into_iter().map(Into::into).collect();
        cells.resize(self.header.len(), String::new());
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        widths
    }

    /// Aligned columns: the first left-aligned, the others right-aligned (they hold numbers).
    pub fn to_text(&self) -> String {
        let widths = self.widths();
        let line = |cells: &[String]| -> String {
            let parts: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (cell, &w))| {
                    if i == 0 {
                        format!("{cell:<w$}")
                    } else {
                        format!("{cell:>w$}")
                    }
                })
                .collect();
            parts.join("  ").trim_end().to_string()
        };
        let mut text = line(&self.header) + "\n";
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        text += &(rule.join("  ") + "\n");
        for row in &self.rows {
            text += &(line(row) + "\n");
        }
        text
    }

    /// A Markdown table.
    pub fn to_markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let mut text = line(&self.header);
        let rule: Vec<String> = self
            .header
            .iter()
            .enumerate()
            .map(|(i, _)| {
                if i == 0 {
                    "---".to_string()
                } else {
                    "---:".to_string()
                }
            })
            .collect();
        text += &line(&rule);
        for row in &self.rows {
            text += &line(row);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_columns_align_and_rows_keep_the_header_shape() {
        let mut table = Table::new(["algorithm", "speedup"]);
        table.push(["lazy", "1.02"]);
        table.push(["simplified-abdada", "1.71", "extra"]);
        table.push(["ybwc"]);
        let text = table.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "algorithm          speedup");
        assert_eq!(lines[2], "lazy                  1.02");
        assert_eq!(lines[3], "simplified-abdada     1.71");
        assert_eq!(lines[4], "ybwc");
        assert_eq!(
            table.to_markdown().lines().nth(1),
            Some("| --- | ---: |"),
            "numbers right-aligned in Markdown too"
        );
    }
}
