#!/bin/sh
# A solver that proves the first query at once, then never answers again.
n=0
while IFS= read -r line; do
  case "$line" in
    *check-sat*)
      n=$((n + 1))
      if [ "$n" -ge 2 ]; then exec sleep 600; fi
      echo unsat ;;
  esac
done
