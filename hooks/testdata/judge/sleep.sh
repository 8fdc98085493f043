#!/bin/sh
cat >/dev/null
sleep 30
echo 0.9
