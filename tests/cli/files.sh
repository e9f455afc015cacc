#!/bin/sh
# Output files appear whole or not at all, never replace devices, and never
# share a path; inputs that could block are refused; killing simcoll stops
# its simulation child and leaves no temporary file.
# usage: files.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
simcoll=$1 src=$2
gige=$src/platforms/gige.xml
. "$(dirname "$0")/lib.sh"
count_failures

# expect CODE REGEX ARGS...: exit code and a message on stderr.
expect() {
    code=$1 regex=$2
    shift 2
    "$simcoll" "$@" >"$work/out" 2>"$work/err"
    got=$?
    [ "$got" -eq "$code" ] || fail "exit $got, not $code: simcoll $*"
    grep -Eq -- "$regex" "$work/err" || fail "stderr lacks '$regex': simcoll $* ($(cat "$work/err"))"
}

map="map --platform $gige --algo bruck --np 16"

# Devices are written to, never replaced (as root, a rename would). The
# devices are private copies of /dev/null and /dev/full, so that a
# regression cannot break the machine's.
if mknod "$work/null" c 1 3 2>/dev/null && mknod "$work/full" c 1 7 2>/dev/null; then
    expect 0 "cut weight" $map -o "$work/null"
    [ -c "$work/null" ] || fail "a device (null) was replaced by a file"
    expect 2 "-o '$work/full': cannot write: No space left on device" $map -o "$work/full" \
        --machinefile "$work/hosts"
    [ -c "$work/full" ] || fail "a device (full) was replaced by a file"
    [ -e "$work/hosts" ] && fail "the machinefile appeared although -o failed"
else
    echo "not root: device outputs not checked"
fi
if [ -c /dev/full ]; then
    # Results lost on stdout are a failed run.
    "$simcoll" --platform "$gige" --algo bruck --np 4 >/dev/full 2>"$work/err"
    [ $? -eq 1 ] || fail "a run printing to /dev/full did not exit 1"
    grep -q "cannot write to standard output: No space left on device" "$work/err" ||
        fail "no message for a full stdout: $(cat "$work/err")"
fi
# Standard output redirected to a file, named as /proc/self/fd/1 (like
# /dev/stdout, which a regression could replace): the file gets the output.
"$simcoll" $map -o /proc/self/fd/1 >"$work/redirected" 2>/dev/null
grep -q "^# line r+1" "$work/redirected" || fail "-o /proc/self/fd/1 did not reach the redirection"

# When the second output cannot be written, the first does not appear and
# an old first output is kept as it was.
echo old >"$work/pi.txt"
expect 2 "--rankfile '$work/no-such-dir/ranks': cannot write" $map -o "$work/pi.txt" \
    --rankfile "$work/no-such-dir/ranks"
[ "$(cat "$work/pi.txt")" = old ] || fail "pi.txt changed although the rankfile failed"

# Two outputs on one path are refused, also through a symbolic link.
expect 2 "-o '$work/pi.txt' and --machinefile '$work/pi.txt' name the same file" $map \
    -o "$work/pi.txt" --machinefile "$work/pi.txt"
ln -s pi.txt "$work/link.txt"
expect 2 "name the same file" $map -o "$work/pi.txt" --rankfile "$work/link.txt"
[ "$(cat "$work/pi.txt")" = old ] || fail "pi.txt changed although the outputs were refused"

# A symbolic link is followed: its target gets the file, the link stays.
expect 0 "cut weight" $map -o "$work/link.txt"
[ -L "$work/link.txt" ] || fail "the symbolic link was replaced"
grep -q "^# line r+1" "$work/pi.txt" || fail "the link's target was not written"

# So is one whose target does not exist yet: the target is made.
ln -s made.txt "$work/dangling.txt"
expect 0 "cut weight" $map -o "$work/dangling.txt"
[ -L "$work/dangling.txt" ] || fail "the dangling symbolic link was replaced"
grep -q "^# line r+1" "$work/made.txt" || fail "the dangling link's target was not made"

# Outputs of different kinds on one path, and an output over an input the
# command reads, are refused before anything is written.
cp "$gige" "$work/g.xml"
expect 2 "-o '$work/g.xml' is also --platform '$work/g.xml', an input" \
    map --platform "$work/g.xml" --algo bruck --np 16 -o "$work/g.xml"
expect 2 "-o '$work/g.xml' is also --like '$work/g.xml', an input" \
    platform --like "$work/g.xml" --nodes 2 -o "$work/g.xml"
