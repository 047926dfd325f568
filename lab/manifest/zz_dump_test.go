package manifest

import (
	"errors"
	"fmt"
	"os"
	"testing"
)

func TestDumpValidation(t *testing.T) {
	if os.Getenv("H4_DUMP") == "" {
		t.Skip()
	}
	for _, c := range validationCases {
		if c.want != nil {
			continue
		}
		_, err := Load("t.yaml", []byte(c.input), Options{})
		var e *Error
		fmt.Printf("=== %s\n", c.name)
		if !errors.As(err, &e) {
			fmt.Println("NO ERROR")
			continue
		}
		for _, d := range e.Diagnostics {
			fmt.Printf("%q,\n", d.String())
		}
	}
}
