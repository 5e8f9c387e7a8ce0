{{/*
The webhook serving certificate when cert-manager is not used: a CA and a
leaf for the webhook Service, generated once and reused on upgrades (looked
up from the live Secret) so the caBundle stays valid. Returns a dict with
caCert, tlsCert and tlsKey, base64-encoded. With webhook.url set, the
certificate also names that URL's host (an IP address or a DNS name).
*/}}
{{- define "operator-lib.webhookCert" -}}
{{- $secretName := include "operator-lib.webhookSecretName" . -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace $secretName -}}
{{- if and $existing (index $existing.data "ca.crt") -}}
{{- dict "caCert" (index $existing.data "ca.crt") "tlsCert" (index $existing.data "tls.crt") "tlsKey" (index $existing.data "tls.key") | toJson -}}
{{- else -}}
{{- $svc := include "operator-lib.webhookServiceName" . -}}
{{- $ca := genCA (printf "%s-ca" $svc) 3650 -}}
{{- $dns := list $svc (printf "%s.%s" $svc .Release.Namespace) (printf "%s.%s.svc" $svc .Release.Namespace) (printf "%s.%s.svc.cluster.local" $svc .Release.Namespace) -}}
{{- $ips := list -}}
{{- with .Values.webhook.url -}}
{{- $host := regexReplaceAll ":[0-9]+$" (urlParse .).host "" | trimPrefix "[" | trimSuffix "]" -}}
{{- if regexMatch "^[0-9.]+$|:" $host }}{{ $ips = append $ips $host }}{{ else }}{{ $dns = append $dns $host }}{{ end -}}
{{- end -}}
{{- $cert := genSignedCert $svc $ips $dns 3650 $ca -}}
{{- dict "caCert" ($ca.Cert | b64enc) "tlsCert" ($cert.Cert | b64enc) "tlsKey" ($cert.Key | b64enc) | toJson -}}
{{- end -}}
{{- end -}}
