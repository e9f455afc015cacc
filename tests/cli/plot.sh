#!/bin/sh
# simcoll plot on a what-if sweep: the series it draws (read back from the
# gnuplot script -o X.gp writes), lines grouped by the study's axes, two
# values at one x refused with the column that tells them apart, the
# speedup view of --relative-to and bars for an x of words.
# usage: plot.sh SIMCOLL PLATFORM_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
simcoll=$1 platforms=$2
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 1

cat > whatif.ini <<STUDY
platform = $platforms/gige.xml
set = inter.bandwidth=1x, inter.bandwidth=2x
algo = ring, bruck
np = 8, 16
size = 64K
payload = no
STUDY
"$simcoll" sweep whatif.ini -j 2 -o whatif.csv 2>/dev/null || fail "the sweep failed"

# sim_time_s of the row of set $1, algo $2, np $3.
time_of() {
    awk -F, -v key="set=inter.bandwidth=$1;algo=$2;np=$3;" \
        'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         index($0, key) { print $col["sim_time_s"] }' whatif.csv
}
# The points of data block $1 of script $2, "x y" a line.
block() { awk -v b="\$$1 << EOD" '$0 == b { on = 1; next } /^EOD/ { on = 0 } on' "$2"; }
# Whether the numbers $1 and $2 agree to 1e-12.
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d * d <= 1e-24 * a * a) }'; }

# The generated platforms are told apart by name: the run's platform column
# and the file, named by what differs.
grep -q ",ok,.*,gige-8x8-inter.bandwidth=2x,allgather," whatif.csv ||
    fail "no platform naming the setting: $(sed -n 2p whatif.csv)"
ls whatif.csv.platforms | grep -q '^gige+set=inter.bandwidth=2x-[0-9a-f]*\.xml$' ||
    fail "generated file names: $(ls whatif.csv.platforms)"

# One line per platform template merges both bandwidths: refused, naming set.
"$simcoll" plot whatif.csv -x np -y sim_time_s --by template --where algo=ring -o merged.gp 2>err.log
code=$?
[ $code -eq 2 ] || fail "two values at one x: exit $code, expected 2"
grep -q "would put two values of sim_time_s at np 8 on one line; they differ in set ('inter.bandwidth=1x', 'inter.bandwidth=2x')" err.log ||
    fail "two values at one x: $(cat err.log)"
grep -q -- "--by template,set" err.log || fail "no --by suggested: $(cat err.log)"
[ ! -e merged.gp ] || fail "a refused plot was written"

# A line per set and algorithm: four lines, each point the row's time.
"$simcoll" plot whatif.csv -x np -y sim_time_s --by set,algo -o lines.gp 2>err.log ||
    fail "--by set,algo: $(cat err.log)"
grep -q "title 'inter.bandwidth=2x, bruck'" lines.gp || fail "line titles: $(grep title lines.gp)"
# Times in one unit, named in the label, the data scaled to it (gnuplot's
# own prefixes wrote "0.0 s" under "1.0 ms"); the key a line below the x
# axis's label, which it touched.
grep -q "^set ylabel 'simulated time (ms)'$" lines.gp || fail "y label: $(grep label lines.gp)"
grep -q "using 1:(\$2\*1000) with" lines.gp || fail "y not in ms: $(grep using lines.gp)"
grep -q "^set key below height 1.5$" lines.gp || fail "key: $(grep key lines.gp)"
# np 8 and 16 fill 1 and 2 of the 8 nodes: the plot says so, in its title.
grep -q '^set title "fewer nodes than the platform has: np 8 on 1 of 8 nodes, np 16 on 2 of 8 nodes"$' lines.gp ||
    fail "no note of the nodes left empty: $(grep title lines.gp)"
grep -q "plot: fewer nodes than the platform has: np 8 on 1 of 8 nodes" err.log ||
    fail "no note of the nodes left empty: $(cat err.log)"
g=0
for set in 1x 2x; do for algo in ring bruck; do
    block d$g lines.gp > got.txt
    [ "$(wc -l < got.txt)" -eq 2 ] || fail "line $set $algo: $(cat got.txt)"
    for np in 8 16; do
        y=$(awk -v x=$np '$1 == x { print $2 }' got.txt)
        same "$y" "$(time_of $set $algo $np)" || fail "line $set $algo at np $np: $y, expected $(time_of $set $algo $np)"
    done
    g=$((g + 1))
done; done

# Speedup over 1x, bars by setting: 1 for the reference, t(1x) / t(2x) else.
"$simcoll" plot whatif.csv -x set -y sim_time_s --by algo --where np=16 \
    --relative-to set=inter.bandwidth=1x -o speedup.gp 2>err.log || fail "--relative-to: $(cat err.log)"
