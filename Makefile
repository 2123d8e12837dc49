# Croupier. `make` (= `make run`) serves everything locally on one port with
# the embedded store; no AWS, no Docker.
#
#   run      go run ./cmd/croupier serve (CLOCK=manual: a clock you move
#            with `croupier play clock`; ADDR=127.0.0.1:9090 to move the port)
#   test     every test, against DynamoDB Local and the Lambda emulator;
#            the tracker's pages in headless Chromium (screenshots into
#            build/screenshots) and through the Nu Html Checker
#   bench    go test -bench, then the `croupier bench` table: per-command
#            latency and AWS-priced cost on bolt and DynamoDB Local,
#            bootstrap sizes and Init Durations under the emulator, and
#            each command's dollars per million at list prices
#   scale    a game of SCALE_PLAYERS (10,000) players on DynamoDB Local:
#            the phase end with a battle of everyone, timed, GET /players
#            paged, the largest item written (`make test` runs 1,500);
#            and a turns game of SCALE_PLAYERS players: its turn end of
#            SCALE_TURN_END proposals/votes (500/10000) against the pure
#            rules, timed (`make test`: 120/600 among 400 players), and what
#            each command costs at 100, 1,000 and SCALE_PLAYERS players
#   soak     the proving ground's long form (docs/proving.md) for SOAK
#            (30m): rounds of a game of each ruleset at once, random
#            clients with lagging clocks, concurrent schedulers and store
#            faults on bolt and DynamoDB Local, and kill -9 restarts of
#            croupier serve during phase and turn ends, side by side
#            (`make test` runs one round)
#   build    every Lambda for AWS (linux/arm64) into build/<fn>/bootstrap
#   invoke   FN=actions EVENT=events/actions/join.json: one function under
#            the Lambda Runtime Interface Emulator against DynamoDB Local
#   clean    remove build output
#   build-<LogicalId>  what `sam build` calls (template.yaml BuildMethod makefile)
#
# The tools (DynamoDB Local, aws-lambda-rie) come from Makefile.tools.

.DEFAULT_GOAL := run
include Makefile.tools

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.ONESHELL:

