#!/bin/sh
# Where a platform's numbers came from (simcoll/source/...): a run that
# rests on an assumed parameter says so, naming it with the size of its
# effect; one whose parameters are all measured or published says nothing;
# simcoll platform keeps the marks through --like and marks a --set's;
# a bad mark is refused, naming it; a sweep's assumed column and plot.
# usage: sources.sh SIMCOLL PLATFORMS_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
simcoll=$1 platforms=$2
. "$(dirname "$0")/lib.sh"
count_failures
cd "$work" || exit 1

# tengige.xml's shared memory is gige.xml's, assumed: a 1 MiB allreduce on
# 48 ranks of 4 nodes waits on its memory bus.
"$simcoll" --platform "$platforms/tengige.xml" --algo allreduce-rabenseifner --np 48 --size 1M \
    >out 2>err || fail "tengige run: $(cat err)"
grep -Eq '^note: this result rests on assumed intra\.bandwidth \(5\.333GBps, from gige\.xml.s DDR2-667 peak .*\): at 0\.5x it moves by \+[0-9]+%$' err ||
    fail "no note on intra.bandwidth: $(cat err)"
grep -q 'inter\.' err && fail "a note on a measured or published network parameter: $(cat err)"

# The same platform with every mark measured or published: no note.
sed 's/value="assumed: /value="published: /' "$platforms/tengige.xml" >published.xml
"$simcoll" --platform published.xml --algo allreduce-rabenseifner --np 48 --size 1M >out 2>err ||
    fail "published run: $(cat err)"
[ -s err ] && fail "notes without an assumed parameter: $(cat err)"

# A platform without marks: nothing either.
grep -v 'simcoll/source/' "$platforms/tengige.xml" >unmarked.xml
"$simcoll" --platform unmarked.xml --algo allreduce-rabenseifner --np 48 --size 1M >out 2>err ||
    fail "unmarked run: $(cat err)"
[ -s err ] && fail "notes on an unmarked platform: $(cat err)"

# --like keeps every mark; --set marks its parameter set, whose run note
# calls it the what-if's own.
"$simcoll" platform --like "$platforms/tengige.xml" --nodes 4 --set intra.bandwidth=2x \
    -o whatif.xml 2>err || fail "platform --like --set: $(cat err)"
grep -q '<prop id="simcoll/source/intra/bandwidth" value="set: --set intra.bandwidth=2x"/>' whatif.xml ||
    fail "--set's parameter not marked set: $(grep source whatif.xml)"
[ "$(grep -c 'simcoll/source/intra/bandwidth' whatif.xml)" -eq 1 ] ||
    fail "intra.bandwidth marked twice: $(grep source/intra/bandwidth whatif.xml)"
for p in node/speed header-bytes intra/latency intra/send-overhead inter/latency inter/gap; do
    want=$(grep "simcoll/source/$p\"" "$platforms/tengige.xml" | sed 's/^ *//')
    grep -qF "$want" whatif.xml || fail "--like lost $p: $want"
done
"$simcoll" platform --like whatif.xml --nodes 2 --set inter.latency=2us -o again.xml 2>err ||
    fail "platform --like a what-if: $(cat err)"
grep -q 'source/intra/bandwidth" value="set: --set intra.bandwidth=2x"' again.xml ||
    fail "a --like of a what-if lost its set mark"
grep -q 'source/inter/latency" value="set: --set inter.latency=2us"' again.xml ||
    fail "the second --set not marked"
"$simcoll" --platform whatif.xml --algo allreduce-rabenseifner --np 48 --size 1M >out 2>err ||
    fail "what-if run: $(cat err)"
grep -Eq "^note: this result rests on assumed intra\.bandwidth \(10\.666GBps, --set intra\.bandwidth=2x, this what-if's own\): at 0\.5x it moves by" err ||
    fail "no note on the what-if's own intra.bandwidth: $(cat err)"

# A run that its assumed parameters move by less than 10% says nothing:
# gige.xml's three assumed shared-memory parameters, all at their slower
# sides at once (what the check reruns), move a 1 KiB ring on 16 ranks of
# 2 nodes by less than 10%.
"$simcoll" --platform "$platforms/gige.xml" --algo ring --np 16 --size 1K --format csv >base.csv 2>err ||
    fail "gige ring: $(cat err)"
[ -s err ] && fail "a note on a run its assumed parameters barely move: $(cat err)"
"$simcoll" platform --like "$platforms/gige.xml" --set intra.bandwidth=0.5x \
    --set intra.latency=1.5x --set intra.send-overhead=1.5x -o slower.xml 2>err ||
    fail "platform --set at the slower sides: $(cat err)"
"$simcoll" --platform slower.xml --algo ring --np 16 --size 1K --format csv >slower.csv 2>/dev/null ||
    fail "gige ring at the slower sides"
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "sim_time_s") c = i; next }
         FNR == 2 { t[++n] = $c }
         END { d = t[2] / t[1] - 1; if (!(n == 2 && d >= -0.1 && d <= 0.1)) exit 1 }' base.csv slower.csv ||
    fail "the slower sides move the ring by more than 10%: $(cat base.csv slower.csv)"

