# The start the experiments' scripts share, sourced right after `set -eu` as
#   . "$(dirname "$0")/../common.sh"
# so that a script runs from any directory. It sets here (the experiment's
# folder), top (the source tree), results (here/results, made if missing) and
# scratch (a temporary folder, removed on exit), and the checks below name
# the script as it was called, as its own messages do.
# SPDX-License-Identifier: GPL-2.0-or-later
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
script=$(basename "$0")
results=$here/results
mkdir -p "$results"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# need_simcoll PATH: stop unless PATH is a built simcoll.
need_simcoll() {
    [ -x "$1" ] || { echo "$script: build simcoll first (./setup.sh)" >&2; exit 2; }
}

# need_gnuplot: stop unless gnuplot is there to draw the plots.
need_gnuplot() {
    command -v gnuplot >/dev/null || { echo "$script: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 2; }
}

# need_results CSV: for --replot, stop unless results/CSV is there to replot.
need_results() {
    [ -s "$results/$1" ] || { echo "$script: no results/$1 to replot" >&2; exit 2; }
}

# need_clone REPO COMMIT PATH URL: stop unless REPO, the measurements'
# checkout, holds PATH at COMMIT as a clone of URL does.
need_clone() {
    git -C "$1" cat-file -e "$2:$3" 2>/dev/null || {
        echo "$script: '$1' is not a clone of $4 holding commit $2" >&2
        exit 2
    }
}

# replot_start CSV [--replot] [path/to/simcoll]: the arguments of an
# experiment whose --replot redraws its tables and plots from results/CSV
# alone. Sets replot (1 after --replot) and simcoll (as given, else the
# build's) and stops unless what the run needs is there: simcoll to
# simulate, results/CSV to redraw, gnuplot either way.
replot_start() {
    replot=0
    if [ "${2:-}" = --replot ]; then
        replot=1
        need_results "$1"
        shift
    fi
    simcoll=${2:-$top/build/simcoll}
    [ $replot = 1 ] || need_simcoll "$simcoll"
    need_gnuplot
}

# sweep_study CSV: simcoll sweep of the experiment's study.ini (run from
# here, two points at a time) into results/CSV. The generated platforms'
# paths are the scratch folder's: only their names are kept.
# sweep_study CSV [STUDY]: ... of STUDY instead (default study.ini).
sweep_study() {
    (cd "$here" && "$simcoll" sweep "${2:-study.ini}" -j 2 -o "$scratch/$1")
    sed "s|$scratch/$1.platforms/||g" "$scratch/$1" > "$results/$1"
}

# sweep_start CSV [--replot] [path/to/simcoll]: replot_start for an
# experiment whose results are the sweep of its study.ini into results/CSV,
# swept unless --replot, and whose plots simcoll plot draws, so that it needs
# simcoll to replot too.
sweep_start() {
    replot_start "$@"
    need_simcoll "$simcoll" # simcoll plot draws the plots
    [ $replot = 1 ] || sweep_study "$1"
}
