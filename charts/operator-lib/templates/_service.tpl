{{/* The operator's service objects; include with the chart's root context. */}}
{{- define "operator-lib.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "operator-lib.fullname" . }}-metrics
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  selector:
    {{- include "operator-lib.selectorLabels" . | nindent 4 }}
  ports:
    - name: metrics
      port: {{ .Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
{{- if .Values.webhook.enabled }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ include "operator-lib.webhookServiceName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  selector:
    {{- include "operator-lib.selectorLabels" . | nindent 4 }}
  ports:
    - name: webhook
      port: 443
      targetPort: webhook
      protocol: TCP
{{- end }}
{{- end -}}
