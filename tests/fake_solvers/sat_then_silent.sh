#!/bin/sh
# A solver that says sat, then never answers get-value.
while IFS= read -r line; do
  case "$line" in
    *check-sat*) echo sat ;;
  esac
done
