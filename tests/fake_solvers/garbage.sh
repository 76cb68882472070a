#!/bin/sh
# A solver that answers check-sat with something that is not SMT-LIB.
while IFS= read -r line; do
  case "$line" in
    *check-sat*) echo "Segmentation fault (core dumped) at 0x7f3a" ;;
  esac
done
