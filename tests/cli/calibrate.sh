#!/bin/sh
# simcoll calibrate end to end: the platform it writes loads and runs, says
# what it was fitted to, and --report on it gives the residuals of the fit.
# usage: calibrate.sh SIMCOLL SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
simcoll=$1 src=$2
m=$src/tests/measurements
. "$(dirname "$0")/lib.sh"
count_failures

data="--smpi-csv $m/smpi-isend.csv --smpi-csv $m/smpi-recv.csv --smpi-csv $m/smpi-pingpong.csv"
"$simcoll" calibrate $data --like "$src/platforms/gige.xml" \
    -o "$work/fitted.xml" >"$work/fit.txt" 2>"$work/err" || fail "calibrate: $(cat "$work/err")"
grep -q '<prop id="simcoll/inter/send-overhead" value="0:' "$work/fitted.xml" ||
    fail "no fitted send overhead in the platform"
grep -q 'smpi-pingpong.csv (SimGrid platform-calibration PingPong, 4 points)' "$work/fitted.xml" ||
    fail "the platform does not name what it was fitted to"
grep -q 'simcoll/inter/overhead' "$work/fitted.xml" &&
    fail "the constant overhead of the template stayed beside the fitted one"
"$simcoll" --platform "$work/fitted.xml" --algo bruck --np 16 >/dev/null 2>"$work/err" ||
    fail "the fitted platform does not run: $(cat "$work/err")"
# The residuals of --report on the written platform are those of the fit.
"$simcoll" calibrate --report --platform "$work/fitted.xml" $data >"$work/report.txt" 2>&1 ||
    fail "calibrate --report failed"
sed -n '/# residuals per series/,$p' "$work/fit.txt" >"$work/a"
sed -n '/# residuals per series/,$p' "$work/report.txt" >"$work/b"
cmp -s "$work/a" "$work/b" || fail "the report on the written platform differs from the fit's"
grep -q "smpi-pingpong.csv:1  latency" "$work/report.txt" || fail "--report gives no point"
# --latency-factor: the factors reach the platform, which loads and runs,
# and its residuals are again those of the fit.
osu="--osu-latency $m/osu_latency-5.6.txt"
"$simcoll" calibrate $osu --like "$src/tests/platforms/uneven.xml" --latency-factor \
    -o "$work/lat.xml" >"$work/lat-fit.txt" 2>"$work/err" ||
    fail "calibrate --latency-factor: $(cat "$work/err")"
grep -q '<prop id="simcoll/inter/latency-factor" value="0:1;6141:' "$work/lat.xml" ||
    fail "no fitted latency factor in the platform"
"$simcoll" --platform "$work/lat.xml" --algo bruck --np 16 --size 64K >/dev/null 2>"$work/err" ||
    fail "the platform with a fitted latency factor does not run: $(cat "$work/err")"
"$simcoll" calibrate --report --platform "$work/lat.xml" $osu >"$work/lat-report.txt" 2>&1 ||
    fail "calibrate --report on a latency factor failed"
sed -n '/# residuals per series/,$p' "$work/lat-fit.txt" >"$work/a"
sed -n '/# residuals per series/,$p' "$work/lat-report.txt" >"$work/b"
cmp -s "$work/a" "$work/b" ||
    fail "the report on the latency factor's platform differs from the fit's"
# A template's range LO..HI of a parameter no measurement gives stays a range,
# named as such; the others, fitted, replace theirs. ranged.xml: the network's
# send overhead 1us..5us, shared memory's eager limit 2048..6144.
ranged=$src/tests/platforms/ranged.xml
"$simcoll" calibrate $osu --like "$ranged" -o "$work/ranged.xml" >/dev/null 2>"$work/err" ||
    fail "calibrate --like ranged.xml: $(cat "$work/err")"
grep -q 'kept from the template, as no measurement gives them: o_s 1us..5us (a range), o_r' \
    "$work/err" || fail "calibrate does not say it keeps o_s's range: $(cat "$work/err")"
grep -q '<prop id="simcoll/inter/overhead" value="1us..5us"/>' "$work/ranged.xml" ||
    fail "the network's send overhead lost its range"
grep -q 'simcoll/inter/send-overhead' "$work/ranged.xml" &&
    fail "the range's midpoint stayed beside it"
