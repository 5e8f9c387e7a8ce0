// Package bench is the benchmark harness of the operators: it measures
// reconcile cost, API load, latency and memory of one operator on a real
// kube-apiserver and etcd (the binaries the tests use), with stand-ins for
// the controllers the control plane lacks, and compares the figures with a
// committed baseline. docs/bench.md explains how to read them.
//
// The operator's manager runs in a child process of the harness (the same
// binary, built through the operator's own constructor), so that its heap,
// RSS and CPU time are its own and it can be restarted to force a pass over
// every CR; the harness, its clients and the stand-ins stay in the parent.
package bench
