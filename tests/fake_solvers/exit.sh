#!/bin/sh
# A solver that dies at once.
echo "fake solver: giving up" >&2
exit 3
