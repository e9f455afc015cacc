#!/bin/sh
# Algorithms of one's own (--load, new-algo): every collective's skeleton
# compiles, runs and is right (live ranks too, on SimGrid 4.1); a compile error, a missing table, a name
# taken, a plug-in that exits or aborts as it loads, a crash, a deadlock
# and a wrong result (its first wrong rank and block, got against expected)
# are each reported as such (exit 2 before running, 1
# after) and never take simcoll down; a shared object built by hand loads
# too, against the one header simcoll.h; a program can call a loaded
# algorithm.
# usage: plugin.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 src=$2
platforms=$src/platforms
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1
gige=$platforms/gige.xml

for coll in allgather bcast barrier reduce allreduce; do
    "$simcoll" new-algo $coll my_$coll -o my_$coll.c || fail "new-algo $coll"
    "$simcoll" --platform "$gige" --load my_$coll.c --algo my_$coll --np 13 --format csv \
        > $coll.csv 2> err.txt || fail "my_$coll: $(cat err.txt)"
    tail -n 1 $coll.csv | grep -q ",yes," || fail "my_$coll is not right: $(tail -n 1 $coll.csv)"
    # Live ranks (SimGrid 4.1 builds) run it too, checked. (Their times are
    # the driver's, which may serve an instant's messages at gige's NIC in
    # another order than the actors: docs/model.md.)
    if "$simcoll" --platform "$gige" --load my_$coll.c --algo my_$coll --np 13 --format csv \
        --replay=live > live.csv 2> err.txt; then
        tail -n 1 live.csv | grep -q ",yes," || fail "my_$coll live: $(tail -n 1 live.csv)"
    else
        grep -q "needs SimGrid 4.1" err.txt || fail "my_$coll live: $(cat err.txt)"
    fi
done
# Its first line reads as English: "an allgather", "a bcast".
head -n 1 my_allgather.c | grep -q "^/\* my_allgather.c: an allgather algorithm of my own" ||
    fail "the allgather skeleton's first line: $(head -n 1 my_allgather.c)"
head -n 1 my_bcast.c | grep -q "^/\* my_bcast.c: a bcast algorithm of my own" ||
    fail "the bcast skeleton's first line: $(head -n 1 my_bcast.c)"

# An edited file is kept: new-algo refuses to write over it without --force.
echo "/* my edits */" >> my_bcast.c
"$simcoll" new-algo bcast my_bcast -o my_bcast.c > out.txt 2> err.txt
[ $? -eq 2 ] && grep -q "the file exists .* give --force to overwrite it" err.txt ||
    fail "new-algo over an edited file: $(cat err.txt)"
tail -n 1 my_bcast.c | grep -q "my edits" || fail "new-algo changed the edited file"
"$simcoll" new-algo bcast my_bcast -o my_bcast.c --force 2> err.txt || fail "--force: $(cat err.txt)"
grep -q "^simcoll: wrote my_bcast.c, the skeleton of my_bcast (bcast)" err.txt ||
    fail "new-algo does not say what it wrote: $(cat err.txt)"
! grep -q "my edits" my_bcast.c || fail "--force kept the old file"

# run REGEX CODE FILE: --load FILE --algo my_allgather exits CODE saying REGEX.
run() {
    "$simcoll" --platform "$gige" --load "$3" --algo my_allgather --np 8 > out.txt 2> err.txt
    code=$?
    [ $code -eq "$2" ] || fail "$3: exit $code, expected $2: $(cat err.txt)"
    grep -q "$1" err.txt || fail "$3: no '$1' in: $(cat err.txt)"
}
sed 's/int left = /int left = undefined_thing + /' my_allgather.c > compile_error.c
run "it does not compile" 2 compile_error.c
grep -q "error: .undefined_thing. undeclared" err.txt || fail "no compiler message: $(cat err.txt)"
# A loaded algorithm's name misspelt: the hint is the loaded one.
"$simcoll" --platform "$gige" --load my_allgather.c --algo my_allgathr --np 8 > out.txt 2> err.txt
[ $? -eq 2 ] && grep -q "unknown algorithm 'my_allgathr'; did you mean 'my_allgather'?" err.txt ||
    fail "a loaded algorithm misspelt: $(cat err.txt)"
