// Package check parses and evaluates lesson checks: small boolean
// expressions over the cluster such as
//
//	skew(deployment/web, zone) <= 1
//	pending(deployment/web) == 0 && count(pods, app=web, zone=zone-a) == 2
//	evicted(pod/batch-1)
//	node(pod/web-0) in zone-b
//	phase(pod/x) == Running
//
// The package knows the grammar and each function's signature; the lab
// supplies the values through Env, so the expressions stay independent of
// the engine.
package check
