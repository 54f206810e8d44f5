# Loam build. Every target works on a fresh checkout; `.ci/run` installs what a
# fresh machine lacks and then runs `make test`.

GO        ?= go
PREFIX    ?= /usr/local
BIN       := $(CURDIR)/bin
# go-nvml's cgo preamble calls functions NVML marks deprecated; the warnings are
# upstream noise, not ours.
export CGO_CFLAGS ?= -O2 -Wno-deprecated-declarations

# Daemons use cgo (SQLite, NVML); the user commands are static (CGO_ENABLED=0)
# so they copy onto any login node.
DAEMONS   := loam-ctld loam-noded loam-supervise
TOOLS     := $(notdir $(patsubst %/,%,$(dir $(wildcard tools/*/main.go))))
FUZZTIME  ?= 10s

.PHONY: all build test unit integration vet lint fuzz install clean demo demo-down \
        cluster-up cluster-down sim man check-deps gpu-check bench

all: build

build: $(addprefix $(BIN)/,$(DAEMONS)) tools

$(BIN)/loam-ctld: FORCE
	$(GO) build -o $@ ./ctld

$(BIN)/loam-noded: FORCE
	$(GO) build -o $@ ./noded

# Each job's supervisor: small and static, started once per job.
$(BIN)/loam-supervise: FORCE
	CGO_ENABLED=0 $(GO) build -o $@ ./noded/supervise

tools: FORCE
	@mkdir -p $(BIN)
	@for t in $(TOOLS); do \
		echo "CGO_ENABLED=0 $(GO) build -o $(BIN)/$$t ./tools/$$t"; \
		CGO_ENABLED=0 $(GO) build -o $(BIN)/$$t ./tools/$$t || exit 1; \
	done

FORCE:

# test: vet, every unit test under the race detector, then the integration
# tests that start the real binaries from bin/.
test: vet check-deps build
	$(GO) test -race -timeout 20m ./...
	LOAM_BIN=$(BIN) $(GO) test -tags integration -timeout 20m -count=1 ./test/...

unit:
	$(GO) test ./...

integration: build
	LOAM_BIN=$(BIN) $(GO) test -tags integration -timeout 20m -count=1 -v ./test/...

vet:
	$(GO) vet ./...
	$(GO) vet -tags integration ./test/...

# check-deps enforces the layering of docs/architecture.md: the pure core and
# the leaves never do I/O, and the user commands never link cgo packages.
check-deps:
	$(GO) test -count=1 -run TestDependencyRules ./test/

STATICCHECK ?= $(shell $(GO) env GOPATH)/bin/staticcheck
lint:
	@test -x $(STATICCHECK) || $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.7.0
	$(STATICCHECK) ./...

# fuzz runs every Fuzz target for FUZZTIME each (go test allows one target
# per invocation).
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/share/man
	install -m 0755 $(addprefix $(BIN)/,$(DAEMONS)) $(DESTDIR)$(PREFIX)/sbin/
	for t in $(TOOLS); do install -m 0755 $(BIN)/$$t $(DESTDIR)$(PREFIX)/bin/; done
	cp -r man/. $(DESTDIR)$(PREFIX)/share/man/

clean:
	rm -rf $(BIN)
	$(GO) clean -testcache

demo: build
	./contrib/demo/demo.sh

demo-down:
	./contrib/demo/demo.sh down

cluster-up: build
	./contrib/demo/cluster.sh up

cluster-down:
	./contrib/demo/cluster.sh down

sim: build
	$(BIN)/ssim --help

bench: build
	./bench/run.sh

gpu-check: build
	./contrib/gpu-check.sh
