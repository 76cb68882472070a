axiom (exists bool b :: b);
