#!/bin/sh
# A solver that answers the first check-sat, then exits in the middle of the second.
n=0
while IFS= read -r line; do
  case "$line" in
    *check-sat*)
      n=$((n + 1))
      if [ "$n" -ge 2 ]; then exit 139; fi
      echo unsat ;;
  esac
done
