#!/bin/sh
# simcoll sweep: every point once, a failed point recorded, and a sweep
# killed with SIGKILL then rerun holding every row exactly once; a line a
# kill cut short is dropped and its point run again; --jobs, --point and
# --merge for job engines, on a study of programs; generated uneven nodes,
# interconnect presets and topologies.
# usage: sweep.sh SIMCOLL PLATFORM_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 platforms=$2
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1

cat > study.ini <<STUDY
# 2 x 4 x 9 x 2 = 144 points; 16 cannot run (np 100 on 64 cores) and rd-exch
# needs a power of two, which 24, 40, 48, 56 are not (32 more)
platform = $platforms/gige.xml, $platforms/ib4x.xml
algo = ring, bruck, rd, rd-exch
np = 8, 16, 24, 32, 40, 48, 56, 64, 100
size = 64K, 1M
payload = no
STUDY
points=144

# Killed while it runs, then run again until it finishes.
"$simcoll" sweep study.ini -j 2 -o out.csv 2>/dev/null &
pid=$!
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
# A line cut short by a kill: the rerun drops it.
printf '"platform=%s/gige.xml;algo=rd;np=8;size=64K;payload=no",ok,gige,rd,allg' "$platforms" >> out.csv
"$simcoll" sweep study.ini -j 2 -o out.csv 2>sweep.log
code=$?
[ $code -eq 1 ] || fail "exit code $code, expected 1 (48 points cannot run)"
grep -q "48 of 144 points failed" sweep.log ||
    fail "no summary of the failed points: $(cat sweep.log)"
[ "$(head -n 1 out.csv | cut -d, -f1-3)" = "key,status,template" ] || fail "header: $(head -n 1 out.csv)"
[ "$(grep -c '^key,' out.csv)" -eq 1 ] || fail "the header is repeated"
[ "$(tail -n +2 out.csv | wc -l)" -eq $points ] || fail "$(tail -n +2 out.csv | wc -l) rows, expected $points"
[ -z "$(tail -n +2 out.csv | cut -d'"' -f2 | sort | uniq -d)" ] || fail "a point twice"
[ "$(grep -c '",ok,' out.csv)" -eq 96 ] || fail "$(grep -c "\",ok," out.csv) ok rows, expected 96"
grep -q '"100 processes do not fit platform' out.csv || fail "a failed point without its error"
[ "$(tail -c 1 out.csv | od -An -c | tr -d ' ')" = '\n' ] || fail "the last line is cut"
# Every row in point order, though two ran at a time, a kill came between
# and the rerun ran what was left.
for plat in gige ib4x; do for algo in ring bruck rd rd-exch; do
    for np in 8 16 24 32 40 48 56 64 100; do for size in 64K 1M; do
        echo "platform=$platforms/$plat.xml;algo=$algo;np=$np;size=$size;payload=no"
done; done; done; done > order.expected
tail -n +2 out.csv | cut -d'"' -f2 > order.got
cmp -s order.expected order.got || fail "rows out of point order: $(diff order.expected order.got | head -n 4)"
# The axes as columns behind key and status, one name per quantity
# whatever the axes: algo and np are the run's own columns (not run_algo,
# run_np), the platform file named is template (the run's platform is its
# name).
case $(head -n 1 out.csv) in
key,status,template,algo,np,size,payload,platform,collective,nodes,size_bytes,*) ;;
*) fail "header: $(head -n 1 out.csv)" ;; esac
[ "$(head -n 1 out.csv | tr , '\n' | grep -c -e '^np$' -e '^algo$' -e '^run_')" -eq 2 ] ||
    fail "np and algo once, no run_ column: $(head -n 1 out.csv)"
grep -q "^\"platform=$platforms/ib4x.xml;algo=bruck;np=16;size=1M;payload=no\",ok,$platforms/ib4x.xml,bruck,16,1M,no,ib4x,allgather,2,1048576," out.csv ||
    fail "a row's axis columns: $(grep 'ib4x.xml;algo=bruck;np=16;size=1M' out.csv)"
# A point that failed says why as it ends, as its row does.
grep -q "np=100;size=64K;payload=no: failed ([0-9.]* s), .* left: 100 processes do not fit platform" sweep.log ||
    fail "no reason for a failed point: $(grep failed sweep.log | head -n 2)"
grep -q "^\"platform=$platforms/gige.xml;algo=rd;np=100;size=64K;payload=no\",\"100 processes do not fit[^\"]*\",$platforms/gige.xml,rd,100,64K,no,,," out.csv ||
    fail "a failed row's axis columns: $(grep 'gige.xml;algo=rd;np=100;size=64K' out.csv)"

