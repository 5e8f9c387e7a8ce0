{{/* The operator's Grafana dashboard (files/dashboard.json, generated) in a ConfigMap for Grafana's sidecar; include with the chart's root context. */}}
{{- define "operator-lib.dashboard" -}}
{{- with .Values.metrics.dashboard }}{{ if .enabled }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "operator-lib.fullname" $ }}-dashboard
  namespace: {{ .namespace | default $.Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" $ | nindent 4 }}
    {{- with .labels }}{{ toYaml . | nindent 4 }}{{ end }}
  {{- with .annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
data:
  {{ $.Chart.Name }}.json: |-
    {{- $.Files.Get "files/dashboard.json" | trim | nindent 4 }}
{{- end }}{{ end }}
{{- end -}}
