# Everyday tasks. `make` runs the tests; CI runs .ci/run.
GO ?= go
N ?= 10000
FUZZTIME ?= 30s

.PHONY: test race bench fuzz lint conformance conformance-test conformance-bench e2e ci run

test:
	$(GO) test ./...

race:
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

# Fuzz each fuzz target for FUZZTIME (go test allows one target per run).
# A count (FUZZTIME=100000x) avoids Go 1.26's spurious "context deadline
# exceeded" at the end of a timed run (golang/go#75804); .ci/run uses counts.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./lab/command
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./lab/check
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./lab/manifest
	$(GO) test -run '^$$' -fuzz '^FuzzLoadFile$$' -fuzztime $(FUZZTIME) ./lab
	$(GO) test -run '^$$' -fuzz '^FuzzClean$$' -fuzztime $(FUZZTIME) ./lab/textsafe

# gofmt -l lists unformatted files but exits 0: fail when it lists any
# (or cannot parse a file), as CI does.
lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')) || exit 1; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	staticcheck ./...

# Differential tests against the real kube-scheduler (separate module).
SEED ?= 1
conformance:
	cd conformance && $(GO) run ./cmd/agree -n $(N) -seed $(SEED) -coverage

conformance-test:
	cd conformance && $(GO) test -count=1 ./...

conformance-bench:
	cd conformance && $(GO) test -run '^$$' -bench Speed -benchtime 1x -timeout 60m .

e2e:
	bash scripts/e2e-tmux.sh

ci:
	bash .ci/run

run:
	$(GO) run .
