{{/*
The operator's RBAC and the leader-election Role. The rules are exactly what
controller-gen derives from the code's +kubebuilder:rbac markers (the chart's
files/clusterrole.yaml, copied by hack/generate.sh); nothing is added here.
Cluster-wide (operator.watchNamespaces empty) they form one ClusterRole. In a
namespace-scoped install they are split: the cluster-scoped resources stay in
the ClusterRole, every other rule goes into a Role in each watched
namespace, and a Role in operator.clustersNamespace reads the target-cluster
registration Secrets.
*/}}
{{- define "operator-lib.rbac" -}}
{{- $generated := .Files.Get "files/clusterrole.yaml" | fromYaml }}
{{- $watch := .Values.operator.watchNamespaces }}
{{- $rules := $generated.rules }}
{{- $split := dict }}
{{- if $watch }}
{{- $split = include "operator-lib.splitRules" $generated.rules | fromYaml }}
{{- $rules = $split.cluster }}
{{- end }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ include "operator-lib.fullname" . }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
rules:
  {{- toYaml $rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ include "operator-lib.fullname" . }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ include "operator-lib.fullname" . }}
subjects:
  - kind: ServiceAccount
    name: {{ include "operator-lib.serviceAccountName" . }}
    namespace: {{ .Release.Namespace }}
{{- range $ns := $watch }}
{{- include "operator-lib.role" (dict "ctx" $ "namespace" $ns "name" (include "operator-lib.fullname" $) "rules" $split.namespaced) }}
{{- end }}
{{- if and $watch .Values.operator.clustersNamespace (not (has .Values.operator.clustersNamespace $watch)) }}
{{- $read := list (dict "apiGroups" (list "") "resources" (list "secrets") "verbs" (list "get")) }}
{{- include "operator-lib.role" (dict "ctx" $ "namespace" .Values.operator.clustersNamespace "name" (printf "%s-clusters" (include "operator-lib.fullname" .)) "rules" $read) }}
{{- end }}
{{- if .Values.leaderElection.enabled }}
---
# Leader election: the lease lives in the release namespace only.
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ include "operator-lib.fullname" . }}-leader-election
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
rules:
  - apiGroups: ["coordination.k8s.io"]
    resources: ["leases"]
    verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ include "operator-lib.fullname" . }}-leader-election
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ include "operator-lib.fullname" . }}-leader-election
subjects:
  - kind: ServiceAccount
    name: {{ include "operator-lib.serviceAccountName" . }}
    namespace: {{ .Release.Namespace }}
{{- end }}
{{- end -}}


{{/*
splitRules splits generated rules into the cluster-scoped resources and the
rest, as YAML {cluster: [...], namespaced: [...]}.
*/}}
{{- define "operator-lib.splitRules" -}}
{{- $clusterScoped := list "clustersecretstores" "priorityclasses" }}
{{- $cluster := list }}
{{- $namespaced := list }}
{{- range $rule := . }}
{{- $c := list }}
{{- $n := list }}
{{- range $rule.resources }}
{{- if has . $clusterScoped }}{{ $c = append $c . }}{{ else }}{{ $n = append $n . }}{{ end }}
{{- end }}
{{- if $c }}{{ $cluster = append $cluster (dict "apiGroups" $rule.apiGroups "resources" $c "verbs" $rule.verbs) }}{{ end }}
{{- if $n }}{{ $namespaced = append $namespaced (dict "apiGroups" $rule.apiGroups "resources" $n "verbs" $rule.verbs) }}{{ end }}
{{- end }}
{{- dict "cluster" $cluster "namespaced" $namespaced | toYaml }}
{{- end -}}

{{/*
role is a Role named .name in .namespace with .rules, bound to the
operator's ServiceAccount.
*/}}
{{- define "operator-lib.role" -}}
{{- $ctx := .ctx }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ .name }}
  namespace: {{ .namespace }}
  labels:
    {{- include "operator-lib.labels" $ctx | nindent 4 }}
rules:
  {{- toYaml .rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ .name }}
  namespace: {{ .namespace }}
  labels:
    {{- include "operator-lib.labels" $ctx | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ .name }}
subjects:
  - kind: ServiceAccount
    name: {{ include "operator-lib.serviceAccountName" $ctx }}
    namespace: {{ $ctx.Release.Namespace }}
{{- end -}}