cmp -s "$gige" "$work/g.xml" || fail "an input platform was written over"
expect 2 "--trace '$work/t.out' and --paje '$work/t.out' name the same file" \
    --platform "$gige" --algo bruck --np 4 --size 8 --trace "$work/t.out" --paje "$work/t.out"
[ -e "$work/t.out" ] && fail "t.out was written although the outputs were refused"
printf 'allreduce 8\n' >"$work/p.prog"
expect 2 "--trace-ops '$work/p.prog' is also the program '$work/p.prog', an input" \
    run --platform "$gige" --np 4 --trace-ops "$work/p.prog" "$work/p.prog"
[ "$(cat "$work/p.prog")" = "allreduce 8" ] || fail "the program was written over"
cp "$src/tests/measurements/osu_latency-5.6.txt" "$work/lat.txt"
expect 2 "-o '$work/./lat.txt' is also --osu-latency '$work/lat.txt', an input" \
    calibrate --osu-latency "$work/lat.txt" --like "$gige" -o "$work/./lat.txt"
cmp -s "$src/tests/measurements/osu_latency-5.6.txt" "$work/lat.txt" ||
    fail "the measurements were written over"

# A temporary file left by a killed run (its process is gone) is removed.
touch "$work/.pi.txt.4194305.simcoll-tmp"
expect 0 "cut weight" $map -o "$work/pi.txt"
[ -e "$work/.pi.txt.4194305.simcoll-tmp" ] && fail "a stale temporary file stayed"
ls -a "$work" | grep -q simcoll-tmp && fail "a temporary file stayed after a good run"

# Inputs that would block are refused at once.
mkfifo "$work/fifo"
timeout 20 "$simcoll" --platform "$gige" --algo bruck --np 4 --mapping "$work/fifo" \
    >"$work/out" 2>"$work/err"
got=$?
[ $got -eq 2 ] || fail "--mapping FIFO: exit $got, not 2 (124 = it hung)"
grep -q "not a regular file" "$work/err" || fail "--mapping FIFO: $(cat "$work/err")"
timeout 20 "$simcoll" --platform "$work/fifo" --algo bruck >"$work/out" 2>"$work/err"
[ $? -eq 2 ] || fail "--platform FIFO was not refused"

# A killed simcoll takes its simulation child along (SIGTERM: forwarded;
# SIGKILL: the child notices its parent's death), and leaves no temporary file.
"$simcoll" platform --like "$gige" --nodes 512 -o "$work/big.xml" ||
    fail "cannot generate a 512-node platform"
# Without --np a run takes every core, but not more than 4096.
"$simcoll" platform --like "$gige" --nodes 513 -o "$work/bigger.xml" ||
    fail "cannot generate a 513-node platform"
expect 2 "has 4104 cores, and without --np simcoll runs every core only up to 4096" \
    --platform "$work/bigger.xml" --algo bruck

# JSON is UTF-8 whatever bytes a file name holds.
name=$(printf 'pi-\377.txt')
printf '1\n0\n' >"$work/$name"
"$simcoll" --platform "$gige" --algo ring-reorder --np 2 --mapping "$work/$name" --format json \
    >"$work/json" 2>&1 || fail "the run with a non-UTF-8 mapping file name failed"
grep -q 'pi-\\ufffd.txt' "$work/json" || fail "an invalid UTF-8 byte went into the JSON as it was"

# A ring of 4096 ranks: minutes of simulation, killed long before its end
# (Bruck's 1.1 s could end before its child was seen).
big="--platform $work/big.xml --algo ring --np 4096 --size 2K --no-payload"
for sig in TERM INT KILL; do
    "$simcoll" $big >/dev/null 2>&1 &
    parent=$!
    # The simulation child: the one that runs for seconds (the platform's
    # child comes and goes first).
    child=""
    sleep 1.5
    for i in $(seq 100); do
        child=$(pgrep -P $parent | head -1)
        [ -n "$child" ] && break
        sleep 0.05
    done
    [ -n "$child" ] || { fail "SIG$sig: no simulation child seen"; kill -9 $parent; continue; }
    kill -$sig $parent
    wait $parent 2>/dev/null
    for i in $(seq 40); do
        kill -0 "$child" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$child" 2>/dev/null; then
        fail "SIG$sig: the simulation child $child outlived simcoll"
        kill -9 "$child"
    fi
done
"$simcoll" $map -o "$work/killed.txt" >/dev/null 2>&1 &
parent=$!
kill -TERM $parent
wait $parent 2>/dev/null
ls -a "$work" | grep -q "killed.txt.*simcoll-tmp" && fail "a killed run left its temporary file"

passed "all file checks passed"
