//! Rendering diagnostics (stub).
