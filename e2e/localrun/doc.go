// Package localrun plays the kubelet for an operator's pods on a local
// control plane whose nodes are kwok's fake ones: it runs the commands of
// the operator's Job pods and API pods as real processes on this machine
// (e2e/localsvc), reports a Job pod's exit code to kwok (which then finishes
// the pod, see hack/kwokctl.yaml), points the operator's health probe at a
// started API through the probe-URL annotation, and marks a pod not Ready
// when its process dies. Only pods of the operators it is given profiles
// for are touched.
package localrun
