{{/*
The operator's ClusterRole, its binding and the leader-election Role. The
ClusterRole's rules are exactly what controller-gen derives from the code's
+kubebuilder:rbac markers (the chart's files/clusterrole.yaml, copied by
hack/generate.sh); nothing is added here.
*/}}
{{- define "operator-lib.rbac" -}}
{{- $generated := .Files.Get "files/clusterrole.yaml" | fromYaml }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ include "operator-lib.fullname" . }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
rules:
  {{- toYaml $generated.rules | nindent 2 }}
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
