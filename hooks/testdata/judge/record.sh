#!/bin/sh
# Keeps what it was given, then judges the turn unfinished.
cat >"$JUDGE_SAW"
echo 0.95
