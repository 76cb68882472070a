function {:inline} {:define} twice(x: int): int { x + x }
function {:define} id<T>(x: T): T { x }
