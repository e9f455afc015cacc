# The start the answer keys' answers.sh share, sourced right after `set -eu`
# as
#   . "$(dirname "$0")/../lib.sh"
# with the script's own arguments ([path/to/simcoll]). It sets here (the
# key's folder), top (the source tree), lab (the lab's handout folder),
# simcoll (as given, else the build's), gige (the shipped platform the labs
# run on) and scratch (a temporary folder, removed on exit).
# SPDX-License-Identifier: GPL-2.0-or-later
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
lab=$top/experiments/labs/$(basename "$here")
simcoll=${1:-$top/build/simcoll}
gige=$top/platforms/gige.xml
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
