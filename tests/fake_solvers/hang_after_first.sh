#!/bin/sh
# A solver that proves the first query at once, then never answers again. It says how many
# resources it spent when asked (`/trace` asks z3 after each check, as Boogie does).
n=0
while IFS= read -r line; do
  case "$line" in
    *check-sat*)
      n=$((n + 1))
      if [ "$n" -ge 2 ]; then exec sleep 600; fi
      echo unsat ;;
    *get-info*:rlimit*)
      echo "(:rlimit 1)" ;;
  esac
done
