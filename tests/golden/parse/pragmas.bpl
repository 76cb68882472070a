// #line renumbers the lines that follow; other pragmas are errors.
#line 100 original.c
procedure P() { assert true; }
#pragma once
#line x
procedure Q() { assert true }
