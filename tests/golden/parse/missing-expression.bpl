procedure P() { var x: int; x := ; }
