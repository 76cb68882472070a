axiom 1 +;
// A byte order mark starts this file; it is not part of the text, so the error above stands
// at column 10, as Boogie says.
