package workshop

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// RecordRow is one participant in the --record file.
type RecordRow struct {
	Name          string    `json:"name"`
	Step          int       `json:"step"` // 1-based, as the lab shows it
	StepTitle     string    `json:"stepTitle"`
	ChecksPassed  int       `json:"checksPassed"`
	ChecksTotal   int       `json:"checksTotal"`
	StepsDone     int       `json:"stepsDone"`
	Steps         int       `json:"steps"`
	Commands      int       `json:"commands"`
	LastCommand   string    `json:"lastCommand"`
	Status        string    `json:"status"`
	Joined        time.Time `json:"joined"`
	SecondsOnStep int       `json:"secondsOnStep"`
}

// RecordRows turns the table into record rows at now.
func RecordRows(rows []Progress, m Markers, now time.Time) []RecordRow {
	out := make([]RecordRow, 0, len(rows))
	for _, p := range rows {
		out = append(out, RecordRow{
			Name: p.Name, Step: p.Step + 1, StepTitle: p.StepTitle,
			ChecksPassed: p.Passed, ChecksTotal: p.Total, StepsDone: p.Done, Steps: p.Steps,
			Commands: p.Commands, LastCommand: p.LastCommand, Status: string(m.StatusOf(p, now)),
			Joined: p.Joined.UTC().Truncate(time.Second), SecondsOnStep: int(now.Sub(p.StepSince).Seconds()),
		})
	}
	return out
}

// RecordFormat picks the format from the file name: .json is JSON,
// anything else CSV.
func RecordFormat(path string) string {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return "json"
	}
	return "csv"
}

// WriteRecord writes rows as CSV or JSON.
func WriteRecord(w io.Writer, format string, rows []RecordRow) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Participants []RecordRow `json:"participants"`
		}{rows})
	}
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"name", "step", "step_title", "checks_passed", "checks_total", "steps_done", "steps", "commands", "last_command", "status", "joined", "seconds_on_step"})
	for _, r := range rows {
		_ = cw.Write([]string{r.Name, strconv.Itoa(r.Step), r.StepTitle, strconv.Itoa(r.ChecksPassed), strconv.Itoa(r.ChecksTotal),
			strconv.Itoa(r.StepsDone), strconv.Itoa(r.Steps), strconv.Itoa(r.Commands), r.LastCommand, r.Status,
			r.Joined.Format(time.RFC3339), strconv.Itoa(r.SecondsOnStep)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