# A misspelt function is the compiler's error, at the user's file and line,
# not an undefined symbol in a temporary file when it loads.
sed 's/sc_sendrecv(/sc_sendrcv(/' my_allgather.c > misspelt.c
run "it does not compile" 2 misspelt.c
grep -q "misspelt.c:[0-9]*:[0-9]*: error: implicit declaration of function .sc_sendrcv." err.txt ||
    fail "a misspelt function: $(cat err.txt)"
# Warnings of a file that compiles are shown, with its name and line.
sed 's/int left = /int unused_here = 0; int left = /' my_allgather.c > warns.c
run "the compiler's warnings" 0 warns.c
grep -q "warns.c:[0-9]*:[0-9]*: warning: unused variable .unused_here." err.txt ||
    fail "no compiler warning: $(cat err.txt)"
sed 's/simcoll_algorithms\[\]/other_name[]/' my_allgather.c > no_table.c
run "defines no table" 2 no_table.c
sed 's/.name = "my_allgather"/.name = "ring"/' my_allgather.c > taken.c
"$simcoll" --platform "$gige" --load taken.c --algo ring --np 8 > out.txt 2> err.txt
[ $? -eq 2 ] && grep -q "an algorithm named 'ring' exists already" err.txt || fail "taken: $(cat err.txt)"
sed 's|    sc_buf_copy(comm, out + (size_t)rank \* m, args->sendbuf, m);.*|    if (rank == 3) *(volatile int *)0 = 1;\n&|' my_allgather.c > crash.c
run "the simulation of my_allgather (np 8, 2048 bytes) failed" 1 crash.c
sed 's|sc_err_t err = sc_sendrecv(comm, out + (size_t)send_block \* m, m, right, MY_TAG,|sc_err_t err = sc_recv(comm, out + (size_t)recv_block * m, m, left, MY_TAG); if (err \|\| send_block < 0 \|\| right < 0) return err; err = sc_recv(comm,|' \
    my_allgather.c > deadlock.c
run "my_allgather deadlocked: 8 of 8 ranks never finished" 1 deadlock.c
# Code a plug-in runs as it loads (a constructor) that ends the process:
# reported, exit 2, never a silent exit 0 (or a bare SIGABRT) taken for a run.
for end in "exit(0)|exited with status 0" "exit(3)|exited with status 3" \
           "abort()|died of signal 6" "_exit(0)|exited with status 0"; do
    sed "s|^enum { MY_TAG = 4242 };|#include <stdlib.h>\n#include <unistd.h>\n&\n__attribute__((constructor)) static void leave(void) { ${end%%|*}; }|" \
        my_allgather.c > leaves.c
    run "^simcoll: --load leaves.c: the plug-in ended the process while loading: the process ${end#*|}" 2 leaves.c
    [ ! -s out.txt ] || fail "${end%%|*} while loading: output $(cat out.txt)"
    "$simcoll" list --load leaves.c > out.txt 2> err.txt
    [ $? -eq 2 ] && grep -q "the plug-in ended the process while loading" err.txt ||
        fail "list --load, ${end%%|*} while loading: $(cat err.txt)"
done
# A constructor that returns: loaded and run as ever, its words said once.
sed 's|^enum { MY_TAG = 4242 };|#include <stdio.h>\n&\n__attribute__((constructor)) static void hello(void) { fprintf(stderr, "hello from my_allgather%c", 10); }|' \
    my_allgather.c > hello.c
"$simcoll" --platform "$gige" --load hello.c --algo my_allgather --np 8 --format csv > out.txt 2> err.txt ||
    fail "hello.c: $(cat err.txt)"
tail -n 1 out.txt | grep -q ",yes," || fail "hello.c is not right: $(cat out.txt)"
[ "$(grep -c "^hello from my_allgather$" err.txt)" -eq 1 ] || fail "hello.c's words: $(cat err.txt)"
sed 's/for (int k = 0; k < p - 1; k++)/for (int k = 0; k < p - 2; k++)/' my_allgather.c > wrong.c
run "gave a WRONG result" 1 wrong.c
grep -q "NO$" out.txt || fail "wrong.c: the table does not say NO"
# The first wrong rank and block, got against expected: one ring step short,
# rank 0 lacks the block of rank 1, its last.
grep -q "the first, my_allgather at np 8, 2 KiB: rank 0: block 1 (rank 1's), byte 0: 0x00, expected 0x[0-9a-f][0-9a-f]$" err.txt ||
    fail "wrong.c: no first wrong block: $(cat err.txt)"
