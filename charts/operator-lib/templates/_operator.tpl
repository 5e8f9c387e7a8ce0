{{/*
Every object of an operator's chart but its CRDs (the chart's crds/) and its
NOTES: an operator chart's only template is
  {{ include "operator-lib.operator" . }}
with its generated files/clusterrole.yaml and files/webhooks.yaml beside it.
*/}}
{{- define "operator-lib.operator" -}}
{{- range $part := list "serviceaccount" "rbac" "service" "deployment" "webhook" "servicemonitor" "dashboard" "prometheusrule" "networkpolicy" "pdb" }}
{{- $out := include (printf "operator-lib.%s" $part) $ | trim | trimPrefix "---" | trim }}
{{- if $out }}
---
{{ $out }}
{{- end }}
{{- end }}
{{- end -}}
