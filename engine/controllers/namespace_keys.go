package controllers

import (
	"sort"
	"strings"
)

// namespaceKeys is the run of sorted "namespace/name" keys in one
// namespace, found by binary search: a Deployment's ReplicaSets are looked
// for among its namespace's only, not among every ReplicaSet of the
// cluster for every Deployment (2,800 × 2,800 on an imported cluster).
func namespaceKeys(sorted []string, namespace string) []string {
	prefix := namespace + "/"
	i := sort.SearchStrings(sorted, prefix)
	j := i + sort.Search(len(sorted)-i, func(k int) bool { return !strings.HasPrefix(sorted[i+k], prefix) })
	return sorted[i:j]
}