# Jobs side by side: their time together is checked as a run's.
printf 'loop 4\n  allreduce 1M\nend\n' >big.prog
"$simcoll" run --platform "$platforms/ib4x.xml" --job big.prog@0-1 --job big.prog@2-3 >out 2>err ||
    fail "jobs run: $(cat err)"
grep -Eq "^note: the jobs' time together rests on assumed intra\.bandwidth \(5\.333GBps, .*\): at 0\.5x it moves by \+[0-9]+%$" err ||
    fail "no note on the jobs' time together: $(cat err)"

# --net takes the preset's marks for the network.
"$simcoll" platform --like "$platforms/tengige.xml" --net ib4x-ddr --nodes 4 -o net.xml 2>err ||
    fail "platform --net: $(cat err)"
grep -q 'source/inter/bandwidth" value="published: MPI bandwidth 1497 MB/s' net.xml ||
    fail "--net's network not marked as its preset: $(grep source/inter net.xml)"
grep -q 'taurus_26_07_2016' net.xml && fail "--net kept the template's network marks"

# Bad marks: refused, exit 2, naming the value or the id.
bad() { # ID VALUE REGEX
    sed "s|<prop id=\"simcoll/header-bytes\" value=\"40\"/>|&<prop id=\"$1\" value=\"$2\"/>|" \
        unmarked.xml >bad.xml
    "$simcoll" --platform bad.xml --algo bruck --np 4 >out 2>err
    code=$?
    [ $code -eq 2 ] || fail "$1=$2: exit $code, expected 2"
    [ -s out ] && fail "$1=$2: wrote to stdout"
    grep -Eq "$3" err || fail "$1=$2: $(cat err)"
}
bad simcoll/source/intra/bandwidth "guessed: a number" \
    "bad.xml':[0-9]+: <prop id=\"simcoll/source/intra/bandwidth\"> = 'guessed: a number': give 'measured: FILE and FIT'"
bad simcoll/source/intra/bandwidth "measured" "= 'measured': give 'measured: FILE and FIT'"
bad simcoll/source/intra/bandwidth "published:  " "= 'published:  ': give"
bad simcoll/source/intra/speed "assumed" "'simcoll/source/intra/speed' names no parameter"
bad simcoll/source/inter/overhead "assumed" "'simcoll/source/inter/overhead' names no parameter"
sed 's|<prop id="simcoll/header-bytes" value="40"/>|&<prop id="simcoll/source/header-bytes" value="assumed"/><prop id="simcoll/source/header-bytes" value="published: x"/>|' \
    unmarked.xml >bad.xml
"$simcoll" --platform bad.xml --algo bruck --np 4 >out 2>err
[ $? -eq 2 ] && grep -q 'simcoll/source/header-bytes"> is set twice' err ||
    fail "a mark given twice: $(cat err)"
# "assumed" alone is a mark.
sed 's|<prop id="simcoll/header-bytes" value="40"/>|&<prop id="simcoll/source/header-bytes" value="assumed"/>|' \
    unmarked.xml >alone.xml
"$simcoll" --platform alone.xml --algo bruck --np 4 >out 2>err || fail "'assumed' alone: $(cat err)"

# A sweep checks the first point of each platform; its CSV's last column
# says what moved, and plot notes the points it draws.
cat >study.ini <<STUDY
platform = $platforms/tengige.xml
algo = allreduce-rabenseifner
np = 48, 24
size = 1M
STUDY
"$simcoll" sweep study.ini -o results.csv 2>err || fail "sweep: $(cat err)"
[ "$(head -n 1 results.csv | awk -F, '{print $NF}')" = assumed ] ||
    fail "no assumed column: $(head -n 1 results.csv)"
[ "$(sed -n 2p results.csv | awk -F, '{print $NF}' | grep -c '"intra.bandwidth at 0.5x +[0-9]*%')" -eq 1 ] ||
    fail "the first point's assumed column: $(sed -n 2p results.csv)"
[ "$(sed -n 3p results.csv | awk -F, '{print $NF}')" = '"not checked"' ] ||
    fail "the second point's assumed column: $(sed -n 3p results.csv)"
grep -q '^note: platform=.*np=48;size=1M: this result rests on assumed intra.bandwidth' err ||
    fail "the sweep's note: $(cat err)"
if command -v gnuplot >/dev/null 2>&1; then
    "$simcoll" plot results.csv -x np -y sim_time_s -o plot.png 2>err || fail "plot: $(cat err)"
    grep -q '^note: point .*np=48;size=1M rests on assumed intra.bandwidth at 0.5x +' err ||
        fail "plot's note: $(cat err)"
    grep -q '^note: 1 of the points drawn use assumed parameters that the sweep did not check' err ||
        fail "plot's unchecked note: $(cat err)"
fi
passed "sources: notes, marks kept and set, bad marks refused, sweep and plot"
