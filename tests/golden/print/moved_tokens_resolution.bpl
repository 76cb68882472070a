// OPTIONS: /print:- /env:0 /noVerify
// Name resolution after the print reports the printed places too: the cyclic synonym at its
// `type` (column 0, printed as -1), the type applied to too many arguments where the type
// starts (after `const c: `).
type Loop = Loop;
type Box _;
const c: Box int int;
