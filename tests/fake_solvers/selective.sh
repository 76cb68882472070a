#!/bin/sh
# A solver that answers unsat, except that it exits on a line that mentions `boom` and stops
# answering after a line that mentions `silent`.
silent=0
while IFS= read -r line; do
  case "$line" in
    *boom*) echo "fake solver: boom" >&2; exit 3 ;;
    *silent*) silent=1 ;;
  esac
  case "$line" in
    *check-sat*) if [ "$silent" = 0 ]; then echo unsat; fi ;;
  esac
done
