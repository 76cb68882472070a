// Function bodies: inline bodies must have the result type; other bodies are definition
// axioms, where the result must be comparable with the body.
function {:inline} A(): int { true }
function {:inline} B<T>(x: T): T { 0 }
function C(x: int): bool { x + 1 }
function D<T>(x: T): T { 0 }
function {:inline} E(): bool { 1 + true }
