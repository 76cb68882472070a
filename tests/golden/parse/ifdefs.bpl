// Lines between #if and #endif count only when their condition holds.
#if SOMETHING_UNDEFINED
this is not Boogie at all
#elsif !ALSO_UNDEFINED
procedure Kept();
#else
neither is this
#endif
