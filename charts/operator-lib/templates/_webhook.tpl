{{/*
The operator's admission webhooks and their serving certificate. The webhooks
are the ones controller-gen generated from the code's +kubebuilder:webhook
markers (the chart's files/webhooks.yaml, copied by hack/generate.sh): names,
paths, rules and side effects come from there verbatim; the chart sets where
the API server sends the request (the webhook Service or webhook.url), the
CA bundle and webhook.failurePolicy. Object names are release-scoped, so two
operators' charts never collide.
*/}}
{{- define "operator-lib.webhook" -}}
{{- if .Values.webhook.enabled }}
{{- $svc := include "operator-lib.webhookServiceName" . }}
{{- $cm := .Values.webhook.certManager.enabled }}
{{- $cert := dict }}
{{- if not $cm }}{{ $cert = include "operator-lib.webhookCert" . | fromJson }}{{ end }}
{{- $certName := printf "%s-webhook" (include "operator-lib.fullname" .) }}
{{- range $doc := splitList "\n---" (.Files.Get "files/webhooks.yaml") }}
{{- $generated := fromYaml $doc }}
{{- if $generated.kind }}
---
apiVersion: admissionregistration.k8s.io/v1
kind: {{ $generated.kind }}
metadata:
  name: {{ include "operator-lib.fullname" $ }}
  labels:
    {{- include "operator-lib.labels" $ | nindent 4 }}
  {{- if $cm }}
  annotations:
    cert-manager.io/inject-ca-from: {{ $.Release.Namespace }}/{{ $certName }}
  {{- end }}
webhooks:
  {{- range $hook := $generated.webhooks }}
  - name: {{ $hook.name }}
    clientConfig:
      {{- if $.Values.webhook.url }}
      url: {{ trimSuffix "/" $.Values.webhook.url }}{{ $hook.clientConfig.service.path }}
      {{- else }}
      service:
        name: {{ $svc }}
        namespace: {{ $.Release.Namespace }}
        path: {{ $hook.clientConfig.service.path }}
      {{- end }}
      {{- if not $cm }}
      caBundle: {{ $cert.caCert }}
      {{- end }}
    admissionReviewVersions: {{ toJson $hook.admissionReviewVersions }}
    sideEffects: {{ $hook.sideEffects }}
    failurePolicy: {{ $.Values.webhook.failurePolicy }}
    rules:
      {{- toYaml $hook.rules | nindent 6 }}
  {{- end }}
{{- end }}
{{- end }}
{{- if $cm }}
{{- if not .Values.webhook.certManager.issuerRef }}
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata:
  name: {{ $certName }}-selfsigned
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  selfSigned: {}
{{- end }}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: {{ $certName }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  secretName: {{ include "operator-lib.webhookSecretName" . }}
  dnsNames:
    - {{ $svc }}.{{ .Release.Namespace }}.svc
    - {{ $svc }}.{{ .Release.Namespace }}.svc.cluster.local
  issuerRef:
    {{- if .Values.webhook.certManager.issuerRef }}
    {{- toYaml .Values.webhook.certManager.issuerRef | nindent 4 }}
    {{- else }}
    kind: Issuer
    name: {{ $certName }}-selfsigned
    {{- end }}
{{- else }}
---
apiVersion: v1
kind: Secret
metadata:
  name: {{ include "operator-lib.webhookSecretName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
type: kubernetes.io/tls
data:
  ca.crt: {{ $cert.caCert }}
  tls.crt: {{ $cert.tlsCert }}
  tls.key: {{ $cert.tlsKey }}
{{- end }}
{{- end }}
{{- end -}}
