# By size class, up to 4 KiB and above, of lines "bytes call_error bench_error"
# (relative errors of one call's prediction and of the benchmark's, as
# simcoll validate --measure gives it): points, then the median |error| and
# the median signed error of each.
# usage: awk -v bench=osu -f classes.awk LINES
# SPDX-License-Identifier: GPL-2.0-or-later
function median(v, k,    i, j, t) {
    for (i = 1; i <= k; i++)
        for (j = i + 1; j <= k; j++)
            if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
# figures C: "median|error| median-error" of column C (2: one call, 3: bench) of class k
function figures(k, c,    i, a, s) {
    for (i = 1; i <= n[k]; i++) { s[i] = e[k, c, i]; a[i] = s[i] < 0 ? -s[i] : s[i] }
    return sprintf("%.1f%% %+.1f%%", 100 * median(a, n[k]), 100 * median(s, n[k]))
}
# the point's class, then "all"
function add(k) { n[k]++; e[k, 2, n[k]] = $2; e[k, 3, n[k]] = $3 }
NF >= 3 { add($1 <= 4096 ? 1 : 2); add(3) }
END {
    name[1] = "up to 4 KiB"; name[2] = "above 4 KiB"; name[3] = "all"
    printf "# size class: points | one call: median|error| median error | %s: median|error| median error\n", bench
    for (k = 1; k <= 3; k++)
        if (n[k])
            printf "%s: %d | %s | %s\n", name[k], n[k], figures(k, 2), figures(k, 3)
}
