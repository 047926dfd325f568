package lab

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"

	"podlab.dev/podlab/engine/api"
)

// writeMetrics writes a session's time series: "csv" (one row per instant
// at which any series changed, one column per series, values held between
// changes) or "json" (each series as its change points, and the commands
// of the history to mark on a time axis).
func writeMetrics(w io.Writer, s *Session, format string) error {
	m := s.Metrics()
	if m == nil {
		return fmt.Errorf("metrics were not recorded")
	}
	switch format {
	case "csv":
		return m.WriteCSV(w)
	case "json", "":
		return m.WriteJSON(w, s.History())
	}
	return fmt.Errorf("with --metrics, -o must be csv or json, not %q", format)
}

// WriteCSV writes a wide table: t (seconds), then one column per series
// key, a row for every instant at which something changed.
func (m *Metrics) WriteCSV(w io.Writer) error {
	series := m.Series()
	var times []api.Time
	seen := map[api.Time]bool{}
	points := make([][]Point, len(series))
	for i, sr := range series {
		points[i] = sr.Points()
		for _, p := range points[i] {
			if !seen[p.T] {
				seen[p.T] = true
				times = append(times, p.T)
			}
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	cw := csv.NewWriter(w)
	head := []string{"t"}
	for _, sr := range series {
		head = append(head, sr.Key())
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	next := make([]int, len(series))
	row := make([]string, len(head))
	for _, t := range times {
		row[0] = strconv.FormatFloat(t.Seconds(), 'f', -1, 64)
		for i, ps := range points {
			for next[i] < len(ps) && ps[next[i]].T <= t {
				next[i]++
			}
			v := 0.0
			if next[i] > 0 {
				v = ps[next[i]-1].V
			}
			row[i+1] = strconv.FormatFloat(v, 'f', -1, 64)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes {"series":[{"name","labels","points":[[t,v],…]}],
// "commands":[{"t","do"}]} with t in seconds.
func (m *Metrics) WriteJSON(w io.Writer, history []Entry) error {
	type series struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels,omitempty"`
		Points [][2]float64      `json:"points"`
	}
	type cmd struct {
		T  float64 `json:"t"`
		Do string  `json:"do"`
	}
	out := struct {
		Series   []series `json:"series"`
		Commands []cmd    `json:"commands"`
	}{Series: []series{}, Commands: []cmd{}}
	for _, sr := range m.Series() {
		ps := sr.Points()
		js := series{Name: sr.Name, Labels: sr.Labels, Points: make([][2]float64, len(ps))}
		for i, p := range ps {
			js.Points[i] = [2]float64{p.T.Seconds(), p.V}
		}
		out.Series = append(out.Series, js)
	}
	for _, e := range history {
		out.Commands = append(out.Commands, cmd{e.At.Seconds(), e.Line})
	}
	return json.NewEncoder(w).Encode(out)
}