FUNCTIONS := $(notdir $(wildcard functions/*))
# AWS build: Graviton, static, no RPC shim (provided.al2023 speaks the
# Runtime API only), no HTTP/2, reproducible paths, no inlining in
# croupier's own packages (0.3-0.45 MiB of each bootstrap; no measurable
# CPU cost for a command: docs/operations.md "Bootstraps"), no symbol
# tables. Keep in step with internal/lambdarun BuildFlags.
LAMBDA_GOFLAGS := -tags lambda.norpc,nethttpomithttp2 -trimpath -gcflags=croupier/...=-l -gcflags=github.com/aws/...=-l -gcflags=github.com/a-h/...=-l -gcflags=text/...=-l -gcflags=html/...=-l -gcflags=regexp/...=-l -gcflags=math/big=-l -gcflags=crypto/x509=-l -gcflags=mime/...=-l -gcflags=net/textproto=-l -ldflags "-s -w"
LAMBDA_ENV := GOOS=linux GOARCH=arm64 CGO_ENABLED=0
# Packages whose -v output `make test` summarises (conformance suite, e2e).
VERBOSE_PKGS := ./internal/store/... ./internal/e2e/... ./internal/proving/...
TEST_LOG := build/test-verbose.log
# The tracker's browser tests save a full-page screenshot of each page here.
SCREENSHOTS := $(CURDIR)/build/screenshots
# Called directly, not through $(MAKE), so `make -n` stays a dry run.
DYNAMODB_LOCAL := TOOLS=$(TOOLS) $(CURDIR)/scripts/dynamodb-local.sh
space := $(subst ,, )

.PHONY: run test bench scale soak build invoke clean $(addprefix build-,$(FUNCTIONS))

CLOCK ?= real
# Loopback: a server nobody configured is reachable from this machine only
# (croupier serve refuses another address without a real API key).
ADDR ?= 127.0.0.1:8080
BENCH_N ?= 200

run:
	go run ./cmd/croupier serve --clock $(CLOCK) --addr $(ADDR)

# test starts DynamoDB Local once for every package (tests start their own
# when CROUPIER_DYNAMODB_ENDPOINT is unset), always stops it, and exits with
# go test's status. The store, e2e and proving packages run with -v; their
# full log is $(TEST_LOG), and the summary printed shows each test that ran
# (the conformance suite on bolt and dynamo, one line per event file
# invoked, the proving ground's reports).
test: tools
	@trap '$(DYNAMODB_LOCAL) stop >/dev/null' EXIT
	$(DYNAMODB_LOCAL) start >/dev/null
	export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$$(cat $(TOOLS)/dynamodb.port)
	export CROUPIER_RIE=$(RIE)
	export CROUPIER_VNU=$(VNU_JAR)
	export CROUPIER_CHROMIUM=$$(for b in $(CHROMIUM_NAMES); do command -v $$b && break; done)
	export CROUPIER_SCREENSHOTS=$(SCREENSHOTS)
	rm -rf $(SCREENSHOTS)
	echo "test: DynamoDB Local at $$CROUPIER_DYNAMODB_ENDPOINT, emulator $$CROUPIER_RIE"
	echo "test: Chromium $$CROUPIER_CHROMIUM, Nu Html Checker $$CROUPIER_VNU, screenshots into $$CROUPIER_SCREENSHOTS"
	status=0
	others=$$(go list ./... | grep -v -e '/internal/store/' -e '/internal/e2e' -e '/internal/proving')
	go test -count=1 -timeout 30m $$others || status=1
	mkdir -p $(dir $(TEST_LOG))
	go test -count=1 -timeout 30m -v $(filter-out ./internal/proving/...,$(VERBOSE_PKGS)) >$(TEST_LOG) 2>&1 || status=1
	# The proving ground reads DynamoDB Streams; on a DynamoDB Local that
	# every other package's stream tables have gone through, its stream
	# reads were seen to stall for minutes, so it gets a fresh instance.
	$(DYNAMODB_LOCAL) stop >/dev/null
	$(DYNAMODB_LOCAL) start >/dev/null
	export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$$(cat $(TOOLS)/dynamodb.port)
	go test -count=1 -timeout 30m -v ./internal/proving/... >>$(TEST_LOG) 2>&1 || status=1
	grep -E '^(--- |ok |FAIL|panic:)|^ +[a-z_]+_test\.go:[0-9]+: (invoked|template|conformance|[0-9]+ rounds;)|^ +(proving ground:|(commands|faults|kills|runners|boundaries|announced|checks|violations): )' $(TEST_LOG) || true
	if [ $$status -ne 0 ]; then
		echo "test: FAILED. $(TEST_LOG) without the RUN and passing-subtest lines:"
		grep -v -E '^=== |^ +--- PASS' $(TEST_LOG) | head -2000 || true
	fi
	exit $$status

bench: tools
	@trap '$(DYNAMODB_LOCAL) stop >/dev/null' EXIT
	$(DYNAMODB_LOCAL) start >/dev/null
	export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$$(cat $(TOOLS)/dynamodb.port)
	go test -run '^$$' -bench . -benchmem ./...
	echo
	go run ./cmd/croupier bench --n $(BENCH_N) --dynamodb-endpoint $$CROUPIER_DYNAMODB_ENDPOINT --functions --rie $(RIE)

SCALE_PLAYERS ?= 10000
SCALE_TURN_END ?= 500/10000

# scale is the TestScale_ tests at full size: a phase end with a battle of
# everyone (issue 11, acceptance 6), an Obelisk observation and every-player
# ritual, and a turns game's turn end of many proposals and votes and its
# commands' costs at 10,000 players (issue 22); their logs print the times,
# the costs and the largest items.
scale: tools
	@trap '$(DYNAMODB_LOCAL) stop >/dev/null' EXIT
	$(DYNAMODB_LOCAL) start >/dev/null
	export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$$(cat $(TOOLS)/dynamodb.port)
	CROUPIER_SCALE_PLAYERS=$(SCALE_PLAYERS) go test -count=1 -v -timeout 30m -run '^TestScale_' ./internal/httpapi/
	CROUPIER_SCALE_PLAYERS=$(SCALE_PLAYERS) CROUPIER_SCALE_TURN_END=$(SCALE_TURN_END) go test -count=1 -v -timeout 60m -run '^TestScale_' ./internal/rulesets/turns/

# soak runs the proving ground until SOAK has passed (a Go duration); the
# report at the end counts commands, faults, kills and checks, and lists
# every violation (the run fails on any).
SOAK ?= 30m
soak: tools
	@trap '$(DYNAMODB_LOCAL) stop >/dev/null' EXIT
	$(DYNAMODB_LOCAL) start >/dev/null
	export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$$(cat $(TOOLS)/dynamodb.port)
	CROUPIER_SOAK=$(SOAK) go test -count=1 -v -timeout 0 -run '^(TestProvingGround|TestServeKill9)$$' ./internal/proving/

build: $(addprefix build/,$(addsuffix /bootstrap,$(FUNCTIONS)))

# Always rebuilt: go build is itself incremental.
build/%/bootstrap: FORCE
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $@ ./functions/$*

.PHONY: FORCE
FORCE:

# sam build: template.yaml sets ContextPath and ProjectRootDirectory to the
# root, so these run in a copy of the whole module; ARTIFACTS_DIR is SAM's.
build-ActionsFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/actions

build-DiscordFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/discord

build-PhaseEndFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/phase-end

build-PurchasesFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/purchases

build-AnnounceFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/announce

build-SlackFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/slack

build-DuelsFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/duels

build-TimeoutsFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/timeouts

build-VotesFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/votes

build-TallyFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/tally

build-JudgeElectionFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/judge-election

build-TrackerFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/tracker

build-CardsFunction:
	$(LAMBDA_ENV) go build $(LAMBDA_GOFLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/cards

# invoke builds FN for this machine and runs it under the emulator with the
# event file(s) in EVENT, against DynamoDB Local and table $(INVOKE_TABLE),
# with API key dev-key (for anyone: "dev-key as=*"). A DynamoDB Local already running (make
# dynamodb-start) is used and kept, so state carries over between invokes;
# otherwise one is started and stopped, and every invoke begins empty:
#   make invoke FN=actions EVENT="events/actions/create-game.json events/actions/join.json"
INVOKE_TABLE := croupier-local
invoke: tools
	@if [ -z "$(FN)" ] || [ -z "$(EVENT)" ] || [ ! -d functions/$(FN) ]; then
		echo "usage: make invoke FN=<$(subst $(space),|,$(FUNCTIONS))> EVENT=events/<fn>/<case>.json" >&2
		exit 2
	fi
	if ! $(DYNAMODB_LOCAL) status >/dev/null 2>&1; then
		trap '$(DYNAMODB_LOCAL) stop >/dev/null' EXIT
		$(DYNAMODB_LOCAL) start >/dev/null
	fi
	endpoint=http://127.0.0.1:$$(cat $(TOOLS)/dynamodb.port)
	go run ./internal/e2e/cmd/mktable -endpoint $$endpoint -table $(INVOKE_TABLE)
	CGO_ENABLED=0 go build -tags lambda.norpc -o build/host/$(FN)/bootstrap ./functions/$(FN)
	go run ./internal/e2e/cmd/invoke -rie $(RIE) -bootstrap build/host/$(FN)/bootstrap \
		-env TABLE_NAME=$(INVOKE_TABLE) -env DYNAMODB_ENDPOINT=$$endpoint \
		-env 'API_KEYS=dev-key as=*' -env LOG_LEVEL=info $(EVENT)

clean:
	rm -rf build .aws-sam
