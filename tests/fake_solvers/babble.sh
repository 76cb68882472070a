#!/bin/sh
# A solver that prints an endless unbalanced answer.
while IFS= read -r line; do
  case "$line" in
    *check-sat*) exec yes '((((' ;;
  esac
done
