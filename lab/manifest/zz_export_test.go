package manifest

import (
	"encoding/json"
	"os"
	"testing"
)

func TestExportCases(t *testing.T) {
	if os.Getenv("H4_EXPORT") == "" {
		t.Skip()
	}
	type c struct {
		Name  string
		Input string
		Want  []string
	}
	var all []c
	for _, x := range validationCases {
		all = append(all, c{x.name, x.input, x.want})
	}
	for _, x := range errorCases {
		all = append(all, c{"decode: " + x.name, x.input, x.want})
	}
	b, _ := json.MarshalIndent(all, "", " ")
	os.WriteFile("/tmp/h4/cases.json", b, 0o644)
}
