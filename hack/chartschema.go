//go:build ignore

// Command chartschema prints the library chart's values schema with the
// top-level properties of an operator's extension schema added, for
// hack/generate.sh: go run hack/chartschema.go <library schema> <extension>.
// An extension may only add properties; one the library defines is refused.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "chartschema:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: chartschema <library schema> <extension>")
	}
	var lib, ext map[string]any
	for i, v := range []*map[string]any{&lib, &ext} {
		raw, err := os.ReadFile(args[i])
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("%s: %w", args[i], err)
		}
	}
	props, ok := lib["properties"].(map[string]any)
	if !ok {
		return fmt.Errorf("%s: no properties", args[0])
	}
	added, _ := ext["properties"].(map[string]any)
	for name, schema := range added {
		if _, taken := props[name]; taken {
			return fmt.Errorf("%s: property %q is the library's", args[1], name)
		}
		props[name] = schema
	}
	out, err := json.MarshalIndent(lib, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s\n", out)
	return err
}
