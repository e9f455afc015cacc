# Helpers of cloud-noise.sh, by mode (awk -v mode=MODE -f cloud-noise.awk):
#   medians  "size value" lines sorted by size then value -> "size median"
#   stats    "max mean" lines, one per iteration (seconds) ->
#            "iterations median(max) p10(max) p90(max) median(mean)"
#   predict  -v op=NAME -v p=NODES -v m=BYTES (no input: give /dev/null) ->
#            "ALGO NP SIZE", the simcoll run that sends the benchmark's
#            messages, or nothing when none does
#   summary  a cloud-noise-SYSTEM.csv (-F,) -> per operation: points, median
#            and largest |error|, the measured spread, and the median and
#            largest |error| before (the platform without B_bi)
#   ranking  the same CSV -> per (run, nodes, size) with two or more
#            algorithms: measured and predicted order, top-1, Kendall's tau-b;
#            with -v before=1 the predictions before, and the totals only
# SPDX-License-Identifier: GPL-2.0-or-later

# In-place heapsort of a[1..n], ascending.
function sift(a, start, end,    root, child, t) {
    root = start
    while (2 * root <= end) {
        child = 2 * root
        if (child + 1 <= end && a[child] < a[child + 1])
            child++
        if (a[root] < a[child]) {
            t = a[root]; a[root] = a[child]; a[child] = t
            root = child
        } else
            return
    }
}
function heapsort(a, n,    i, t) {
    for (i = int(n / 2); i >= 1; i--)
        sift(a, i, n)
    for (i = n; i > 1; i--) {
        t = a[1]; a[1] = a[i]; a[i] = t
        sift(a, 1, i - 1)
    }
}
# Of sorted a[1..n]: the median, and the q-quantile by nearest rank.
function median(a, n) {
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function quantile(a, n, q,    k) {
    k = int(q * n)
    if (k < q * n)
        k++
    return a[k < 1 ? 1 : k]
}
function abs(x) { return x < 0 ? -x : x }
function pow2(x) { while (x > 1 && x % 2 == 0) x /= 2; return x == 1 }

# Which simcoll run sends the messages of benchmark op on p nodes, m bytes.
function predict(op, p, m,    seg) {
    if (!pow2(p))
        return ""  # the trees match for powers of two only
    if (op == "binomialtreebcast")
        return "bcast-binomial " p " " m
    if (op == "binarytreebcast")
        return "bcast-ompi-bintree " p " " m
    if (op ~ /^nwaydissemination(_nocompute)?(_test|_nbsend)?$/)
        return m == 16 ? "barrier " p " 16" : ""
    if (op ~ /^pipelinedring(_test|_nbsend)?$/) {
        seg = int(m / p)   # convert_all.sh: --segmentsize $((MESSAGE_SIZE / NODES))
        if (seg < 1 || seg * p != m)
            return ""      # 0-byte segments: the generated program is empty
        return "ring " (p + 1) " " seg
    }
    return ""              # linear_alltoall: simcoll has no alltoall
}

mode == "medians" {
    if (NR > 1 && $1 != size) {
        print size, median(v, n)
        n = 0
    }
    size = $1
    v[++n] = $2 + 0
    next
}
mode == "stats" {
    n++
    mx[n] = $1 + 0
    mean[n] = $2 + 0
    next
}
mode == "summary" && FNR > 1 {
    op = $3
    k = ++cnt[op]
    err[op, k] = $14 + 0
    errm[op, k] = $17 + 0
    errb[op, k] = $19 + 0
    spread[op, k] = $11 > 0 ? $12 / $11 : 0
    if (!(op in seen)) { seen[op] = 1; order[++nops] = op }
    r = $2
    kr = ++rcnt[r]
    rerr[r, kr] = abs($14 + 0)
    rerrb[r, kr] = abs($19 + 0)
    rspread[r, kr] = spread[op, k]
    if (!(r in rseen)) { rseen[r] = 1; rorder[++nruns] = r }
    next
}
mode == "ranking" && FNR > 1 {
    # one algorithm per benchmark family: the plain (blocking) variant,
    # nwaydissemination_nocompute before nwaydissemination (a 16 ns calc)
    op = $3
    fam = op == "nwaydissemination_nocompute" || op == "nwaydissemination" ? "dissemination" : op
    if (fam != "binomialtreebcast" && fam != "binarytreebcast" && fam != "dissemination" &&
        fam != "pipelinedring")
        next
    g = $2 " " $4 " " $5
    if ((g, fam) in have && op != "nwaydissemination_nocompute")
        next
    if (!((g, fam) in have)) {
        k = ++size_of[g]
        name[g, k] = fam
        if (!(g in gseen)) { gseen[g] = 1; groups[++ngroups] = g }
        have[g, fam] = k
    }
    k = have[g, fam]
    meas[g, k] = $10 + 0
    pred[g, k] = (before ? $18 : $13) + 0
    next
}
END {
    if (mode == "medians" && n)
        print size, median(v, n)
    if (mode == "stats" && n) {
        heapsort(mx, n)
        heapsort(mean, n)
        printf "%d %.6g %.6g %.6g %.6g\n", n, median(mx, n), quantile(mx, n, 0.1),
            quantile(mx, n, 0.9), median(mean, n)
    }
    if (mode == "predict") {
        s = predict(op, p + 0, m + 0)
        if (s != "")
            print s
    }
    if (mode == "summary") {
        print "# operation points median|error| largest-error median|error|-mean-over-ranks median-p90/p10 | before (no B_bi): median|error| largest-error"
        for (i = 1; i <= nops; i++) {
            op = order[i]
            k = cnt[op]
            largest = largestb = 0
            for (j = 1; j <= k; j++) {
                a[j] = abs(err[op, j])
                b[j] = abs(errm[op, j])
                c[j] = spread[op, j]
                d[j] = abs(errb[op, j])
                if (abs(err[op, j]) > abs(largest))
                    largest = err[op, j]
                if (abs(errb[op, j]) > abs(largestb))
                    largestb = errb[op, j]
            }
            heapsort(a, k)
            heapsort(b, k)
            heapsort(c, k)
            heapsort(d, k)
            printf "%s %d %.1f%% %+.1f%% %.1f%% %.2f | %.1f%% %+.1f%%\n", op, k, 100 * median(a, k),
                100 * largest, 100 * median(b, k), median(c, k), 100 * median(d, k), 100 * largestb
            all += k
            for (j = 1; j <= k; j++) {
                t[++nt] = a[j]
                tb[nt] = d[j]
            }
        }
        heapsort(t, nt)
        heapsort(tb, nt)
        printf "all %d %.1f%% | %.1f%%\n", nt, 100 * median(t, nt), 100 * median(tb, nt)
        print "# run points median|error| median-p90/p10 | before: median|error|"
        for (i = 1; i <= nruns; i++) {
            r = rorder[i]
            k = rcnt[r]
            for (j = 1; j <= k; j++) { a[j] = rerr[r, j]; c[j] = rspread[r, j]; d[j] = rerrb[r, j] }
            heapsort(a, k)
            heapsort(c, k)
            heapsort(d, k)
            printf "%s %d %.1f%% %.2f | %.1f%%\n", r, k, 100 * median(a, k), median(c, k), 100 * median(d, k)
        }
    }
    if (mode == "ranking") {
        if (!before) {
            print "# per run, nodes, bytes with two algorithms or more: measured order (fastest"
            print "# first), predicted order, top-1 agreement, Kendall's tau-b"
        }
        for (i = 1; i <= ngroups; i++) {
            g = groups[i]
            k = size_of[g]
            if (k < 2)
                continue
            # orders by insertion sort of indices
            for (j = 1; j <= k; j++) { om[j] = j; op_[j] = j }
            for (x = 2; x <= k; x++)
                for (y = x; y > 1 && meas[g, om[y]] < meas[g, om[y - 1]]; y--) {
                    tmp = om[y]; om[y] = om[y - 1]; om[y - 1] = tmp }
            for (x = 2; x <= k; x++)
                for (y = x; y > 1 && pred[g, op_[y]] < pred[g, op_[y - 1]]; y--) {
                    tmp = op_[y]; op_[y] = op_[y - 1]; op_[y - 1] = tmp }
            mo = ""; po = ""
            for (j = 1; j <= k; j++) {
                mo = mo (j > 1 ? "<" : "") name[g, om[j]]
                po = po (j > 1 ? (pred[g, op_[j]] == pred[g, op_[j - 1]] ? "=" : "<") : "") name[g, op_[j]]
            }
            # top-1: the measured fastest is among the predicted fastest
            top = pred[g, om[1]] == pred[g, op_[1]]
            conc = disc = tm = tp = 0
            for (x = 1; x <= k; x++)
                for (y = x + 1; y <= k; y++) {
                    dm = meas[g, x] - meas[g, y]
                    dp = pred[g, x] - pred[g, y]
                    if (dm == 0) tm++
                    if (dp == 0) tp++
                    if (dm * dp > 0) conc++
                    else if (dm * dp < 0) disc++
                }
            n0 = k * (k - 1) / 2
            den = (n0 - tm) * (n0 - tp)
            tau = den > 0 ? (conc - disc) / sqrt(den) : 0
            if (!before)
                printf "%s measured %s predicted %s top1 %s tau %.2f\n", g, mo, po, top ? "yes" : "no", tau
            ng++
            ntop += top
            sumtau += tau
            # the two broadcasts alone
            ib = it = 0
            for (j = 1; j <= k; j++) {
                if (name[g, j] == "binomialtreebcast") ib = j
                if (name[g, j] == "binarytreebcast") it = j
            }
            if (ib && it) {
                nb++
                dm = meas[g, ib] - meas[g, it]
                dp = pred[g, ib] - pred[g, it]
                bagree += dm * dp > 0
            }
        }
        if (ng)
            printf "# %s%d groups: top-1 agrees in %d, mean tau-b %.2f", before ? "before (no B_bi): " : "",
                ng, ntop, sumtau / ng
        if (nb)
            printf "; binomial against binary tree broadcast: same order in %d of %d", bagree, nb
        if (ng)
            print ""
    }
}
