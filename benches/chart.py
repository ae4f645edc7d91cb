"""The suites' ratios to the floor as an SVG bar chart, written directly (no plotting library):
one panel per comparison, one bar per command, a line at the floor (1.0) and one at the goal.
Where the group was also timed interleaved, a thin dark bar under each bar gives that ratio.
"""
from html import escape

ROW = 18
LABEL_W = 430
PLOT_W = 360
PAD = 10
TITLE_H = 26


def _color(command, ratio, goal):
    if not command.startswith("ffind"):
        return "#9aa5b1"  # peers and the floor: grey
    return "#2f855a" if ratio <= goal else "#c05621"  # ffind: green within the goal, else orange


def svg(panels, ref_label="the floor", goal=1.15):
    """panels: [(title, [(command, ratio, interleaved ratio or None)])] -> SVG text."""
    top = max([goal, 1.0] + [max((r for _, r, _ in rows), default=1) for _, rows in panels])
    top = max(top, max([i for _, rows in panels for _, _, i in rows if i] or [0]))
    scale = PLOT_W / (top * 1.08)
    width = LABEL_W + PLOT_W + 3 * PAD + 110
    parts, y = [], PAD
    for title, rows in panels:
        parts.append(f'<text x="{PAD}" y="{y + 16}" font-weight="bold">{escape(title)}</text>')
        y += TITLE_H
        y0 = y
        for command, ratio, inter in rows:
            x0 = LABEL_W + PAD
            label = command if len(command) <= 62 else command[:59] + "..."
            parts.append(f'<text x="{LABEL_W}" y="{y + 13}" text-anchor="end">{escape(label)}</text>')
            parts.append(
                f'<rect x="{x0}" y="{y + 2}" width="{ratio * scale:.1f}" height="{ROW - 6}" '
                f'fill="{_color(command, ratio, goal)}"><title>{escape(command)}: {ratio:.2f}</title></rect>'
            )
            if inter:
                parts.append(
                    f'<rect x="{x0}" y="{y + ROW - 4}" width="{inter * scale:.1f}" height="2" fill="#1a202c">'
                    f"<title>interleaved: {inter:.2f}</title></rect>"
                )
            shown = f"{ratio:.2f}" + (f" ({inter:.2f})" if inter else "")
            parts.append(f'<text x="{x0 + PLOT_W + PAD}" y="{y + 13}">{shown}</text>')
            y += ROW
        for value, dash, name in ((1.0, "", "floor"), (goal, "4 3", f"goal {goal}")):
            x = LABEL_W + PAD + value * scale
            parts.append(
                f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y}" stroke="#1a202c" '
                f'stroke-dasharray="{dash}"><title>{name}</title></line>'
            )
        y += PAD
    legend = [f"median / median of {ref_label} (hyperfine); solid line: the floor, dashed: the goal ({goal}x);",
              "in parentheses and the thin dark bar: the same commands timed in interleaved rounds;",
              "green: ffind within the goal, orange: ffind past it, grey: the peers and the floor"]
    for i, text in enumerate(legend):
        parts.append(f'<text x="{PAD}" y="{y + 12 + 16 * i}" fill="#4a5568">{escape(text)}</text>')
    height = y + 16 * len(legend) + 8
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">\n'
        f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(parts) + "\n</svg>\n"
    )
