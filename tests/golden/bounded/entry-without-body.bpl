// OPTIONS: /main:ext
// EXIT: 1
// The entry point must have an implementation.
procedure ext();
