# bench/learn_plot.awk - the plot of bench/learn.sh: reads DIR/progress.csv
# and writes an SVG of two panels sharing the generations: the training
# losses (policy and value), and the Elo of the best network in all with
# each gate's result (a filled dot for a candidate kept, a hollow one for a
# candidate rejected, at its Elo against the best of its day). Usage:
#   awk -F, -f bench/learn_plot.awk DIR/progress.csv > DIR/progress.svg
NR > 1 {
    n++
    g[n] = $1; p[n] = $3; v[n] = $4; gate[n] = $6; e[n] = $7; acc[n] = $8
    if (gate[n] ~ /inf/) gate[n] = gate[n] ~ /-/ ? -400 : 400
    if ($3 + 0 > lmax) lmax = $3 + 0
    if ($4 + 0 > lmax) lmax = $4 + 0
    if (n == 1 || $7 + 0 > emax) emax = $7 + 0
    if (n == 1 || $7 + 0 < emin) emin = $7 + 0
    if (gate[n] + 0 > emax) emax = gate[n] + 0
    if (gate[n] + 0 < emin) emin = gate[n] + 0
}
function x(i) { return L + W * (n > 1 ? (g[i] - g[1]) / (g[n] - g[1]) : 0.5) }
function yl(val) { return T1 + H * (1 - val / lmax) }
function ye(val) { return T2 + H * (1 - (val - emin) / (emax - emin)) }
function line(arr, which, col,   i, pts) {
    pts = ""
    for (i = 1; i <= n; i++)
        pts = pts sprintf("%.1f,%.1f ", x(i), which == 1 ? yl(arr[i]) : ye(arr[i]))
    printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", col, pts
}
function frame(top, label, lo, hi, fmt,   k, yy) {
    printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n", L, top, W, H
    for (k = 0; k <= 4; k++) {
        yy = top + H * k / 4
        printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", L, L + W, yy, yy
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">" fmt "</text>\n", L - 6, yy + 4, hi - (hi - lo) * k / 4
    }
    printf "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">%s</text>\n", top + H / 2, top + H / 2, label
}
END {
    if (n < 1) exit
    L = 70; W = 620; H = 170; T1 = 50; T2 = T1 + H + 50; width = L + W + 150
    if (lmax <= 0) lmax = 1
    if (emax - emin < 10) { emax += 5; emin -= 5 }
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", width, T2 + H + 50
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"24\" font-size=\"15\">Learning by generation (%d generations)</text>\n", L, n
    frame(T1, "loss", 0, lmax, "%.2f")
    frame(T2, "Elo", emin, emax, "%.0f")
    line(p, 1, "#1f77b4")
    line(v, 1, "#ff7f0e")
    line(e, 2, "#2ca02c")
    for (i = 1; i <= n; i++)
        printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" stroke=\"#d62728\" fill=\"%s\"/>\n", x(i), ye(gate[i]), acc[i] == 1 ? "#d62728" : "white"
    step = n > 20 ? int((n + 9) / 10) : 1
    for (i = 1; i <= n; i += step)
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x(i), T2 + H + 16, g[i]
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">generation</text>\n", L + W / 2, T2 + H + 36
    lx = L + W + 14
    printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#1f77b4\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">policy loss</text>\n", lx, lx + 20, T1 + 10, T1 + 10, lx + 26, T1 + 14
    printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ff7f0e\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">value loss</text>\n", lx, lx + 20, T1 + 30, T1 + 30, lx + 26, T1 + 34
    printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#2ca02c\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">Elo in all</text>\n", lx, lx + 20, T2 + 10, T2 + 10, lx + 26, T2 + 14
    printf "<circle cx=\"%d\" cy=\"%d\" r=\"3.5\" stroke=\"#d62728\" fill=\"#d62728\"/><text x=\"%d\" y=\"%d\">gate: kept</text>\n", lx + 10, T2 + 30, lx + 26, T2 + 34
    printf "<circle cx=\"%d\" cy=\"%d\" r=\"3.5\" stroke=\"#d62728\" fill=\"white\"/><text x=\"%d\" y=\"%d\">gate: rejected</text>\n", lx + 10, T2 + 50, lx + 26, T2 + 54
    printf "<text x=\"%d\" y=\"%d\" fill=\"#666\">(Elo against</text><text x=\"%d\" y=\"%d\" fill=\"#666\">the best then)</text>\n", lx + 26, T2 + 70, lx + 26, T2 + 84
    printf "</svg>\n"
}
