// Package manifest loads real Kubernetes manifests (multi-document YAML or
// JSON, `kubectl get … -o yaml` lists) into engine/api objects, with a
// file:line:col position on every object, warning and error.
//
// It follows the API server where a user would notice: the kinds and
// apiVersions it serves, strict field validation (an unknown field is a
// warning, a field that exists upstream but the lab does not model is
// accepted silently), and the validation messages of
// pkg/apis/core/validation, apps/validation, policy/validation and
// scheduling/validation. It does not default objects (engine/admission and
// the controllers do), except for the namespace of namespaced objects.
//
// Time: absolute timestamps (RFC 3339) become api.Time relative to a
// reference instant — Options.Reference if set, else the newest
// creationTimestamp, startTime, condition or taint time in the file — so the
// newest is 0 and older ones are negative. deletionTimestamp is mapped the
// same way but never chosen as the reference (it lies in the future).
// Objects without a creationTimestamp are created at 0.
//
// Limits (Options; zero means the default): input size MaxBytes (32 MiB),
// objects MaxObjects (200,000), alias expansion (a document may expand to at
// most 10 × its own node count + 100,000 nodes, so "billion laughs" inputs
// fail at once), nesting depth MaxDepth (100). At most 50 errors are
// reported before loading stops.
//
// It imports engine/api and the YAML parser only.
package manifest
