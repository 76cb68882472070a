procedure P(x: bv32) returns (r: bv8)
{
  r := x[7:0];
  r := x[(15:8)];
  r := x[x:0];
}
