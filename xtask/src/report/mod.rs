//! Output writers shared by the measuring commands: the description of the machine and build every result
//! file carries, terminal tables, CSV, JSON and SVG charts.

pub mod charts;
pub mod csv;
pub mod machine;
pub mod table;

use serde::Serialize;
use std::path::Path;

/// Writes `value` as pretty JSON to `path`.
///
/// # Errors
/// When the file cannot be written.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text =
        serde_json::to_string_pretty(value).map_err(|e| format!("cannot encode {}: {e}", path.display()))?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads JSON written by [`write_json`].
///
/// # Errors
/// When the file cannot be read or does not hold a `T`.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a result file of this tool: {e}", path.display()))
}
