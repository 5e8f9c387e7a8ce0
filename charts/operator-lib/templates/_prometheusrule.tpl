{{/*
The operator's alerting rules (files/prometheusrule.yaml, generated) as a
PrometheusRule; the <Kind>NotReady alert waits metrics.prometheusRule.notReadyFor
and every alert gets ruleLabels beside its own. Include with the chart's root context.
*/}}
{{- define "operator-lib.prometheusrule" -}}
{{- with .Values.metrics.prometheusRule }}{{ if .enabled }}
{{- $file := $.Files.Get "files/prometheusrule.yaml" | fromYaml }}
{{- $values := . }}
{{- range $group := $file.groups }}
{{- range $rule := $group.rules }}
{{- if hasSuffix "NotReady" $rule.alert }}{{ $_ := set $rule "for" $values.notReadyFor }}{{ end }}
{{- $_ := set $rule "labels" (merge (dict) $rule.labels ($values.ruleLabels | default dict)) }}
{{- end }}
{{- end }}
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: {{ include "operator-lib.fullname" $ }}
  namespace: {{ $.Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" $ | nindent 4 }}
    {{- with .labels }}{{ toYaml . | nindent 4 }}{{ end }}
spec:
  {{- toYaml $file | nindent 2 }}
{{- end }}{{ end }}
{{- end -}}
