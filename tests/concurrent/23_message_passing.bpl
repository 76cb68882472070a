// Message passing: the producer writes the data, then raises `ready`; the consumer waits for
// `ready` and reads the data. Interleavings keep program order, so the consumer reads 42.
// RUN: /k:2 => no bugs
// RUN: /k:3 => no bugs
var data: int;
var ready: bool;

procedure producer()
{
  data := 42;
  ready := true;
}

procedure consumer()
{
  assume ready;
  assert data == 42;
}

procedure main()
{
  data := 0;
  ready := false;
  async call consumer();
  async call producer();
}
