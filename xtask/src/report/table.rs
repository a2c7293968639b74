//! Plain-text tables for the terminal (aligned by `comfy-table`) and Markdown tables for the docs, from the same
//! rows. The Markdown is written here: it needs no alignment, only the `---:` marks that right-align numbers.

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

    /// Aligned columns (by `comfy-table`): the first left-aligned, the others right-aligned (they hold numbers),
    /// a rule under the header, no borders.
    pub fn to_text(&self) -> String {
        let mut table = comfy_table::Table::new();
        table
            .load_preset(comfy_table::presets::NOTHING)
            .set_style(comfy_table::TableComponent::HeaderLines, '-')
            .set_header(&self.header)
            .add_rows(&self.rows);
        for (index, column) in table.column_iter_mut().enumerate() {
            if index == 0 {
                column.set_padding((0, 1));
            } else {
                column.set_cell_alignment(comfy_table::CellAlignment::Right);
            }
        }
        let mut text = table.trim_fmt();
        text.push('\n');
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
