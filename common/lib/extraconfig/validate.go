package extraconfig

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate checks a spec.extraConfig overlay at admission. It returns field
// errors (sorted by section, then key) and admission warnings.
//
// Names must be non-empty and no name or value may hold CR or LF, since the
// INI is rendered verbatim. Rejected owned keys are forbidden. When
// checkCatalog is set every non-owned key is checked against cat; a nil cat
// (no catalog for release, or release unparseable) yields a single warning
// naming service and release instead. Values never appear in messages.
func Validate(
	path *field.Path,
	extra map[string]map[string]string,
	reg Registry,
	service string,
	cat *Catalog,
	release string,
	checkCatalog bool,
) (errs field.ErrorList, warnings []string) {
	useCatalog := checkCatalog && cat != nil
	catName := service
	if cat != nil {
		catName = cmp.Or(cat.Service, service) + " " + cat.Release
	}
	if checkCatalog && cat == nil {
		warnings = append(warnings, fmt.Sprintf(
			"no option catalog for %s release %s; extraConfig options not checked", service, release))
	}

	for _, section := range sortedNames(extra) {
		secPath := path.Key(section)
		sectionOK := true
		switch {
		case section == "":
			errs = append(errs, field.Invalid(secPath, section, "section name must not be empty"))
			sectionOK = false
		case hasNewline(section):
			errs = append(errs, field.Invalid(secPath, section, "section name must not contain CR or LF"))
			sectionOK = false
		}

		sectionReported := false
		for _, key := range sortedNames(extra[section]) {
			keyPath := secPath.Key(key)
			keyOK := true
			switch {
			case key == "":
				errs = append(errs, field.Invalid(keyPath, key, "key must not be empty"))
				keyOK = false
			case hasNewline(key):
				errs = append(errs, field.Invalid(keyPath, key, "key must not contain CR or LF"))
				keyOK = false
			}
			if hasNewline(extra[section][key]) {
				// The value may be a secret, so it is left out of the error.
				errs = append(errs, field.Invalid(keyPath, field.OmitValueType{}, "value must not contain CR or LF"))
			}
			if !sectionOK || !keyOK {
				continue
			}

			if owned, ok := reg.Lookup(section, key); ok {
				if owned.Rejected {
					errs = append(errs, field.Forbidden(keyPath,
						fmt.Sprintf("%s is managed via %s (%s)", key, owned.Owner, owned.Impact)))
				}
				// Owned keys are rendered by the operator even when a
				// release's catalog lacks them, so the catalog is skipped.
				continue
			}
			if !useCatalog {
				continue
			}

			known, state, repl := cat.lookup(section, key)
			switch {
			case !known:
				// One error per section, not one per key in it.
				if !sectionReported {
					errs = append(errs, field.Invalid(secPath, section, fmt.Sprintf(
						"no such section in the %s option catalog", catName)))
					sectionReported = true
				}
			case state == optionDeprecated && repl == "":
				warnings = append(warnings, fmt.Sprintf(
					"[%s] %s is deprecated with no replacement", section, key))
			case state == optionDeprecated:
				warnings = append(warnings, fmt.Sprintf(
					"[%s] %s is deprecated, replaced by %s", section, key, repl))
			case state == optionUnknown:
				errs = append(errs, field.Invalid(keyPath, key, fmt.Sprintf(
					"no such option in the %s option catalog", catName)))
			}
		}
	}
	return errs, warnings
}

func hasNewline(s string) bool {
	return strings.ContainsAny(s, "\r\n")
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
