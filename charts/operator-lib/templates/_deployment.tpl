{{/* The operator's deployment objects; include with the chart's root context. */}}
{{- define "operator-lib.deployment" -}}
{{- $image := printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- if .Values.image.digest }}{{ $image = printf "%s@%s" .Values.image.repository .Values.image.digest }}{{ end }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "operator-lib.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "operator-lib.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels:
      {{- include "operator-lib.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "operator-lib.selectorLabels" . | nindent 8 }}
        {{- with .Values.podLabels }}{{ toYaml . | nindent 8 }}{{ end }}
      annotations:
        kubectl.kubernetes.io/default-container: manager
        {{- with .Values.podAnnotations }}{{ toYaml . | nindent 8 }}{{ end }}
    spec:
      serviceAccountName: {{ include "operator-lib.serviceAccountName" . }}
      automountServiceAccountToken: true
      securityContext:
        {{- include "operator-lib.podSecurityContext" . | nindent 8 }}
      {{- with .Values.imagePullSecrets }}
      imagePullSecrets: {{ toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      terminationGracePeriodSeconds: 10
      containers:
        - name: manager
          image: {{ $image }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          args:
            - --leader-elect={{ .Values.leaderElection.enabled }}
            - --leader-elect-lease-duration={{ .Values.leaderElection.leaseDuration }}
            - --leader-elect-renew-deadline={{ .Values.leaderElection.renewDeadline }}
            - --leader-elect-retry-period={{ .Values.leaderElection.retryPeriod }}
            - --metrics-bind-address=:{{ .Values.metrics.port }}
            - --health-probe-bind-address=:8081
            - --enable-webhooks={{ .Values.webhook.enabled }}
            - --webhook-port={{ .Values.webhook.port }}
            - --webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs
            - --clusters-namespace={{ .Values.operator.clustersNamespace }}
            - --watch-namespaces={{ join "," .Values.operator.watchNamespaces }}
            - --max-concurrent-reconciles={{ .Values.operator.maxConcurrentReconciles }}
            - --sync-period={{ .Values.operator.syncPeriod }}
            - --abandon-grace={{ .Values.operator.abandonGrace }}
            - --cluster-domain={{ .Values.operator.clusterDomain }}
            - --probe-via-apiserver={{ .Values.operator.probeViaAPIServer }}
            - --zap-log-level={{ .Values.operator.logLevel }}
          env:
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
          ports:
            - name: metrics
              containerPort: {{ .Values.metrics.port }}
              protocol: TCP
            - name: health
              containerPort: 8081
              protocol: TCP
            {{- if .Values.webhook.enabled }}
            - name: webhook
              containerPort: {{ .Values.webhook.port }}
              protocol: TCP
            {{- end }}
          livenessProbe:
            httpGet:
              path: /healthz
              port: health
            initialDelaySeconds: 15
            periodSeconds: 20
          readinessProbe:
            httpGet:
              path: /readyz
              port: health
            initialDelaySeconds: 5
            periodSeconds: 10
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
          securityContext:
            {{- include "operator-lib.containerSecurityContext" . | nindent 12 }}
          {{- if .Values.webhook.enabled }}
          volumeMounts:
            - name: webhook-cert
              mountPath: /tmp/k8s-webhook-server/serving-certs
              readOnly: true
          {{- end }}
      {{- if .Values.webhook.enabled }}
      volumes:
        - name: webhook-cert
          secret:
            secretName: {{ include "operator-lib.webhookSecretName" . }}
      {{- end }}
      {{- with .Values.nodeSelector }}
      nodeSelector: {{ toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations: {{ toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.affinity }}
      affinity: {{ toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}