# Nothing left to do: a rerun runs nothing and changes nothing.
cp out.csv before.csv
"$simcoll" sweep study.ini -o out.csv 2>sweep.log
grep -q "144 already in out.csv, 0 to run" sweep.log || fail "rerun: $(cat sweep.log)"
cmp -s out.csv before.csv || fail "a rerun changed the output"

# Another file's first line is not this sweep's header: refused, untouched.
echo "a,b" > other.csv
"$simcoll" sweep study.ini -o other.csv 2>err.log
[ $? -eq 2 ] && grep -q "not this sweep's output" err.log || fail "another CSV: $(cat err.log)"
[ "$(cat other.csv)" = "a,b" ] || fail "another CSV was changed"
# For a job engine: --jobs prints a command per point, each writes its own
# file, --merge gathers them, each row once, whatever order and however
# often they run. A study of programs runs simcoll run.
cat > programs.ini <<STUDY
platform = $platforms/gige.xml, $platforms/ib4x.xml
program = $work/loop.prog
np = 4, 8, 16
payload = no
STUDY
printf 'loop 3\n  allreduce 64 algo=allreduce-rd\n  compute 10us\nend\n' > loop.prog
"$simcoll" sweep programs.ini --jobs > jobs.txt 2>/dev/null || fail "--jobs failed"
[ "$(wc -l < jobs.txt)" -eq 6 ] || fail "$(wc -l < jobs.txt) commands, expected 6"
[ ! -e programs.csv ] || fail "--jobs wrote the results file"
head -n 2 jobs.txt | sh 2>/dev/null || fail "a job failed"
"$simcoll" sweep programs.ini --merge 2>merge.log || fail "merge: $(cat merge.log)"
grep -q "merged 2 rows into programs.csv; it holds 2 of 6 points" merge.log ||
    fail "first merge: $(cat merge.log)"
"$simcoll" sweep programs.ini --jobs 2>/dev/null > rest.txt
[ "$(wc -l < rest.txt)" -eq 4 ] || fail "$(wc -l < rest.txt) commands left, expected 4"
# Every job again, two at a time: the two done ones have nothing to do.
xargs -P 2 -I CMD sh -c CMD < jobs.txt 2>/dev/null || fail "jobs failed"
"$simcoll" sweep programs.ini --merge 2>merge.log || fail "merge: $(cat merge.log)"
grep -q "merged 4 rows into programs.csv; it holds 6 of 6 points" merge.log ||
    fail "second merge: $(cat merge.log)"
"$simcoll" sweep programs.ini --merge 2>merge.log || fail "merge: $(cat merge.log)"
grep -q "merged 0 rows" merge.log || fail "third merge: $(cat merge.log)"
[ "$(head -n 1 programs.csv | cut -d, -f1-8)" = "key,status,template,program,np,payload,platform,nodes" ] ||
    fail "program header: $(head -n 1 programs.csv)"
[ "$(grep -c '",ok,' programs.csv)" -eq 6 ] || fail "$(grep -c '",ok,' programs.csv) ok rows, expected 6"
[ -z "$(tail -n +2 programs.csv | cut -d'"' -f2 | sort | uniq -d)" ] || fail "a program point twice"
[ "$("$simcoll" sweep programs.ini --jobs 2>/dev/null | wc -l)" -eq 0 ] || fail "jobs left after all ran"
# The same rows as a sweep run here, in point order.
"$simcoll" sweep programs.ini -j 2 -o local.csv 2>/dev/null || fail "the local sweep failed"
sort local.csv > local.sorted
sort programs.csv > merged.sorted
cmp -s local.sorted merged.sorted || fail "--jobs + --merge differ from a local run: $(diff local.sorted merged.sorted | head -n 4)"
# Merged in the study's point order: point 1 first.
first=$(sed -n 2p programs.csv | cut -d'"' -f2)
case $first in "platform=$platforms/gige.xml;program=$work/loop.prog;np=4;payload=no") ;; *) fail "first merged row: $first" ;; esac

# axis NAME: the study NAME.ini, of a ring allgather on 16 ranks of gige.xml
# without data along the axes read from stdin, swept into NAME.csv.
axis() {
    { echo "platform = $platforms/gige.xml"
      cat
      printf 'algo = ring\nnp = 16\npayload = no\n'
    } > "$1.ini"
    "$simcoll" sweep "$1.ini" -o "$1.csv" 2>/dev/null || fail "$1: exit $?"
}

# row NAME REGEX WHAT: NAME.csv holds a row matching REGEX (else no row WHAT).
row() {
    grep -q "$2" "$1.csv" || fail "no row $3: $(cat "$1.csv")"
}

# Generated platforms: a cores axis with uneven nodes ('+' lists) and a net
# axis, the platform column naming each.
axis shapes <<STUDY
cores = 4, 2x8+2x4
net = gige, ib4x-ddr
STUDY
for zone in gige-8x4 gige-2x8+2x4 ib4x-ddr-8x4 ib4x-ddr-2x8+2x4; do
    row shapes ",ok,.*,$zone,allgather," "on $zone"
