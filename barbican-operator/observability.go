package barbican

import (
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/common/lib/observability"
)

// observe adds the managed stores' secret ID re-mints: a reactive re-mint
// means the server had already rejected the pair the store held, so
// reactive ones outpacing proactive ones mean the schedule comes too late.
func observe(s *observability.Spec) {
	remints := s.Prefix + "_secretstore_remints_total" // controller.NewRemints
	s.Panels = append(s.Panels, observability.Panel{
		Title:       "Secret ID re-mints per hour",
		Description: "Re-mints of managed stores' AppRole secret IDs by trigger: proactive before two thirds of the TTL, reactive after the server rejected the held one.",
		Targets: []observability.Target{{
			Expr:   "sum by (namespace, store, trigger) (increase(" + remints + `{namespace=~"$namespace"}[1h]))`,
			Legend: "{{namespace}}/{{store}} {{trigger}}",
		}},
	})
	count := func(trigger string) string {
		return "sum by (namespace, store) " + observability.IncreaseOrNew(remints+`{trigger="`+trigger+`"}`, "6h")
	}
	s.Rules = append(s.Rules, observability.Rule{
		Alert: "BarbicanSecretIDRemintsReactive",
		// A store without proactive re-mints compares with zero.
		Expr: count(controller.TriggerReactive) + " > on (namespace, store) (" + count(controller.TriggerProactive) +
			" or " + count(controller.TriggerReactive) + " * 0)",
		For:      "30m",
		Severity: "warning",
		Summary:  "Store {{ $labels.namespace }}/{{ $labels.store }} re-mints its secret ID after rejections more often than on schedule.",
		Description: "In the last 6 hours the managed BarbicanSecretStore {{ $labels.namespace }}/{{ $labels.store }} " +
			"re-minted its AppRole secret ID more often because OpenBao had already rejected it than before it lapsed. " +
			"Secret IDs stop working before the TTL the server returned at minting (the " +
			"barbican.c5c3.io/secret-id-ttl-seconds annotation of <store>-approle): revoked, used up by the role's " +
			"secret_id_num_uses, the role recreated; or the operator was down for a third of the TTL. Read the " +
			"store's CredentialsReady condition and the role on the server " +
			"(docs/barbican/secret-stores.md).",
	})
}