grep -q "set style data histograms" speedup.gp || fail "no bars for an x of words"
block bars speedup.gp > bars.txt
[ "$(sed -n 1p bars.txt)" = '"inter.bandwidth=1x" 1 1' ] || fail "reference bars: $(cat bars.txt)"
for i in 1 2; do
    algo=$(echo ring bruck | cut -d' ' -f$i)
    got=$(sed -n 2p bars.txt | awk -v i=$((i + 1)) '{ print $i }')
    want=$(awk -v a="$(time_of 1x $algo 16)" -v b="$(time_of 2x $algo 16)" 'BEGIN { printf "%.17g", a / b }')
    same "$got" "$want" || fail "speedup of $algo: $got, expected $want"
done
if command -v gnuplot > /dev/null; then
    "$simcoll" plot whatif.csv -x set -y sim_time_s --by algo --where np=16 \
        --relative-to set=inter.bandwidth=1x -o speedup.png 2>err.log || fail "bars as PNG: $(cat err.log)"
    head -c 4 speedup.png | grep -q PNG || fail "bars as PNG: not a PNG"
fi
# Against one setting of two axes: ring at 1x, every line.
"$simcoll" plot whatif.csv -x np -y sim_time_s --by set,algo --relative-to set=inter.bandwidth=1x \
    --relative-to algo=ring -o both.gp 2>err.log || fail "two --relative-to: $(cat err.log)"
[ "$(block d0 both.gp)" = "$(printf '8 1\n16 1')" ] || fail "ring at 1x against itself: $(block d0 both.gp)"
got=$(block d3 both.gp | awk '$1 == 16 { print $2 }')
want=$(awk -v a="$(time_of 1x ring 16)" -v b="$(time_of 2x bruck 16)" 'BEGIN { printf "%.17g", a / b }')
same "$got" "$want" || fail "bruck at 2x against ring at 1x: $got, expected $want"
grep -q '^set title "the reference: set=inter.bandwidth=1x, algo=ring\\nfewer nodes' both.gp ||
    fail "the reference is not named: $(grep title both.gp)"
# Of times, the ratio is a speedup, and says so.
grep -q "^set ylabel 'speedup over the reference (its simulated time / this one..s)'$" both.gp ||
    fail "speedup label: $(grep ylabel both.gp)"
"$simcoll" plot whatif.csv -x np -y sim_time_s --by set --where algo=ring \
    --relative-to set=inter.bandwidth=3x -o none.gp 2>err.log
[ $? -eq 2 ] && grep -q "no row to draw (none has a row to compare with)" err.log ||
    fail "--relative-to a value no row has: $(cat err.log)"

# A run's CSV: the reference is the row of the same process count and size.
"$simcoll" --platform "$platforms/gige.xml" --compare ring,bruck --np 4,8 --size 2K \
    --format csv > runs.csv || fail "the runs failed"
"$simcoll" plot runs.csv -x np -y sim_time_s --by algo --relative-to algo=ring -o runs.gp 2>err.log ||
    fail "--relative-to on a run's CSV: $(cat err.log)"
[ "$(block d0 runs.gp)" = "$(printf '4 1\n8 1')" ] || fail "ring against itself: $(block d0 runs.gp)"

# Sizes tick as simcoll prints them: "16 B" and "KiB", not "16   B" and "kiB".
"$simcoll" --platform "$platforms/gige.xml" --compare ring --np 4 --size 16,1K,64K \
    --format csv > sizes.csv || fail "the size runs failed"
"$simcoll" plot sizes.csv -x size_bytes -y sim_time_s -o sizes.gp 2>err.log || fail "sizes: $(cat err.log)"
grep -q "^set xtics ('16 B' 16, '256 B' 256, '4 KiB' 4096, '64 KiB' 65536)$" sizes.gp ||
    fail "size ticks: $(grep tics sizes.gp)"

# A sweep's failed points have no figures: left out, said so.
cat > failing.ini <<STUDY
platform = $platforms/gige.xml
algo = ring
np = 8, 100
size = 1K
payload = no
STUDY
"$simcoll" sweep failing.ini -o failing.csv 2>/dev/null
"$simcoll" plot failing.csv -x np -y sim_time_s -o failing.gp 2>err.log ||
    fail "a sweep with a failed point: $(cat err.log)"
grep -q "1 row of failed points (status not ok) left out" err.log ||
    fail "failed points: $(cat err.log)"
[ "$(block d0 failing.gp | wc -l)" -eq 1 ] || fail "failed points drawn: $(block d0 failing.gp)"

# A line per row draws dots: said so.
"$simcoll" plot whatif.csv -x np -y sim_time_s --by key -o dots.gp 2>err.log || fail "--by key failed"
grep -q "each line has one point" err.log || fail "--by key: no warning: $(cat err.log)"
echo "plot.sh: ok"
