// Package oraclecheck holds tests that run the node plugins together, in
// the default profile's order, on small scenarios whose verdicts and
// normalised scores were taken from the real kube-scheduler v1.36.3
// (`/tmp/oracle explain` of ../shared/oracle). It has no non-test code.
package oraclecheck
