{{/* Release-scoped name of the operator: <release>-<chart>, or fullnameOverride. */}}
{{- define "operator-lib.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels every object of the chart carries. */}}
{{- define "operator-lib.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Labels that select the operator's pods. */}}
{{- define "operator-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "operator-lib.serviceAccountName" -}}
{{- default (include "operator-lib.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{- define "operator-lib.webhookServiceName" -}}
{{- printf "%s-webhook" (include "operator-lib.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "operator-lib.webhookSecretName" -}}
{{- printf "%s-webhook-cert" (include "operator-lib.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
