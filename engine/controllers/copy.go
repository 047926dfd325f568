package controllers

import (
	"encoding/json"
	"reflect"

	"podlab.dev/podlab/engine/api"
)

// templatesEqual reports equal templates ignoring the pod-template-hash
// label, as deploymentutil.EqualIgnoreHash. Labels and annotations are
// compared as maps (nil equals empty, as apimachinery's semantic DeepEqual);
// the rest through its JSON encoding.
func templatesEqual(a, b *api.PodTemplateSpec) bool {
	ca, cb := *a, *b
	la, lb := withoutHash(a.Labels), withoutHash(b.Labels)
	ca.Labels, cb.Labels = nil, nil
	if !mapsEqual(la, lb) || !mapsEqual(ca.Annotations, cb.Annotations) {
		return false
	}
	ca.Annotations, cb.Annotations = nil, nil
	// deeply equal values encode identically: the JSON comparison (which
	// also equates nil and empty where the encoding does) is needed only
	// when they are not — the common case, a ReplicaSet of the current
	// template, is answered without encoding both on every sync
	if reflect.DeepEqual(&ca, &cb) {
		return true
	}
	ja, err1 := json.Marshal(&ca)
	jb, err2 := json.Marshal(&cb)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func withoutHash(l map[string]string) map[string]string {
	out := make(map[string]string, len(l))
	for k, v := range l {
		if k != api.LabelPodTemplateHash {
			out[k] = v
		}
	}
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func ptr[T any](v T) *T { return &v }
