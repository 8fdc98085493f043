#!/bin/sh
# Answers inside the judge's bound, but late in it.
cat >/dev/null
sleep 1.4
echo 0.9
