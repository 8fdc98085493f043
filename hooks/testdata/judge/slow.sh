#!/bin/sh
# Answers inside the judge's 1.5 s bound, but late in it (with room for
# a slow start under -race on a busy machine).
cat >/dev/null
sleep 1.0
echo 0.9