"$simcoll" --platform "$work/ranged.xml" --algo bcast-binomial --np 2 --mapping cyclic \
    --size 512 >"$work/out" 2>"$work/err" && grep -q 'over the 4 corners of' "$work/out" ||
    fail "the calibrated platform runs no corners of its ranges: $(cat "$work/out" "$work/err")"
one_socket="--osu-latency $m/osu_latency-one-socket.txt"
"$simcoll" calibrate --level intra $one_socket --like "$ranged" -o "$work/intra.xml" \
    >/dev/null 2>"$work/err" || fail "calibrate --level intra --like ranged.xml: $(cat "$work/err")"
grep -q 'eager-limit 2048..6144 (a range)' "$work/err" &&
    grep -q '<prop id="simcoll/intra/eager-limit" value="2048..6144"/>' "$work/intra.xml" ||
    fail "shared memory's eager limit lost its range: $(cat "$work/err")"
"$simcoll" calibrate --level intra $one_socket --like "$ranged" --eager-limit 4K \
    -o "$work/intra4k.xml" >/dev/null 2>&1 &&
    grep -q '<prop id="simcoll/intra/eager-limit" value="4096"/>' "$work/intra4k.xml" ||
    fail "--eager-limit does not replace the template's range"
# Shared memory from its ping-pong alone: the sender's share (0.5 unless
# --sender-share says) of the one-way time per eager segment is its o_s, of
# the smallest message's past the eager limit (gige.xml's, 64 KiB); marked
# assumed; the ping-pong comes back whatever the share.
gige=$src/platforms/gige.xml
"$simcoll" calibrate --level intra $one_socket --like "$gige" -o "$work/share.xml" \
    >"$work/share.txt" 2>"$work/err" || fail "calibrate --level intra: $(cat "$work/err")"
grep -q '^o_s \[0, 65537) *9.997e-07 s + 1e-10 s/B *0.5 of the ping-pong' "$work/share.txt" &&
    grep -q '^o_s \[65537, ...) *9.997e-07 s + 0 s/B *rendezvous' "$work/share.txt" ||
    fail "o_s is not half the ping-pong's: $(grep '^o_s' "$work/share.txt")"
grep -q 'simcoll/source/intra/send-overhead" value="assumed: 0.5 of the ping-pong' \
    "$work/share.xml" || fail "the sender's share is not marked assumed"
"$simcoll" calibrate --level intra $one_socket --like "$gige" --sender-share 0 \
    -o "$work/noshare.xml" >"$work/noshare.txt" 2>&1 &&
    grep -q '^o_s .*no samples: the template.s, kept' "$work/noshare.txt" ||
    fail "--sender-share 0 does not keep the template's o_s"
printf 'send 1000 from=0 to=1\n' >"$work/one.prog"
for f in share noshare; do
    "$simcoll" run --platform "$work/$f.xml" --np 2 --no-payload --format csv "$work/one.prog" |
        cut -d, -f8 | tail -1 >"$work/$f.time"
done
awk '{ t[NR] = $1 } END { d = t[1] / t[2] - 1; exit !(d < 0.01 && d > -0.01) }' \
    "$work/share.time" "$work/noshare.time" ||
    fail "a message of 1000 B takes $(cat "$work/share.time") s with the share," \
         "$(cat "$work/noshare.time") s without"
# A level of domains gets its own o_s, marked assumed too.
"$simcoll" calibrate --level socket --osu-latency "$m/osu_latency-two-sockets.txt" \
    --like "$work/share.xml" --domains 2 -o "$work/share2.xml" >/dev/null 2>&1 &&
    grep -q '<prop id="simcoll/socket/send-overhead" value="0:1.149744432us:100.0171255ps;65537:1.149744432us:0s"/>' \
        "$work/share2.xml" &&
    grep -q 'simcoll/source/socket/send-overhead" value="assumed: 0.5' "$work/share2.xml" ||
    fail "the socket level has no o_s of its own: $(grep send-overhead "$work/share2.xml")"
for share in -0.1 1.5 half; do
    "$simcoll" calibrate --level intra $one_socket --like "$gige" --sender-share "$share" \
        >/dev/null 2>"$work/err"
    [ $? = 2 ] && grep -q "sender-share: '$share' is not a share between 0 and 1" "$work/err" ||
        fail "--sender-share $share is not refused: $(cat "$work/err")"
done
passed "calibrate checks passed"
