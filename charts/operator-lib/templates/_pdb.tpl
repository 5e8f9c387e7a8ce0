{{/* The operator's pdb objects; include with the chart's root context. */}}
{{- define "operator-lib.pdb" -}}
{{- if .Values.podDisruptionBudget.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "operator-lib.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  minAvailable: {{ .Values.podDisruptionBudget.minAvailable }}
  selector:
    matchLabels:
      {{- include "operator-lib.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end -}}
