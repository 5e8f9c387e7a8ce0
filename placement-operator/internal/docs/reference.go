// Package docs renders the CRD field reference from the generated CRD, so the
// reference says exactly what the schema enforces; its test keeps the
// committed Markdown and the reason tables in step with the code.
package docs

import (
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Opaque are fields of Kubernetes types documented upstream; the reference
// names them and does not descend.
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

// Rows walks the openAPIV3Schema of the CRD's first version.
func Rows(crdYAML []byte) ([]Row, error) {
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
		walk(top, s, false, &rows)
	}
	return rows, nil
}

func walk(path string, s map[string]any, required bool, rows *[]Row) {
	typ, _ := s["type"].(string)
	row := Row{Path: path, Type: typ, Required: required, Description: oneLine(str(s["description"])),
		Default: def(s["default"]), Validation: validation(s)}
	if kind, ok := Opaque[path]; ok {
		row.Type = kind
		*rows = append(*rows, row)
		return
	}
	if typ == "array" {
		items, _ := s["items"].(map[string]any)
		row.Type = "[]" + str(items["type"])
		*rows = append(*rows, row)
		if items["type"] == "object" {
			walkProps(path+"[]", items, rows)
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
		walkProps(path, s, rows)
	}
}

func walkProps(path string, s map[string]any, rows *[]Row) {
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
		walk(path+"."+n, props[n].(map[string]any), req[n], rows)
	}
}

func mapValue(add map[string]any) string {
	if inner, ok := add["additionalProperties"].(map[string]any); ok {
		return "map[string]" + str(inner["type"])
	}
	return str(add["type"])
}

func validation(s map[string]any) string {
	var parts []string
	if p := str(s["pattern"]); p != "" {
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

// Markdown renders the rows as the reference page.
func Markdown(kind string, rows []Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s CRD reference\n\n", kind)
	b.WriteString("Generated from the CRD (`go test ./internal/docs -update` in the operator module); do not edit.\n")
	b.WriteString("Validation lists what the API server enforces from the schema; the admission webhook adds the rules in the operator docs.\n\n")
	b.WriteString("| Field | Type | Required | Default | Validation | Description |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		req := ""
		if r.Required {
			req = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", r.Path, cell(r.Type), req, cell(r.Default), cell(r.Validation), cell(r.Description))
	}
	return b.String()
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
