# The start the command-line tests share, sourced once a test has read its
# arguments, as
#   . "$(dirname "$0")/lib.sh"
# It makes work, a scratch folder removed on exit, and fail MESSAGE, which
# ends the test there with MESSAGE after the test's name (the script's, or
# test_name where the test sets it). A test that goes on after a failed
# check, so that one run reports every failure, calls count_failures first
# and ends with passed MESSAGE.
# SPDX-License-Identifier: GPL-2.0-or-later
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
test_name=$(basename "$0")

fail() {
    echo "$test_name: $*"
    exit 1
}

# from_source: for a test given SIMCOLL SOURCE_DIR (as simcoll and src):
# into work, where simcoll finds the shipped platforms by name, and traces
# the folder of the shipped traces.
from_source() {
    cd "$work" || exit 1
    export SIMCOLL_PLATFORM_PATH="$src/platforms"
    traces=$src/third_party/traces
}

# count_failures: from here on, fail counts the failure and the test goes on.
count_failures() {
    failures=0
    fail() {
        echo "FAIL: $*"
        failures=$((failures + 1))
    }
}

# passed MESSAGE: the end of a test that counts its failures: MESSAGE and
# exit 0 if none failed, else exit 1.
passed() {
    [ $failures -eq 0 ] && echo "$1"
    exit $((failures > 0))
}
