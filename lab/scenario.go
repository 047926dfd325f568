package lab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/lab/check"
	"podlab.dev/podlab/lab/manifest"
)

// ScenarioAPIVersion and ScenarioKind identify the lab's own document in a
// scenario file; every other document is a Kubernetes manifest.
const (
	ScenarioAPIVersion = "podlab/v1"
	ScenarioKind       = "Scenario"
)

// Scenario is the lab header of a scenario file.
type Scenario struct {
	Name        string
	Title       string
	Description string
	Seed        int64
	Clock       ClockSpec
	Cluster     ClusterSpec
	Scheduler   SchedulerSpec
	Kubelet     KubeletSpec
	Autoscaler  *AutoscalerSpec // the cluster autoscaler (lab/autoscaler.go); nil: none
	Descheduler DeschedulerSpec
	Timeline    []TimelineEntry
	// Fork is set in a saved forked session: where it split into lanes
	// (timeline entries with a lane belong to that lane only).
	Fork   *ForkSpec
	Lesson *Lesson
	// Pos is where the Scenario document starts.
	Pos manifest.Position
}

// ClockSpec is how the virtual clock starts in the TUI.
type ClockSpec struct {
	Speed  float64 // virtual seconds per real second; 0 ⇒ 1
	Paused bool
	// ResumeAt is where a saved session was: the lab advances to it when
	// it opens the file.
	ResumeAt time.Duration
}

// ClusterSpec is the cluster shorthand: zones of identical nodes.
type ClusterSpec struct {
	// ZoneLabel is the label that names a node's zone
	// (default topology.kubernetes.io/zone).
	ZoneLabel string
	// NodeNames is the pattern for generated node names: {zone} and {n}
	// (1-based, across the cluster) or {i} (1-based, within the zone).
	// Default "node-{n}".
	NodeNames string
	Node      NodeShape
	Zones     []ZoneSpec
}

// NodeShape is the allocatable of generated nodes.
type NodeShape struct {
	CPU    string
	Memory string
	Pods   string
	Labels map[string]string
	Taints []string // k=v:Effect
}

// ZoneSpec describes one zone of the shorthand.
type ZoneSpec struct {
	Name  string
	Nodes int
	NodeShape
	// Names lists explicit node names (overrides Nodes and the pattern).
	Names []string
	Pos   manifest.Position
}

// SchedulerSpec configures the scheduler profile.
type SchedulerSpec struct {
	TieBreak string // "random" (default) or "name"
	// DefaultConstraints are the cluster-level PodTopologySpread defaults
	// (pluginConfig args.defaultConstraints); labelSelector must be empty.
	DefaultConstraints []DefaultConstraint
	// DefaultingType is "System" (built-in defaults) or "List".
	DefaultingType string
	// PercentageOfNodesToScore: nil evaluates every node (the lab's
	// default); 0 is upstream's adaptive default ("adaptive"); 1..100.
	PercentageOfNodesToScore *int32
	// ConfigFile names a KubeSchedulerConfiguration file, relative to the
	// scenario (schedconfig.go); ConfigFilePos is where the key is.
	ConfigFile    string
	ConfigFilePos manifest.Position
}

// DefaultConstraint is a cluster-level default spread constraint.
type DefaultConstraint struct {
	MaxSkew           int32
	TopologyKey       string
	WhenUnsatisfiable string
}

// KubeletSpec configures node-pressure eviction on every node.
type KubeletSpec struct {
	EvictionHard              map[string]string        // signal → threshold ("memory.available": "100Mi")
	EvictionSoft              map[string]string        // signal → threshold
	EvictionSoftGracePeriod   map[string]time.Duration // signal → grace
	EvictionMaxPodGracePeriod int64
	// StartupDelay is how long a bound pod takes to become Running+Ready
	// unless its lab.podlab.dev/startup annotation says otherwise.
	StartupDelay time.Duration
}

// TimelineEntry is a command run at a virtual time.
type TimelineEntry struct {
	At time.Duration
	Do string // one command line
	// Lane is "a" or "b" for a command of one lane of a saved fork, ""
	// for both (and for every entry of a scenario that never forked).
	Lane string
	Pos  manifest.Position
}

// ForkSpec is the fork header of a saved forked session.
type ForkSpec struct {
	At time.Duration
}

// Lesson is a sequence of steps with checks.
type Lesson struct {
	Steps []Step
	// Step is the step the lab shows when the file opens (0-based; the
	// header's lesson.step is 1-based): a saved session reopens on the
	// step it was saved on.
	Step int
}

// Step is one lesson step.
type Step struct {
	Title string
	Text  string
	// Do are commands the instructor can apply with one key.
	Do []string
	// Checks turn green when the learner reaches the goal.
	Checks []StepCheck
	// Solution are commands that make the checks pass (default: Do); the
	// preset tests apply them.
	Solution []string
	Pos      manifest.Position
	// DoPos and SolutionPos are where each command is (parallel to Do
	// and Solution; nil for a step not read from a file).
	DoPos, SolutionPos []manifest.Position
}

// StepCheck is one check with an optional hint.
type StepCheck struct {
	Expr string
	Hint string
	Pos  manifest.Position
	// parsed is Expr parsed once when the scenario loads (nil for a check
	// built otherwise: CheckStep parses it then).
	parsed *check.Check
}

