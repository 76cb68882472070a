#!/bin/sh
# A solver that proves every query at once, except a query that mentions `hungry`: for that
# one it takes ever more memory (some 260 MB: a string doubled until it is 256 MB long) and
# never answers. rboogie should stop it at its memory limit.
hungry=0
while IFS= read -r line; do
  case "$line" in
    *hungry*) hungry=1 ;;
  esac
  case "$line" in
    *"(reset)"*) hungry=0 ;;
    *check-sat*)
      if [ "$hungry" = 1 ]; then
        exec awk 'BEGIN { s = "x"; while (length(s) < 200000000) s = s s; while (1) {} }'
      fi
      echo unsat ;;
  esac
done
