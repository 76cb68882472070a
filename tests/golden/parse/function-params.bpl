// Named and unnamed function formals, as Boogie resolves them.
function ok(x, y: int, bool): int;
function bad([int]int: int, z: int): int;
function last(x: int, int, y): int;
