package web

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"
)

// Charts are inline SVG built here, with every label escaped; templates
// receive them as template.HTML.

func esc(s string) string { return template.HTMLEscapeString(s) }

// heatColor maps a utilization to a fill: white to green up to 100% of the
// guarantee, then amber to red for borrowing up to 200%; grey for none.
func heatColor(u float64) string {
	if math.IsNaN(u) {
		return "#eeeeee"
	}
	if u <= 1 {
		l := 96 - 60*max(u, 0) // lightness 96% .. 36%
		return fmt.Sprintf("hsl(140,55%%,%.0f%%)", l)
	}
	h := 45 - 45*min(u-1, 1) // amber .. red
	return fmt.Sprintf("hsl(%.0f,85%%,55%%)", h)
}

// heatmap draws tenants (rows) over time (columns).
func heatmap(v QuotaView) template.HTML {
	if len(v.Tenants) == 0 || len(v.Cols) == 0 {
		return template.HTML(`<p class="empty">No quota history yet.</p>`)
	}
	const left, top, rowH = 130, 10, 22
	cellW := max(2.0, min(24.0, 840.0/float64(len(v.Cols))))
	w := left + cellW*float64(len(v.Cols)) + 10
	h := top + rowH*len(v.Tenants) + 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %d" width="%.0f" height="%d" role="img" aria-label="quota utilization heat map">`, w, h, w, h)
	for i, t := range v.Tenants {
		y := top + i*rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="lbl" text-anchor="end">%s</text>`, left-6, y+15, esc(t))
		for j, at := range v.Cols {
			u := v.Util[i][j]
			title := fmt.Sprintf("%s %s: no data", t, at.Format("2006-01-02 15:04"))
			if !math.IsNaN(u) {
				title = fmt.Sprintf("%s %s: %.0f%% of guarantee", t, at.Format("2006-01-02 15:04"), 100*u)
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`,
				left+cellW*float64(j), y, max(cellW-0.5, 1), rowH-2, heatColor(u), esc(title))
		}
	}
	axisTicks(&b, v.Cols, left, cellW, top+rowH*len(v.Tenants)+14)
	b.WriteString(`</svg>`)
	b.WriteString(heatLegend())
	return template.HTML(b.String())
}

