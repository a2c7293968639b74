//! eldest-tt (being written).
