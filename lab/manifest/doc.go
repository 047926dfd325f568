// Package manifest loads real Kubernetes manifests (multi-document YAML or
// JSON, `kubectl get … -o yaml` lists) into engine/api objects, with a
// file:line:col position on every object, warning and error.
//
// It follows the API server where a user would notice: the kinds and the
// only apiVersion 1.36 serves them in (a wrong apiVersion is an error with
// a hint), strict field validation (an unknown field is a warning with a
// "did you mean" hint; a field that exists upstream but the lab does not
// model — volumes, env, probes' handlers, securityContext … — is accepted
// silently), strict typing (`version: 1` as a label value is an error, as
// it is for kubectl), and the validation rules and messages of
// pkg/apis/core/validation, apps/validation, batch/validation,
// policy/validation and scheduling/validation for the fields it decodes
// (messages read `Pod "web" is invalid: spec.x: Invalid value: …`).
// Other kinds (Service, ConfigMap, …) are skipped with a warning;
// managedFields are summarised in one note.
//
// It does not default objects (engine/admission and the controllers do),
// except that namespaced objects without a namespace get "default", a
// generateName gets a deterministic suffix, and — as the API server's
// conversion does — a Pod's negative terminationGracePeriodSeconds becomes
// 1 (with upstream's warning).
//
// Time: absolute timestamps (RFC 3339) become api.Time relative to a
// reference instant — Options.Reference if set, else the newest
// creationTimestamp, startTime, condition, taint or disruption time in the
// file — so the newest is 0 and older ones are negative.
// deletionTimestamp is mapped the same way but never chosen as the
// reference (it lies in the future). Objects without a creationTimestamp
// are created at 0.
//
// A large `kubectl get -o yaml` List (4 MiB or more, in kubectl's layout)
// is decoded item by item (fastlist.go): items are parsed in parallel in
// bounded batches, managedFields blanked first, and decoded in file order
// with the same results and positions as the general path.
//
// Limits (Options; zero means the default): input size MaxBytes (512 MiB),
// objects MaxObjects (200,000), alias expansion (a document may expand to at
// most 10 × its own node count + 100,000 nodes, so "billion laughs" inputs
// fail at once; alias-free documents skip this accounting), nesting depth
// MaxDepth (100), and at most MaxErrors (50) errors before loading stops. A
// panic while loading (a bug) is returned as an error, never raised.
//
// It imports engine/api and the YAML parser only.
package manifest