// File is a loaded scenario file: its lab header (nil when the file is
// plain manifests) and its manifests.
type File struct {
	Name string
	// Dir is the directory relative paths in the file (apply -f) resolve
	// against; "" for standard input and presets (the working directory).
	Dir      string
	Scenario *Scenario
	Objects  *manifest.Objects
	// Descheduler is the file's DeschedulerPolicy document, if any.
	Descheduler *DeschedulerPolicyDoc
	// SchedulerConfig is the KubeSchedulerConfiguration in force (the
	// scenario's document, its scheduler.configFile, or
	// --scheduler-config); nil: the default profile.
	SchedulerConfig *manifest.SchedulerConfiguration
	// Data is the file as read (Save keeps its manifests verbatim); nil
	// for a large file opened from disk, which is read again from source
	// when saved or exported (filetext.go).
	Data   []byte
	source *fileSource
}

// splitScenario separates the lab's Scenario document from the manifests.
// Both halves keep the original line numbers (the other half's lines are
// blanked), so every position reported later points into the user's file.
func splitScenario(data []byte) (scenarioText, manifestText []byte, found bool) {
	return splitDocs(data, isScenarioDoc)
}

// isScenarioDoc looks for top-level "apiVersion: podlab/v1" in a document.
func isScenarioDoc(doc []byte) bool {
	v, ok := topLevelValue(doc, "apiVersion:")
	return ok && v == ScenarioAPIVersion
}

// LoadFile parses a scenario file: its manifests (through lab/manifest)
// and its optional lab header. Errors carry file:line:col.
func LoadFile(name string, data []byte) (*File, error) {
	return LoadFileWithProgress(name, data, nil)
}

// LoadFileWithProgress is LoadFile telling progress how many objects of
// a big import (a kubectl List of 4 MiB or more) are decoded, out of how
// many, as it goes — for a progress bar (TUI, stderr).
func LoadFileWithProgress(name string, data []byte, progress func(done, total int)) (*File, error) {
	scenText, manText, found := splitScenario(data)
	// the lab header is read first (it is small): a file with errors in
	// both reports them all, in file order, not only the manifests'
	var scen *Scenario
	var scenErr error
	if found {
		scen, scenErr = parseScenario(name, scenText)
	}
	policy, err := loadDeschedulerPolicy(name, &manText)
	if err != nil {
		return nil, joinLoadErrors(scenErr, err)
	}
	objs, err := manifest.Load(name, manText, manifest.Options{Progress: progress})
	if err != nil {
		return nil, joinLoadErrors(scenErr, err)
	}
	if scenErr != nil {
		return nil, scenErr
	}
	f := &File{Name: name, Objects: objs, Data: data, Descheduler: policy}
	if policy != nil {
		objs.Warnings = append(objs.Warnings, policy.Warnings...)
	}
	if f.SchedulerConfig, err = schedulerConfigOf(name, objs); err != nil {
		return nil, err
	}
	f.Scenario = scen
	if err := budgetCheck(f); err != nil {
		return nil, err
	}
	return f, nil
}

// joinLoadErrors puts the lab header's errors (scen, may be nil) and the
// manifests' (err) into one error, diagnostics in file order; an error
// that is not a list of diagnostics is returned as it is.
func joinLoadErrors(scen, err error) error {
	var a, b *manifest.Error
	if scen == nil || !errors.As(scen, &a) || !errors.As(err, &b) {
		if scen != nil && err == nil {
			return scen
		}
		return err
	}
	all := append(append([]manifest.Diagnostic(nil), a.Diagnostics...), b.Diagnostics...)
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Line != all[j].Line {
			return all[i].Line < all[j].Line
		}
		return all[i].Col < all[j].Col
	})
	return &manifest.Error{Diagnostics: all, Warnings: b.Warnings}
}

func parseScenario(name string, text []byte) (*Scenario, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var s *Scenario
	p := &scenarioParser{file: name}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &manifest.Error{Diagnostics: []manifest.Diagnostic{yamlErrorDiag(name, err)}}
		}
		if len(doc.Content) == 0 {
			continue
		}
		if s != nil {
			p.errorf(doc.Content[0], "a file may hold only one %s document", ScenarioKind, "merge the two lab headers")
			break
		}
		s = p.scenario(doc.Content[0])
	}
	if len(p.errs) > 0 {
		return nil, &manifest.Error{Diagnostics: p.errs}
	}
	return s, nil
}

func yamlErrorDiag(name string, err error) manifest.Diagnostic {
	msg := err.Error()
	line := 1
	if _, scanErr := fmt.Sscanf(msg, "yaml: line %d:", &line); scanErr == nil {
		if i := strings.Index(msg, ": "); i >= 0 {
			if j := strings.Index(msg[i+2:], ": "); j >= 0 {
				msg = msg[i+2+j+2:]
			}
		}
	}
	return manifest.Diagnostic{File: name, Line: line, Col: 1, Severity: manifest.SeverityError, Message: msg, Hint: "check the YAML syntax (indentation, quotes, colons)"}
}

// posOrFile is where the header starts, or the file when it has none.
func (s *Scenario) posOrFile(file string) manifest.Position {
	if s == nil {
		return manifest.Position{File: file, Line: 1, Col: 1}
	}
	return s.Pos
}
