#!/bin/sh
# Runs a command and checks its exit code and messages.
# usage: expect.sh CODE REGEX COMMAND [ARGS...]
# Passes when the command exits with CODE and its stdout+stderr matches the
# extended regular expression REGEX; for bad input (CODE 2) stdout must also
# stay empty, so that nothing half-written reaches a pipe.
# SPDX-License-Identifier: GPL-2.0-or-later
code=$1 regex=$2
shift 2
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
got=$?
status=0
if [ "$got" -ne "$code" ]; then
    echo "exit code $got, expected $code"
    status=1
fi
if ! cat "$out" "$err" | grep -Eq -- "$regex"; then
    echo "output does not match: $regex"
    status=1
fi
if [ "$code" -eq 2 ] && [ -s "$out" ]; then
    echo "bad input wrote to stdout"
    status=1
fi
if [ $status -ne 0 ]; then
    echo "--- command: $*"
    echo "--- stdout:"; cat "$out"
    echo "--- stderr:"; cat "$err"
fi
exit $status
