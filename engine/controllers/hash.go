package controllers

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"strconv"

	"podlab.dev/podlab/engine/api"
)

// alphanums is the alphabet of apimachinery's util/rand (no vowels, no 0/1/3).
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// safeEncodeString is rand.SafeEncodeString: every byte mapped into alphanums.
func safeEncodeString(s string) string {
	r := make([]byte, len(s))
	for i, b := range []byte(s) {
		r[i] = alphanums[int(b)%len(alphanums)]
	}
	return string(r)
}

// ComputeHash is controller.ComputeHash: fnv32a over the pod template, then
// the collision count (4 little-endian bytes in an 8-byte buffer, as
// upstream), printed in decimal and encoded with safeEncodeString.
//
// Upstream hashes a spew dump of the Go struct k8s.io/api/core/v1
// PodTemplateSpec; the lab hashes the JSON encoding of its own api type
// (deterministic: map keys sorted). So the hash has upstream's shape
// ("7c5ddbdf54") and changes exactly when the template changes, but the
// value differs from what a real cluster would print for the same manifest.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, err := json.Marshal(template)
	if err != nil {
		// api types are plain data; Marshal cannot fail on them.
		b = []byte(err.Error())
	}
	h.Write(b)
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return safeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// dns1123SubdomainMaxLength is validation.DNS1123SubdomainMaxLength.
const dns1123SubdomainMaxLength = 253

// replicaSetName is deployment/sync.go generateReplicaSetName:
// "<deployment>-<hash>", the deployment name truncated to stay within 253.
func replicaSetName(deployment, hash string) string {
	maxLen := dns1123SubdomainMaxLength - 1 - len(hash)
	if len(deployment) > maxLen && maxLen > 0 {
		deployment = deployment[:maxLen]
	}
	return deployment + "-" + hash
}

// generateNamePrefix is the API server's SimpleNameGenerator prefix rule:
// the prefix is cut so prefix+5 random characters fit 63 characters.
func generateNamePrefix(base string) string {
	const maxNameLength, randomLength = 63, 5
	if len(base) > maxNameLength-randomLength {
		base = base[:maxNameLength-randomLength]
	}
	return base
}
