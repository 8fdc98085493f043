#!/bin/sh
# Answers after the hook's first lock wait (LockWait, 1.5 s) has run out;
# TestStopJudgeSlowKeepsLine widens the judge's bound to let it.
cat >/dev/null
sleep 1.6
echo 0.9
