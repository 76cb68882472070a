#if FILE_0
const first: int;
#else
const notFirst: int;
#endif
#if FILE_1
const second: int;
#endif
