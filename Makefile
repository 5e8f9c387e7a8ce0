# Thin wrapper: every target calls one script.
.PHONY: test run stop generate tools image release bench e2e-kind

test: ## Build what is missing, then vet, lint and test every module.
	hack/test.sh

bench: ## Measure convergence, API load, latency and memory of each operator; compare with e2e/bench/baselines/<operator>.json.
	hack/bench.sh

run: ## Start a local control plane with kwok nodes and run the Placement operator on it.
	hack/run.sh

stop: ## Stop what `make run` started.
	hack/run.sh stop

generate: ## Regenerate deepcopy, CRDs, RBAC and webhook manifests.
	hack/generate.sh

tools: ## Build the pinned toolchain into the cache.
	hack/tools.sh

OPERATOR ?= placement-operator
image: ## Build an operator's image tarball without a container engine (bin/): make image OPERATOR=glance-operator [VERSION=x.y.z].
	VERSION=$(VERSION) hack/image.sh $(OPERATOR)

release: ## Release one operator into dist/: make release OPERATOR=glance-operator VERSION=0.2.0 [DRY_RUN=1] (docs/releasing.md).
	@[ "$(origin OPERATOR)" != file ] || { echo "make release: name the operator: OPERATOR=<name>-operator" >&2; exit 1; }
	DRY_RUN=$(DRY_RUN) hack/release.sh $(OPERATOR) $(VERSION)

e2e-kind: ## The Placement e2e suite on kind clusters (needs Docker; not run in CI here).
	hack/e2e-kind.sh
