//! Output writers shared by the measuring commands: the description of the machine and build every result
//! file carries, terminal tables, CSV, JSON and SVG charts.

pub mod charts;
pub mod csv;
pub mod machine;
pub mod table;

use serde::Serialize;
use std::io::Read;
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

/// Reads JSON written by [`write_json`], gzip-compressed where the name ends in `.gz` (as the result files
/// committed under docs/bench/ are).
///
/// # Errors
/// When the file cannot be read or decompressed, or does not hold a `T`.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = if path.extension().is_some_and(|extension| extension == "gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot decompress {} as gzip: {e}", path.display()))?;
        text
    } else {
        String::from_utf8(bytes).map_err(|e| format!("{} is not UTF-8 text: {e}", path.display()))?
    };
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a result file of this tool: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn gzipped_and_plain_json_read_alike_and_bad_files_say_why() {
        let folder = std::env::temp_dir().join(format!("eldest-read-json-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let value = vec![1.5, 2.25];
        let plain = folder.join("bench.json");
        write_json(&plain, &value).unwrap();
        let zipped = folder.join("bench.json.gz");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&std::fs::read(&plain).unwrap()).unwrap();
        std::fs::write(&zipped, encoder.finish().unwrap()).unwrap();
        assert_eq!(read_json::<Vec<f64>>(&plain).unwrap(), value);
        assert_eq!(read_json::<Vec<f64>>(&zipped).unwrap(), value);

        let not_gzip = folder.join("plain.json.gz");
        std::fs::copy(&plain, &not_gzip).unwrap();
        let error = read_json::<Vec<f64>>(&not_gzip).unwrap_err();
        assert!(
            error.contains("cannot decompress") && error.contains("plain.json.gz"),
            "{error}"
        );
        let error = read_json::<Vec<String>>(&zipped).unwrap_err();
        assert!(error.contains("not a result file"), "{error}");
        let error = read_json::<Vec<f64>>(&folder.join("absent.json.gz")).unwrap_err();
        assert!(error.contains("cannot read"), "{error}");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
