//! board (being written)
