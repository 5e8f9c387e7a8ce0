// Package docscheck keeps every operator's docs in step with its code: it
// renders the CRD field reference from the generated CRDs (so the reference
// says exactly what the schema enforces) and checks the guide's reason,
// event and flag tables, the troubleshooting sections, the pipeline diagram
// and the links. An operator's docs test is a Suite literal and Run.
package docscheck

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Opaque are fields of Kubernetes types documented upstream, in the shared
// part of every service's spec; the reference names them and does not descend.
var Opaque = map[string]string{
	"spec.deployment.resources":                      "core/v1 ResourceRequirements",
	"spec.deployment.strategy":                       "apps/v1 DeploymentStrategy",
	"spec.deployment.topologySpreadConstraints":      "[]core/v1 TopologySpreadConstraint",
	"spec.networkPolicy.additionalEgress":            "[]networking/v1 NetworkPolicyEgressRule",
	"spec.networkPolicy.ingress[].namespaceSelector": "meta/v1 LabelSelector",
	"spec.networkPolicy.ingress[].podSelector":       "meta/v1 LabelSelector",
	"status.conditions":                              "[]meta/v1 Condition",
}

// Row is one documented field.
type Row struct {
	Path, Type, Default, Validation, Description string
	Required                                     bool
}

// Rows walks the openAPIV3Schema of the CRD's first version; opaque adds
// the kind's own fields of upstream types to Opaque.
func Rows(crdYAML []byte, opaque map[string]string) ([]Row, error) {
	w := walker{opaque: maps.Clone(Opaque)}
	maps.Copy(w.opaque, opaque)
	var crd map[string]any
	if err := yaml.Unmarshal(crdYAML, &crd); err != nil {
		return nil, fmt.Errorf("parsing CRD: %w", err)
	}
	versions, _ := dig(crd, "spec", "versions").([]any)
	if len(versions) == 0 {
		return nil, fmt.Errorf("CRD has no versions")
	}
	root, _ := dig(versions[0].(map[string]any), "schema", "openAPIV3Schema").(map[string]any)
	props, _ := root["properties"].(map[string]any)
	var rows []Row
	for _, top := range []string{"spec", "status"} {
		s, ok := props[top].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("schema has no %s", top)
		}
		w.walk(top, s, false, &rows)
	}
	return rows, nil
}

type walker struct{ opaque map[string]string }

func (w walker) walk(path string, s map[string]any, required bool, rows *[]Row) {
	typ, _ := s["type"].(string)
	if s["x-kubernetes-int-or-string"] == true {
		typ = "integer or string"
	}
	if str(s["pattern"]) == quantityPattern {
		// resource.Quantity: its pattern tells a reader less than its name.
		typ = "quantity"
	}
	row := Row{Path: path, Type: typ, Required: required, Description: oneLine(str(s["description"])),
		Default: def(s["default"]), Validation: validation(s)}
	if kind, ok := w.opaque[path]; ok {
		row.Type = kind
		*rows = append(*rows, row)
		return
	}
	if typ == "array" {
		items, _ := s["items"].(map[string]any)
		row.Type = "[]" + str(items["type"])
		*rows = append(*rows, row)
		if items["type"] == "object" {
			w.walkProps(path+"[]", items, rows)
		}
		return
	}
	if typ == "object" {
		if add, ok := s["additionalProperties"].(map[string]any); ok {
			row.Type = "map[string]" + mapValue(add)
		}
	}
	*rows = append(*rows, row)
	if typ == "object" {
		w.walkProps(path, s, rows)
	}
}

func (w walker) walkProps(path string, s map[string]any, rows *[]Row) {
	props, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	for _, r := range asSlice(s["required"]) {
		req[str(r)] = true
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w.walk(path+"."+n, props[n].(map[string]any), req[n], rows)
	}
}

func mapValue(add map[string]any) string {
	if inner, ok := add["additionalProperties"].(map[string]any); ok {
		return "map[string]" + str(inner["type"])
	}
	return str(add["type"])
}

// quantityPattern is the schema pattern of a resource.Quantity.
const quantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`

func validation(s map[string]any) string {
	var parts []string
	if p := str(s["pattern"]); p != "" && p != quantityPattern {
		parts = append(parts, "pattern `"+p+"`")
	}
	if e := asSlice(s["enum"]); len(e) > 0 {
		vals := make([]string, len(e))
		for i, v := range e {
			vals[i] = fmt.Sprint(v)
		}
		parts = append(parts, "one of "+strings.Join(vals, ", "))
	}
	for _, k := range []string{"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "maxProperties"} {
		if v, ok := s[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", k, v))
		}
	}
	for _, r := range asSlice(s["x-kubernetes-validations"]) {
		if m, ok := r.(map[string]any); ok {
			parts = append(parts, str(m["message"]))
		}
	}
	return strings.Join(parts, "; ")
}

// Section is one kind's part of a reference page.
type Section struct {
	Kind string
	Rows []Row
}

// Markdown renders the reference page of an operator's kinds: title is the
// service's name; with more than one kind each has its own heading.
func Markdown(title string, sections ...Section) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s CRD reference\n\n", title)
	b.WriteString("Generated from the CRD (`go test ./internal/docs -update` in the operator module); do not edit.\n")
	b.WriteString("Validation lists what the API server enforces from the schema; the admission webhook adds the rules in the operator docs.\n")
	for _, sec := range sections {
		if len(sections) > 1 {
			fmt.Fprintf(&b, "\n## %s\n", sec.Kind)
		}
		table(&b, sec.Rows)
	}
	return b.String()
}

func table(b *strings.Builder, rows []Row) {
	b.WriteString("\n| Field | Type | Required | Default | Validation | Description |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		req := ""
		if r.Required {
			req = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %s |\n", r.Path, cell(r.Type), req, cell(r.Default), cell(r.Validation), cell(r.Description))
	}
}

func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func def(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("`%v`", v)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func dig(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}
