const limit: int where limit > 0;
