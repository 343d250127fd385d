#!/usr/bin/env python3
"""Draws the capacity curve of docs/benchmarks.md as SVG, from bench_load's JSON lines.

Usage: plot_capacity.py PACED.jsonl [FASTER.jsonl] > capacity.svg

PACED holds the steps at a person's pace (bots thinking 1 to 4 s a decision). FASTER holds runs
at a fixed count of tables with shorter thinking: each is drawn at the count of tables that
would make the same load at a person's pace (tables x the person's mean think time / the run's),
dashed. Top: the action round trip's p99 (log scale) against the target of 50 ms. Bottom: the CPU
of feltd and of the bots, in per cent of one core (the machine has two). Standard library only.
"""
import json
import math
import sys


def steps(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                j = json.loads(line)
                if j.get("kind") == "step":
                    out.append(j)
    return out


def mean_think(step):
    lo, hi = step["think_ms"]
    return (lo + hi) / 2


def main():
    paced = steps(sys.argv[1])
    faster = steps(sys.argv[2]) if len(sys.argv) > 2 else []
    if not paced:
        sys.exit("no steps in " + sys.argv[1])
    person = mean_think(paced[0])
    measured = [(s["tables"], s) for s in paced]
    equivalent = [(s["tables"] * person / mean_think(s), s) for s in faster]
    points = measured + equivalent
    x_max = max(x for x, _ in points) * 1.05
    w, h, left, right = 760, 560, 70, 20
    top_panel = (40, 250)      # y from, y to (p99)
    bottom_panel = (320, 510)  # (CPU)
    y_lo, y_hi = 0.1, 1000.0   # ms, log scale

    def sx(x):
        return left + (w - left - right) * x / x_max

    def sy_log(ms):
        ms = min(max(ms, y_lo), y_hi)
        a, b = top_panel
        return b - (b - a) * (math.log10(ms) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo))

    def sy_cpu(pct):
        a, b = bottom_panel
        return b - (b - a) * min(pct, 200) / 200

    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="14" font-weight="bold">feltd on 2 cores: tables of 6 '
        f'bots at a person\'s pace (think {paced[0]["think_ms"][0] / 1000:g}-'
        f'{paced[0]["think_ms"][1] / 1000:g} s)</text>',
    ]
    # Axes and grid.
    for a, b in (top_panel, bottom_panel):
        svg.append(f'<line x1="{left}" y1="{b}" x2="{w - right}" y2="{b}" stroke="black"/>')
        svg.append(f'<line x1="{left}" y1="{a}" x2="{left}" y2="{b}" stroke="black"/>')
    step = 5000 if x_max > 12000 else 2000 if x_max > 6000 else 1000 if x_max > 3000 else 500
    x = 0
    while x <= x_max:
        for a, b in (top_panel, bottom_panel):
            svg.append(f'<line x1="{sx(x):.1f}" y1="{a}" x2="{sx(x):.1f}" y2="{b}" stroke="#ddd"/>')
        svg.append(f'<text x="{sx(x):.1f}" y="{bottom_panel[1] + 16}" text-anchor="middle">{x:,}</text>')
        x += step
    svg.append(f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">tables of 6 '
               f'(connections = 6 x tables); dashed: the same load made by 3,000 tables thinking '
               f'faster</text>')
    for ms in (0.1, 1, 10, 100, 1000):
        y = sy_log(ms)
        svg.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{ms:g}</text>')
    svg.append(f'<text x="16" y="{sum(top_panel) / 2}" transform="rotate(-90 16 {sum(top_panel) / 2})" '
               f'text-anchor="middle">round trip p99, ms (log)</text>')
    y50 = sy_log(50)
    svg.append(f'<line x1="{left}" y1="{y50:.1f}" x2="{w - right}" y2="{y50:.1f}" stroke="#c00" '
               f'stroke-dasharray="6 3"/>')
    svg.append(f'<text x="{w - right - 4}" y="{y50 - 4:.1f}" text-anchor="end" fill="#c00">target: '
               f'p99 under 50 ms</text>')
    for pct in (0, 50, 100, 150, 200):
        y = sy_cpu(pct)
        svg.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{pct}%</text>')
    svg.append(f'<text x="16" y="{sum(bottom_panel) / 2}" '
               f'transform="rotate(-90 16 {sum(bottom_panel) / 2})" text-anchor="middle">CPU '
               f'(100% = one core)</text>')
    # The open-file limit: the last measured step.
    limit_x = sx(measured[-1][0])
    for a, b in (top_panel, bottom_panel):
        svg.append(f'<line x1="{limit_x:.1f}" y1="{a}" x2="{limit_x:.1f}" y2="{b}" stroke="#888" '
                   f'stroke-dasharray="2 3"/>')
    svg.append(f'<text x="{limit_x + 4:.1f}" y="{top_panel[0] + 12}" fill="#555">open-file limit '
               f'(20,000 a process)</text>')

    def series(pts, key, colour, dashed, ys):
        if not pts:
            return
        d = " ".join(f'{"M" if i == 0 else "L"}{sx(x):.1f},{ys(key(s)):.1f}' for i, (x, s) in enumerate(pts))
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        svg.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for x, s in pts:
            svg.append(f'<circle cx="{sx(x):.1f}" cy="{ys(key(s)):.1f}" r="3" fill="{colour}"/>')

    joined_p99 = measured + equivalent
    series(measured, lambda s: s["p99_ms"], "#1f5fbf", False, sy_log)
    series(joined_p99[len(measured) - 1:], lambda s: s["p99_ms"], "#1f5fbf", True, sy_log)
    for key, colour in (("feltd_cpu_percent", "#1f5fbf"), ("bots_cpu_percent", "#2a9d3a")):
        series(measured, lambda s, k=key: s[k], colour, False, sy_cpu)
        series(joined_p99[len(measured) - 1:], lambda s, k=key: s[k], colour, True, sy_cpu)
    lx = left + 12
    for i, (name, colour) in enumerate((("p99 / feltd CPU", "#1f5fbf"), ("bots CPU", "#2a9d3a"))):
        y = bottom_panel[0] + 14 + 16 * i
        svg.append(f'<line x1="{lx}" y1="{y - 4}" x2="{lx + 24}" y2="{y - 4}" stroke="{colour}" '
                   f'stroke-width="2"/>')
        svg.append(f'<text x="{lx + 30}" y="{y}">{name}</text>')
    svg.append("</svg>")
    print("\n".join(svg))


if __name__ == "__main__":
    main()
