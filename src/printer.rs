//! Printing a tree back as Boogie text (stub).