done

# A topology axis, its values quoted for their commas; a quote left open is
# refused.
axis topologies <<STUDY
topology = "torus:2,2,2", "fat-tree:2;2,2;1,2;1,1"  # 8 and 4 nodes
STUDY
# Named by their whole topology: two fat trees or tori of other shapes differ.
for zone in gige-8x8-torus:2,2,2 'gige-4x8-fat-tree:2;2,2;1,2;1,1'; do
    grep -qF ",\"$zone\",allgather," topologies.csv || fail "no row on $zone: $(cat topologies.csv)"
done
grep -q '^"platform=[^"]*;topology=fat-tree:2;2,2;1,2;1,1;algo=ring' topologies.csv ||
    fail "the key of the fat tree's point: $(cat topologies.csv)"
printf 'platform = %s/gige.xml\ntopology = "torus:2,2\n' "$platforms" > open.ini
"$simcoll" sweep open.ini -o open.csv 2>open.err
code=$?
[ $code -eq 2 ] || fail "an open quote: exit $code, expected 2"
grep -q "open.ini:2: a value of 'topology' opens a quote it does not close" open.err ||
    fail "an open quote: $(cat open.err)"
[ ! -e open.csv ] || fail "an open quote: open.csv was written"

# A sockets axis: nodes of one socket (no level of its own) and of two, whose
# rows count messages on three levels.
axis sockets <<STUDY
nodes = 2
sockets = 1, 2
STUDY
row sockets ',ok,.*,gige-2x8,allgather,.*,[0-9]*;[0-9]*,[0-9]*;[0-9]*,' "on one socket a node"
row sockets ',ok,.*,gige-2x8-2sockets,allgather,.*,[0-9]*;[0-9]*;[0-9]*,[0-9]*;[0-9]*;[0-9]*,' \
    "on two sockets a node"

# A levels axis: nodes of NUMA domains, and of sockets of NUMA domains of
# CCXs, with the NUMA domains' link set; each row counts its levels (one
# node of 16 cores: no network level's traffic, five levels listed).
axis levels <<STUDY
levels = "core:4,numa:2,node:2", "core:2,ccx:2,numa:2,socket:2,node:2"
set = numa.latency=100ns
STUDY
row levels ',ok,.*,gige-2x8-2numa-numa.latency=100ns,allgather,.*,[0-9]*;[0-9]*;[0-9]*,[0-9]*;[0-9]*;[0-9]*,' \
    "on nodes of two NUMA domains"
row levels ',ok,.*,gige-2x16-2sockets-2numa-2ccx-numa.latency=100ns,allgather,.*,[0-9]*;[0-9]*;[0-9]*;[0-9]*;[0-9]*,' \
    "on nodes of sockets, NUMA domains and CCXs"

