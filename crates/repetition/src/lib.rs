//! eldest-repetition (being written).
