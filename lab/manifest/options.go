package manifest

import "time"

// Default limits (see the package comment).
const (
	// DefaultMaxBytes bounds an input: 512 MiB holds `kubectl get -o yaml`
	// of a 1,000-node, 30,000-pod cluster with managedFields (≈ 150–300 MB).
	DefaultMaxBytes   = 512 << 20
	DefaultMaxObjects = 200_000
	DefaultMaxDepth   = 100
	DefaultMaxErrors  = 50
	// DefaultMaxWarnings bounds the warnings kept; the rest are counted in
	// one closing note (a cluster dump from a newer release can carry an
	// unknown field in every object).
	DefaultMaxWarnings = 200
	// aliasBudgetBase and aliasBudgetFactor bound alias expansion: a
	// document may expand to at most factor × its node count + base nodes.
	aliasBudgetBase   = 100_000
	aliasBudgetFactor = 10
)

// Options tunes Load. The zero value is ready to use.
type Options struct {
	MaxBytes   int // input size limit; 0 ⇒ DefaultMaxBytes
	MaxObjects int // objects per load; 0 ⇒ DefaultMaxObjects
	MaxDepth   int // nesting depth after alias expansion; 0 ⇒ DefaultMaxDepth
	MaxErrors  int // errors reported before giving up; 0 ⇒ DefaultMaxErrors
	// MaxWarnings is the number of warnings kept; 0 ⇒ DefaultMaxWarnings.
	MaxWarnings int
	// Reference is the instant api.Time 0 stands for; zero ⇒ the newest
	// timestamp in the file.
	Reference time.Time
	// KeepFieldPositions keeps the position of every decoded field
	// (Objects.FieldPos); off by default to save memory on big imports.
	KeepFieldPositions bool
	// Progress, when set, is told how many items of a big kubectl List
	// are decoded so far (after each batch; total is known from the start).
	Progress func(done, total int)
	// fastListMin overrides fastListMin (tests).
	fastListMin int
}

func (o Options) maxBytes() int   { return orDefault(o.MaxBytes, DefaultMaxBytes) }
func (o Options) maxObjects() int { return orDefault(o.MaxObjects, DefaultMaxObjects) }
func (o Options) maxDepth() int   { return orDefault(o.MaxDepth, DefaultMaxDepth) }
func (o Options) maxErrors() int  { return orDefault(o.MaxErrors, DefaultMaxErrors) }
func (o Options) maxWarnings() int {
	return orDefault(o.MaxWarnings, DefaultMaxWarnings)
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
