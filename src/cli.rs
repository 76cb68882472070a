//! The command line (stub).
