#!/bin/sh
# A solver that never answers (and never reads its input).
exec sleep 600
