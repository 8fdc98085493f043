#!/bin/sh
cat >/dev/null
echo 0.1
