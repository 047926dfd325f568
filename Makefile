# Everyday tasks. `make` runs the tests; CI runs .ci/run.
GO ?= go
N ?= 10000
FUZZTIME ?= 30s

.PHONY: test race bench fuzz lint conformance ci run

test:
	$(GO) test ./...

race:
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

# Fuzz each fuzz target for FUZZTIME (go test allows one target per run).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./lab/command
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./lab/check
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./lab/manifest

lint:
	gofmt -l $$(git ls-files '*.go')
	$(GO) vet ./...
	staticcheck ./...

# Differential tests against the real kube-scheduler (separate module).
conformance:
	cd conformance && CONFORMANCE_N=$(N) $(GO) test -count=1 ./...

ci:
	bash .ci/run

run:
	$(GO) run .
