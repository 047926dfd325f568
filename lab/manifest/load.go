package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Load decodes every document of a manifest file named name. On failure it
// returns a *Error listing every error found (up to Options.MaxErrors), each
// with its position, and no objects.
func Load(name string, data []byte, opts Options) (objs *Objects, err error) {
	d := &decoder{file: name, opts: opts, pos: map[string]Position{}}
	objs = &Objects{Pos: map[any]Position{}}
	if opts.KeepFieldPositions {
		objs.fieldPos = map[any]map[string]Position{}
	}
	defer func() {
		// No input may crash the lab: a panic here is a loader bug, reported
		// as an error rather than taking the program down.
		if r := recover(); r != nil {
			objs, err = nil, &Error{Diagnostics: []Diagnostic{{File: name, Line: 1, Col: 1, Severity: SeverityError,
				Message: fmt.Sprintf("internal error while loading: %v", r), Hint: "please report this file"}}}
		}
	}()
	if len(data) > opts.maxBytes() {
		d.diag(Position{File: name, Line: 1, Col: 1}, SeverityError,
			fmt.Sprintf("file is %d bytes, more than the limit of %d bytes", len(data), opts.maxBytes()),
			"split it into smaller files")
		return nil, &Error{Diagnostics: d.errs}
	}
	threshold := fastListMin
	if opts.fastListMin > 0 {
		threshold = opts.fastListMin
	}
	defer limitMemory(len(data), threshold)()
	if !d.fastList(data, objs, threshold) {
		d.loadStream(data, objs)
	}
	if !d.full {
		d.crossChecks(objs)
	}
	// Closing notes sit at the top of the file: they are about all of it.
	if d.droppedWarnings > 0 {
		d.warns = append(d.warns, Diagnostic{File: name, Line: 1, Col: 1, Severity: SeverityInfo,
			Message: fmt.Sprintf("%d more warnings not shown", d.droppedWarnings)})
	}
	if d.managedFields > 0 {
		d.warns = append(d.warns, Diagnostic{File: name, Line: 1, Col: 1, Severity: SeverityInfo,
			Message: fmt.Sprintf("ignored %d managedFields entries", d.managedFields)})
	}
	objs.Reference = d.resolveTimes()
	objs.Warnings = d.warns
	if len(d.errs) > 0 {
		return nil, &Error{Diagnostics: d.errs, Warnings: d.warns}
	}
	return objs, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (d *decoder) loadStream(data []byte, objs *Objects) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for !d.full {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			d.syntaxError(err)
			return
		}
		if err := d.checkDocument(&doc); err != nil {
			d.diag(d.at(err.node), SeverityError, err.msg, err.hint)
			continue
		}
		root := resolve(&doc)
		if isNull(root) {
			continue // empty document ("---" at the end of a file)
		}
		d.object(root, objs, 0)
	}
}

// syntaxError turns a parser error ("yaml: line 3: …") into a diagnostic.
// For "did not find expected …" errors the YAML library names the line
// where the unfinished list or mapping starts, counted from 0 (its
// parser.fail adds 1 only for scanner errors); those are shifted to count
// from 1 like every other position.
func (d *decoder) syntaxError(err error) {
	msg, line := err.Error(), 1
	hint := "check the indentation and quoting near this line"
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = "yaml: " + m[2]
		if strings.HasPrefix(m[2], "did not find expected") && !strings.Contains(m[2], "node content") {
			line++
			hint = "the list or mapping that starts on this line is not closed or is misindented"
		}
	}
	d.diag(Position{File: d.file, Line: line, Col: 1}, SeverityError, msg, hint)
}
