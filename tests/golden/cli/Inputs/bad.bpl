procedure Q()
{
  assume false
}