// heatLegend draws the heat map's colour key as SVG (the dashboard's
// content security policy allows no inline styles).
func heatLegend() string {
	var b strings.Builder
	b.WriteString(`<svg class="chart" viewBox="0 0 640 20" width="640" height="20" role="img" aria-label="colour key">`)
	x := 0
	for _, k := range []struct {
		u    float64
		text string
	}{{0, "0%"}, {0.5, "50%"}, {1, "100% of guarantee"}, {1.5, "150%"}, {2, "200% and more (borrowing)"}, {math.NaN(), "no data"}} {
		fmt.Fprintf(&b, `<rect x="%d" y="4" width="12" height="12" fill="%s" stroke="#b8c4cf"/><text x="%d" y="14" class="lbl">%s</text>`,
			x, heatColor(k.u), x+16, esc(k.text))
		x += 24 + 7*len(k.text)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// axisTicks labels about six of the columns' times.
func axisTicks(b *strings.Builder, cols []time.Time, left, cellW float64, y int) {
	if len(cols) == 0 {
		return
	}
	step := max(len(cols)/6, 1)
	layout := "01-02 15:04"
	if cols[len(cols)-1].Sub(cols[0]) > 4*24*time.Hour {
		layout = "01-02"
	}
	for j := 0; j+step/2 < len(cols); j += step {
		fmt.Fprintf(b, `<text x="%.1f" y="%d" class="tick">%s</text>`, left+cellW*float64(j), y, cols[j].Format(layout))
	}
}

// bars draws a vertical bar per count.
func bars(counts []Count) template.HTML {
	total := 0
	peak := 1
	for _, c := range counts {
		total += c.N
		peak = max(peak, c.N)
	}
	if total == 0 {
		return template.HTML(`<p class="empty">No waits recorded in this span.</p>`)
	}
	const barW, gap, hgt, base = 44, 8, 120, 140
	w := len(counts)*(barW+gap) + 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d 170" width="%d" height="170" role="img" aria-label="wait distribution">`, w, w)
	for i, c := range counts {
		x := 5 + i*(barW+gap)
		bh := float64(hgt) * float64(c.N) / float64(peak)
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" class="bar"><title>%s: %d jobs (%.0f%%)</title></rect>`,
			x, float64(base)-bh, barW, bh, esc(c.Label), c.N, 100*float64(c.N)/float64(total))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" class="val" text-anchor="middle">%d</text>`, x+barW/2, float64(base)-bh-3, c.N)
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick" text-anchor="middle">%s</text>`, x+barW/2, base+16, esc(c.Label))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// lineChart draws points over time; yMax 0 scales to the data; yFmt
// prints axis values.
func lineChart(points []Point, yMax float64, yFmt func(float64) string, label string) template.HTML {
	if len(points) == 0 {
		return template.HTML(`<p class="empty">No history yet.</p>`)
	}
	for _, p := range points {
		yMax = max(yMax, p.Value)
	}
	if yMax <= 0 {
		yMax = 1
	}
	const left, top, w, h = 60, 10, 820, 180
	t0, t1 := points[0].At, points[len(points)-1].At
	span := max(t1.Sub(t0).Seconds(), 1)
	x := func(t time.Time) float64 { return left + w*t.Sub(t0).Seconds()/span }
	y := func(v float64) float64 { return top + h - h*v/yMax }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, left+w+20, top+h+30, left+w+20, top+h+30, esc(label))
	for _, f := range []float64{0, 0.5, 1} {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" class="grid"/><text x="%d" y="%.1f" class="tick" text-anchor="end">%s</text>`,
			left, left+w, y(f*yMax), y(f*yMax), left-6, y(f*yMax)+4, esc(yFmt(f*yMax)))
	}
	var path strings.Builder
	for i, p := range points {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&path, "%s%.1f,%.1f ", cmd, x(p.At), y(p.Value))
	}
	fmt.Fprintf(&b, `<path d="%s" class="line"/>`, strings.TrimSpace(path.String()))
	if len(points) <= 60 {
		for _, p := range points {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" class="dot"><title>%s: %s</title></circle>`,
				x(p.At), y(p.Value), p.At.Format("2006-01-02 15:04"), esc(yFmt(p.Value)))
		}
	}
	layout := "01-02 15:04"
	if t1.Sub(t0) > 4*24*time.Hour {
		layout = "01-02"
	}
	for i := 0; i <= 5; i++ {
		t := t0.Add(time.Duration(float64(i) / 5 * span * float64(time.Second)))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="tick" text-anchor="middle">%s</text>`, x(t), top+h+18, t.Format(layout))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// usageBar draws GPUs allocated, idle and down as one stacked bar.
func usageBar(u Usage) template.HTML {
	if u.Total == 0 {
		return template.HTML(`<p class="empty">No GPUs configured.</p>`)
	}
	const w = 600.0
	var b strings.Builder
	b.WriteString(`<svg class="chart wide" viewBox="0 0 600 28" width="100%" height="28" preserveAspectRatio="none" role="img" aria-label="GPU usage">`)
	xpos := 0.0
	for _, part := range []struct {
		n     int
		class string
		what  string
	}{{u.Alloc, "alloc", "allocated"}, {u.Idle, "idle", "idle"}, {u.Down, "down", "down or drained"}} {
		pw := w * float64(part.n) / float64(u.Total)
		fmt.Fprintf(&b, `<rect x="%.1f" y="0" width="%.1f" height="28" class="%s"><title>%d GPUs %s</title></rect>`, xpos, pw, part.class, part.n, part.what)
		xpos += pw
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
