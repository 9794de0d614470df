package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// engineColors tells the engines apart in every panel.
var engineColors = map[string]color.Color{
	"go":          color.RGBA{R: 0x00, G: 0x7d, B: 0x9c, A: 0xff},
	"go-manual":   color.RGBA{R: 0x5d, G: 0xc9, B: 0xe2, A: 0xff},
	"go-renderer": color.RGBA{R: 0x2e, G: 0x9e, B: 0x4f, A: 0xff},
	"chromium":    color.RGBA{R: 0xdb, G: 0x44, B: 0x37, A: 0xff},
}

// writePlot draws one panel per workload (µs per operation against N,
// both axes logarithmic, one line per engine) and writes them, tiled, to
// path: PNG when path ends in .png, else SVG.
func writePlot(path string, ms []measurement, engines []string) error {
	var names []string
	seen := map[string]bool{}
	for _, m := range ms {
		if !seen[m.workload] {
			seen[m.workload] = true
			names = append(names, m.workload)
		}
	}
	const cols = 3
	rows := (len(names) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for i, name := range names {
		p, err := panel(name, ms, engines)
		if err != nil {
			return err
		}
		plots[i/cols][i%cols] = p
	}
	width, height := vg.Length(cols)*3.2*vg.Inch, vg.Length(rows)*2.6*vg.Inch
	png := strings.EqualFold(filepath.Ext(path), ".png")
	var canvas vg.CanvasSizer
	if png {
		canvas = vgimg.New(width, height)
	} else {
		canvas = vgsvg.New(width, height)
	}
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4}
	canvases := plot.Align(plots, tiles, dc)
	for j := range plots {
		for i, p := range plots[j] {
			if p != nil {
				p.Draw(canvases[j][i])
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if png {
		_, err = vgimg.PngCanvas{Canvas: canvas.(*vgimg.Canvas)}.WriteTo(f)
	} else {
		_, err = canvas.(*vgsvg.Canvas).WriteTo(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// panel is the plot of one workload.
func panel(name string, ms []measurement, engines []string) (*plot.Plot, error) {
	p := plot.New()
	unit := ""
	p.X.Label.Text = "N"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	for _, e := range engines {
		var xys plotter.XYs
		for _, m := range ms {
			if m.workload == name && m.engine == e && m.err == nil && m.usPerOp > 0 {
				xys = append(xys, plotter.XY{X: float64(m.n), Y: m.usPerOp})
				unit = m.unit
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("plotting %s/%s: %w", name, e, err)
		}
		line.Color, points.Color = engineColors[e], engineColors[e]
		p.Add(line, points)
		p.Legend.Add(e, line, points)
	}
	p.Title.Text = name
	p.Y.Label.Text = "µs per " + unit
	return p, nil
}