# A value every point would refuse stops the study before it runs.
for bad in "algo = ring\\nnp = 4x|3: np: '4x' is not an integer" \
           "algo = ring\\nsockets = 2x|3: sockets: '2x' is not an integer" \
           "algo = ring\\npayload = maybe|3: payload 'maybe': use yes or no" \
           "algo = rign|2: algo: unknown algorithm 'rign'; did you mean 'ring'?" \
           "algoo = ring|2: unknown key 'algoo'; did you mean 'algo'?" "algo = ring\\nsize = -1|3: size" \
           "algo = ring\\nalgos = allreduce=allreduce-rd|3: 'algos' applies to a trace's runs; add a trace axis" \
           "trace = t.txt\\nnp = 4|3: 'np' with 'trace': a trace has its own calls, ranks and no data" \
           "trace = t.txt\\nalgos = allreduce=rdd|3: algos allreduce: unknown algorithm 'rdd'" \
           "trace = t.txt\\ncompute-scale = 0|3: compute-scale: '0' is not a factor above 0" \
           "algo = ring\\nset = inter.bandwidth=0x|3: set: --set 'inter.bandwidth=0x': '0x' is not a factor above 0" \
           "algo = ring\\nset = inter.latency=2x, inter.speed=2x|3: set: --set 'inter.speed=2x': unknown parameter 'speed'" \
           "algo = ring\\nset = inter.gap=2x; inter.gap=3x|3: set: --set 'inter.gap=3x': inter.gap is set twice" \
           "algo = ring\\nset = socket.latency=2x|3: set: --set 'socket.latency=2x': socket.latency starts at 0" \
           "algo = ring\\nset = rack.bandwidth=0.25x|3: set: --set 'rack.bandwidth=0.25x': no point of the study has racks" \
           "algo = ring\\nset = numa.latency=1us|3: set: --set 'numa.latency=1us': no point of the study has NUMA domains; add a levels axis" \
           "algo = ring\\nlevels = \"core:4,numa:0,node:2\"|3: levels: --levels: numa: '0' is not an integer in 1..64" \
           "algo = ring\\nnodes = 2\\nlevels = \"core:4,numa:2,node:2\"|3: 'nodes' with 'levels': levels gives the nodes" \
           "algo = ring\\nsockets = 1, 2\\nset = rack.bandwidth=2x; socket.latency=1us|4: set: --set 'rack.bandwidth=2x': no point of the study has racks" \
           "algo = ring\\nnet = gige, ib5x|3: net: --net: unknown interconnect 'ib5x'; use gige, ib4x-ddr" \
           "algo = ring\\ntopology = torus:2, torus:x|3: topology: --topology 'torus:x'" \
           "algo = ring\\ncores = 4, 2x|3: cores: --cores '2x': an empty item" \
           "coll = gather\\nmpi = mpich-3.2|2: coll: --coll: unknown collective 'gather'; use one of allgather" \
           "coll = bcast\\nmpi = openmpi|3: mpi: --mpi: unknown profile 'openmpi'; use one of" \
           "algo = allreduce-ring\\nop = sum, avg|3: op: unknown operation 'avg'" \
           "algo = allreduce-ring\\ntype = float|3: type: unknown type 'float'" \
           "algo = allreduce-early\\ndata = where=1|3: data: --data: unknown setting 'where=1'"; do
    printf 'platform = %s/gige.xml\n%b\n' "$platforms" "${bad%%|*}" > badvalue.ini
    "$simcoll" sweep badvalue.ini -o badvalue.csv 2>badvalue.err
    code=$?
    [ $code -eq 2 ] || fail "${bad%%|*}: exit $code, expected 2: $(cat badvalue.err)"
    grep -q "badvalue.ini:${bad#*|}" badvalue.err || fail "${bad%%|*}: $(cat badvalue.err)"
    [ ! -e badvalue.csv ] || fail "${bad%%|*}: badvalue.csv was written"
    [ ! -e badvalue.csv.platforms ] || fail "${bad%%|*}: badvalue.csv.platforms was made"
done
# Files every point would fail to read: a platform, a program; for --jobs too.
for bad in "platform = $work/none.xml\\nalgo = ring|1: platform: --platform '$work/none.xml': cannot read it" \
           "platform = $platforms/gige.xml\\nprogram = $work/none.prog|2: program: program '$work/none.prog': cannot read it" \
           "platform = $platforms/gige.xml\\nprogram = $work/bad.prog|2: program: $work/bad.prog:1: this loop has no 'end'" \
           "platform = $platforms/gige.xml\\ntrace = $work/bad.txt|2: trace: $work/bad.txt:1: unknown action 'frobnicate'"; do
    printf 'loop 2\n  allreduce 64\n' > bad.prog
    printf '0 frobnicate\n' > bad.txt
    printf '%b\n' "${bad%%|*}" > badfile.ini
    for mode in "-o badfile.csv" "--jobs -o badfile.csv"; do
        "$simcoll" sweep badfile.ini $mode > badfile.out 2>badfile.err
        code=$?
        [ $code -eq 2 ] || fail "${bad%%|*} ($mode): exit $code, expected 2: $(cat badfile.err)"
        grep -q "badfile.ini:${bad#*|}" badfile.err || fail "${bad%%|*} ($mode): $(cat badfile.err)"
        [ ! -s badfile.out ] && [ ! -e badfile.csv ] && [ ! -e badfile.csv.platforms ] &&
            [ ! -e badfile.csv.points ] || fail "${bad%%|*} ($mode): something was written"
    done
done

# Studies too large to key or to count are refused: 256^8 points (which
# overflowed the count to 0 points), a key longer than 4095 bytes.
awk 'BEGIN { split("platform coll mpi mapping op type data set", k, " ")
             for (i = 1; i <= 8; i++) { printf "%s = 1", k[i]; for (v = 2; v <= 256; v++) printf ", %d", v; print "" } }' > huge.ini
"$simcoll" sweep huge.ini --jobs -o huge.csv > /dev/null 2>huge.err
code=$?
[ $code -eq 2 ] || fail "256^8 points: exit $code, expected 2"
grep -q "huge.ini: the product of the axes is more than 10000000 points" huge.err ||
    fail "256^8 points: $(cat huge.err)"
awk 'BEGIN { printf "platform = "; for (i = 0; i < 4100; i++) printf "p"; print "" }' > long.ini
"$simcoll" sweep long.ini --jobs -o long.csv > /dev/null 2>long.err
code=$?
[ $code -eq 2 ] || fail "a long key: exit $code, expected 2"
grep -q "long.ini: a point's key (KEY=VALUE;... of its values) can be 4110 bytes, more than 4095" long.err ||
    fail "a long key: $(cat long.err)"
echo "sweep.sh: ok"
