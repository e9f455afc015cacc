# Per operation of a validation CSV (operation first, relative error sixth,
# a header line first): the points, and the median and largest |error|.
# usage: awk -F, -f summary.awk FILE.csv | sort
# SPDX-License-Identifier: GPL-2.0-or-later
NR > 1 { e = $6 < 0 ? -$6 : $6; n[$1]++; v[$1, n[$1]] = e }
END {
    print "# operation points median|error| largest|error|"
    for (op in n) {
        k = n[op]
        for (i = 1; i <= k; i++)
            for (j = i + 1; j <= k; j++)
                if (v[op, j] < v[op, i]) { t = v[op, i]; v[op, i] = v[op, j]; v[op, j] = t }
        med = k % 2 ? v[op, (k + 1) / 2] : (v[op, k / 2] + v[op, k / 2 + 1]) / 2
        printf "%s %d %.1f%% %.1f%%\n", op, k, 100 * med, 100 * v[op, k]
    }
}
