{{/* The operator's networkpolicy objects; include with the chart's root context. */}}
{{- define "operator-lib.networkpolicy" -}}
{{- if .Values.networkPolicy.enabled }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "operator-lib.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "operator-lib.selectorLabels" . | nindent 6 }}
  policyTypes: ["Ingress"]
  ingress:
    {{- if .Values.webhook.enabled }}
    - ports:
        - port: {{ .Values.webhook.port }}
          protocol: TCP
    {{- end }}
    - from:
        - namespaceSelector:
            {{- toYaml .Values.networkPolicy.metricsNamespaceSelector | nindent 12 }}
      ports:
        - port: {{ .Values.metrics.port }}
          protocol: TCP
{{- end }}
{{- end -}}