# A reduction's element, as a number of its type: rank 2's vector left out.
sed 's/err = sc_vector_combine(/err = r == 2 ? SC_OK : sc_vector_combine(/' my_allreduce.c > wrong_sum.c
"$simcoll" --platform "$gige" --load wrong_sum.c --algo my_allreduce --np 4 --size 64 --type int \
    > out.txt 2> err.txt
[ $? -eq 1 ] && grep -q "the first, my_allreduce at np 4, 64 B: rank 0: element 0: -*[0-9]*, expected -*[0-9]*$" err.txt ||
    fail "wrong_sum.c: no first wrong element: $(cat err.txt)"
"$simcoll" --platform "$gige" --load wrong.c --algo my_allgather --np 8 --mapping partition \
    2> err.txt > /dev/null
[ $? -eq 2 ] && grep -q "algorithm of your own" err.txt || fail "partition: $(cat err.txt)"
# A loaded algorithm on a mapping without --mapping (lab 2's skeleton, as a
# student forgets it): told to give a mapping file, not refused a partition
# never asked for.
"$simcoll" --platform "$gige" --load "$src/experiments/labs/2-mapping/skeleton.c" \
    --algo my_bruck_reorder --np 16 2> err.txt > /dev/null
[ $? -eq 2 ] && grep -q "my_bruck_reorder plays through a mapping (SC_USES_MAPPING) and no --mapping was given.* give --mapping FILE (simcoll map --platform .* --algo bruck --np 16 -o pi.txt" err.txt ||
    fail "no --mapping: $(cat err.txt)"

# Built by hand, against the build's simcoll.h alone, which stands by itself
# (no other header of simcoll) and is strict C11.
include=$(dirname "$simcoll")/include
[ "$(ls "$include")" = simcoll.h ] || fail "the build's include directory: $(ls "$include")"
! grep -q '#include "' "$include/simcoll.h" || fail "simcoll.h includes: $(grep '#include' "$include/simcoll.h")"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -shared -fPIC -I"$include" my_bcast.c -o my_bcast.so ||
    fail "cc my_bcast.c"
"$simcoll" --platform "$gige" --load ./my_bcast.so --algo my_bcast --np 9 --root 4 > so.txt ||
    fail "the shared object"
grep -q "my_bcast .* yes" so.txt || fail "my_bcast.so: $(cat so.txt)"

# simcoll list shows what --load adds, after its own.
"$simcoll" list --load my_allgather.c --load ./my_bcast.so > list.txt || fail "list --load"
tail -n 2 list.txt | grep -q "^my_allgather .*allgather .*my own allgather" ||
    fail "list --load: $(tail -n 2 list.txt)"
tail -n 1 list.txt | grep -q "^my_bcast " || fail "list --load .so: $(tail -n 1 list.txt)"

# A program calling a loaded algorithm.
printf 'loop 3\n  allgather 1K algo=my_allgather\nend\n' > p.prog
"$simcoll" run --platform "$gige" --np 12 --load my_allgather.c p.prog > prog.txt ||
    fail "the program"
grep -q "p.prog .* yes" prog.txt || fail "the program: $(cat prog.txt)"

# Names that are C keywords, C library functions or the skeleton's own
# identifiers still give a skeleton that compiles and runs.
for name in int exit MY_TAG comm; do
    "$simcoll" new-algo bcast $name -o kw_$name.c || fail "new-algo bcast $name"
    "$simcoll" --platform "$platforms/gige.xml" --load kw_$name.c --algo $name --np 4 --size 64 \
        > kw.out 2>&1 || fail "the skeleton named $name: $(cat kw.out)"
done

# new-algo's refusals.
"$simcoll" new-algo alltoall x -o x.c 2> err.txt
[ $? -eq 2 ] && grep -q "unknown collective 'alltoall'" err.txt || fail "new-algo alltoall"
"$simcoll" new-algo bcast bruck -o x.c 2> err.txt
[ $? -eq 2 ] && grep -q "has an algorithm named 'bruck'" err.txt || fail "new-algo bruck"
"$simcoll" new-algo bcast x -o x.txt 2> err.txt
[ $? -eq 2 ] && grep -q "must end in .c" err.txt || fail "new-algo x.txt"
[ ! -e x.c ] && [ ! -e x.txt ] || fail "a refused new-algo wrote a file"
echo "plugin.sh: ok"
