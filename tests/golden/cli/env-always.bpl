// OPTIONS: /env:2 /noResolve %s
// /env:2 echoes the command line on stdout before anything else.
const c: int;
